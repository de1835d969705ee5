// Package history reads the journal as people ask about it: every agent
// session in a time window, what it did and how it ended, whether its
// conversation is still there, and times said for people.
package history

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
)

// Entry is one agent session of `sessions history`. Field names are stable
// (`--json`).
type Entry struct {
	Agent          string    `json:"agent"`
	ID             string    `json:"id,omitempty"`
	ShortID        string    `json:"short_id,omitempty"`
	Dir            string    `json:"dir"`
	Tab            string    `json:"tab,omitempty"`
	Argv           []string  `json:"argv"`
	RunsFinished   int       `json:"runs_finished"`
	WorkingSeconds float64   `json:"working_seconds"`
	FirstSeen      time.Time `json:"first_seen"`
	LastActive     time.Time `json:"last_active"`
	// Running: the journal holds the session open (its scanner saw it last
	// pass, or has not seen it end yet). State is its last state then.
	Running bool   `json:"running"`
	State   string `json:"state"`
	// Ended is how a closed session ended: journal.ClosedWindow or
	// journal.ClosedKittyGone; EndedDetail says more for people.
	Ended       string     `json:"ended,omitempty"`
	EndedDetail string     `json:"ended_detail,omitempty"`
	ClosedAt    *time.Time `json:"closed_at,omitempty"`
	// RestoredAs is the journal key of a later session of the same
	// conversation (resumed after this one ended), and RestoredWindow its
	// kitty window.
	RestoredAs     string `json:"restored_as,omitempty"`
	RestoredWindow int    `json:"restored_window,omitempty"`
	Key            string `json:"key"`
	// Lost says why the agent can no longer resume the conversation (its
	// own files no longer hold it); "" when they do or do not say.
	Lost string `json:"lost,omitempty"`
	// Host is where an agent reached over ssh ran (its window's ssh
	// destination, as kittymux saw the process), ReportedBy the name its
	// hook there gave; Dir is then its directory there.
	Host       string `json:"host,omitempty"`
	ReportedBy string `json:"reported_by,omitempty"`
}

// What is the agent as people read it: its name, and "on HOST" for one
// that ran on a host reached over ssh.
func (e Entry) What() string {
	if e.Host == "" {
		return e.Agent
	}
	return e.Agent + " on " + e.Host
}

// Entries returns the sessions of f active within since before now (last
// seen then or later, or still open), most recently active first.
func Entries(f *journal.File, now time.Time, since time.Duration) []Entry {
	cutoff := now.Add(-since)
	var out []Entry
	for _, r := range f.Records {
		if !r.Open && r.LastSeen.Before(cutoff) {
			continue
		}
		e := Entry{Agent: r.Agent, ID: r.ID, ShortID: ids.Short(r.ID), Dir: r.Dir, Tab: r.TabTitle, Argv: r.Argv,
			RunsFinished: r.RunsFinished, WorkingSeconds: r.WorkingSeconds, FirstSeen: r.FirstSeen,
			LastActive: r.LastSeen, Running: r.Open, State: r.State, Key: r.Key, Host: r.Host, ReportedBy: r.ReportedBy}
		if e.Argv == nil {
			e.Argv = []string{}
		}
		if !r.Open {
			e.Ended, e.EndedDetail, e.ClosedAt = r.CloseReason, r.CloseDetail, r.ClosedAt
			if later := restoredAs(f, r); later != nil {
				e.RestoredAs, e.RestoredWindow = later.Key, later.WindowID
			}
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].LastActive.Equal(out[j].LastActive) {
			return out[i].LastActive.After(out[j].LastActive)
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// restoredAs is the first session of r's conversation that started after r
// was last seen: the same conversation, resumed.
func restoredAs(f *journal.File, r journal.Record) *journal.Record {
	if r.ID == "" {
		return nil
	}
	var best *journal.Record
	for i := range f.Records {
		o := &f.Records[i]
		if o.Key == r.Key || o.Agent != r.Agent || o.FirstSeen.Before(r.LastSeen) {
			continue
		}
		if o.ID != r.ID && !contains(o.PreviousIDs, r.ID) {
			continue
		}
		if best == nil || o.FirstSeen.Before(best.FirstSeen) {
			best = o
		}
	}
	return best
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Status says in a few words whether e runs and how it ended.
func (e Entry) Status() string {
	if e.Running {
		return "running (" + e.State + ")"
	}
	var s string
	switch {
	case e.Ended == journal.ClosedKittyGone:
		s = "kitty gone"
	case e.EndedDetail != "" && strings.Contains(e.EndedDetail, "agent exited"):
		s = "agent exited"
	case e.Ended == journal.ClosedWindow:
		s = "window closed"
	default:
		s = "closed"
	}
	if e.RestoredAs != "" {
		s += fmt.Sprintf(", restored as window %d", e.RestoredWindow)
	}
	if e.Lost != "" {
		s += "; " + e.Lost
	}
	return s
}

// Duration renders d for a table: "45s", "12m", "1h20m", "3d4h".
func Duration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		h := int(d.Hours())
		if m := int(d.Minutes()) - 60*h; m > 0 {
			return fmt.Sprintf("%dh%dm", h, m)
		}
		return fmt.Sprintf("%dh", h)
	default:
		days := int(d.Hours()) / 24
		if h := int(d.Hours()) - 24*days; h > 0 {
			return fmt.Sprintf("%dd%dh", days, h)
		}
		return fmt.Sprintf("%dd", days)
	}
}

// Ago renders how long before now t was: "12m ago", "just now".
func Ago(now, t time.Time) string {
	d := now.Sub(t)
	if d < time.Minute {
		return "just now"
	}
	return Duration(d) + " ago"
}

// When is a time for people: the clock time, and how long ago.
func When(now, t time.Time) string {
	layout := "15:04:05"
	if now.Local().Format(time.DateOnly) != t.Local().Format(time.DateOnly) {
		layout = time.DateTime
	}
	return "at " + t.Local().Format(layout) + " (" + Ago(now, t) + ")"
}

// Working is the time spent working as a duration.
func (e Entry) Working() time.Duration {
	return time.Duration(e.WorkingSeconds * float64(time.Second))
}

// Lost asks the agents' own files whether a journal record's conversation
// is still there (claude deletes old transcripts, codex archives threads,
// people delete files): why it is not, or "".
func Lost(set *agents.Set, getenv func(string) string) func(journal.Record) string {
	return func(r journal.Record) string {
		run := conversations.Run{Argv: r.Argv, Dir: r.Dir, Getenv: conversations.EnvOver(r.Env, getenv)}
		return conversations.FindRun(set, r.Agent, r.ID, run).Lost(r.Agent)
	}
}

// MarkLost marks the ended entries of jf (es, from Entries) whose
// conversation the agent no longer has, as lost says of their records.
// An agent's on a host reached over ssh is not looked for: its files are
// there.
func MarkLost(es []Entry, jf *journal.File, lost func(journal.Record) string) {
	byKey := make(map[string]journal.Record, len(jf.Records))
	for _, r := range jf.Records {
		byKey[r.Key] = r
	}
	for i := range es {
		if es[i].Running || es[i].ID == "" || es[i].Host != "" {
			continue
		}
		if r, ok := byKey[es[i].Key]; ok {
			es[i].Lost = lost(r)
		}
	}
}
