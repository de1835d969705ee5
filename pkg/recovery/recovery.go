// Package recovery rebuilds work from the journal when no save is recent
// enough (kitty 0.26.5 cannot save at all): a session file with a tab per
// recently active conversation that no kitty runs now, each window running
// the restore prompt with the conversation's resume argv, decided by the
// same rules and sealed the same way as a save. The file holds only the
// directives kitty 0.26.5 loads: new_tab, cd, launch.
package recovery

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// Options is what Build needs.
type Options struct {
	Agents  *agents.Set
	Journal *journal.File
	Clock   clock.Clock // nil: the system's
	// Since: conversations last active longer ago are left alone.
	Since time.Duration
	// Closed also recovers conversations whose window was closed on
	// purpose (or whose agent exited while its kitty lived).
	Closed bool
	// Live are the kitties that answered now.
	Live []LiveKitty
	// ResumeBin is the absolute path of kittymux-resume.
	ResumeBin string
	// Key seals each record; nil writes unsealed ones, which the prompt
	// runs only on a key press.
	Key []byte
	// Check probes the agents the conversations ran (cached); nil trusts
	// the definitions.
	Check func(agentNames []string) probe.Probes
	// Stat says whether a directory is still there; nil does not look.
	Stat func(string) error
	// Lost says why the agent's own files no longer hold a conversation
	// (conversations.Conversation.Lost); nil does not look.
	Lost func(r journal.Record) string
	// Remote is the journal of agents that ran on hosts reached over ssh
	// (nil: none). Each comes back as a window in Home that runs its ssh
	// command as seen and asks its host to resume it.
	Remote *journal.File
	Home   string
}

// LiveKitty is one kitty that answered ls now.
type LiveKitty struct {
	Socket string
	PID    int
	// Agents are its agent windows, with the ids their agents report.
	Agents []live.AgentWindow
	// Waiting are the conversations restore prompts in its windows ask
	// about: not running yet, but already coming back there.
	Waiting []Conversation
}

// Conversation names one conversation of one agent.
type Conversation struct {
	Agent string
	ID    string
}

// Live reads the kitties that answered: their agent windows (ids as the
// agents report them, through recs) and their waiting restore prompts. A
// kitty that did not answer is not live: its conversations are recovered.
func Live(set *agents.Set, answers []kitty.Answer, recs live.Records) []LiveKitty {
	var out []LiveKitty
	for _, a := range answers {
		if a.Err != nil {
			continue
		}
		lk := LiveKitty{Socket: a.Instance.Addr.String(), PID: a.Instance.PID, Agents: recs.AgentWindows(set, a.LS)}
		recs.ReadIDs(lk.Agents)
		for _, ref := range kitty.Windows(a.LS) {
			for _, p := range ref.Window.ForegroundProcesses {
				if r, ok := resumerecord.FromCommandLine(p.Cmdline, ""); ok && r.ID != "" {
					lk.Waiting = append(lk.Waiting, Conversation{Agent: r.Agent, ID: r.ID})
				}
			}
		}
		out = append(out, lk)
	}
	return out
}

// Tab is one recovered conversation: a tab with one window. Field names
// are stable (`recover --json`).
type Tab struct {
	Title string `json:"title"`
	Dir   string `json:"dir"`
	plan.Decision
	// Key is the journal record the tab comes from.
	Key        string    `json:"key"`
	LastActive time.Time `json:"last_active"`
	// Host is where an agent reached over ssh ran, and ReportedBy the name
	// its hook there gave; Dir is then its directory there.
	Host       string `json:"host,omitempty"`
	ReportedBy string `json:"reported_by,omitempty"`
}

// Skipped is a conversation of the window that does not come back, and why.
type Skipped struct {
	Agent      string    `json:"agent"`
	ID         string    `json:"id,omitempty"`
	Dir        string    `json:"dir"`
	Key        string    `json:"key"`
	LastActive time.Time `json:"last_active"`
	Why        string    `json:"why"`
	Host       string    `json:"host,omitempty"`
}

// Plan is what Build decided, and the session file when a tab comes back.
type Plan struct {
	Tabs    []Tab     `json:"tabs"`
	Skipped []Skipped `json:"skipped"`
	Data    []byte    `json:"-"`
}

// candidate is the latest record of one conversation.
type candidate struct {
	rec journal.Record
	cmd recognize.Command
	tab string
	dir string
}

// Build decides what comes back and writes the session file.
func Build(o Options) (*Plan, error) {
	if o.Agents == nil || o.Journal == nil {
		return nil, errors.New("recover: no agent definitions or journal")
	}
	if o.ResumeBin == "" {
		return nil, errors.New("recover: no path for kittymux-resume")
	}
	out := &Plan{Tabs: []Tab{}, Skipped: []Skipped{}}
	cands := o.candidates(out)
	ws, names := o.windows(cands)
	var probes probe.Probes
	if o.Check != nil && len(names) > 0 {
		probes = o.Check(names)
	}
	var file strings.Builder
	fmt.Fprintf(&file, "# kittymux sessions recover: a tab per conversation last active within %s that no kitty\n", history.Duration(o.Since))
	file.WriteString("# runs now. Only the directives kitty 0.26.5 loads: new_tab, cd, launch.\n")
	for _, d := range plan.Decide(o.Agents, ws, probes) {
		if d.WindowID > len(cands) {
			continue
		}
		c := cands[d.WindowID-1]
		lines, why, ok := o.tabOf(c, d)
		if !ok {
			out.skip(c.rec, why)
			continue
		}
		file.WriteString(lines)
		out.Tabs = append(out.Tabs, Tab{Title: c.tab, Dir: c.dir, Decision: d, Key: c.rec.Key, LastActive: c.rec.LastSeen})
		// Its window id is a position among the journal's records: no
		// kitty window has it.
		out.Tabs[len(out.Tabs)-1].WindowID = 0
	}
	if o.Remote != nil {
		for _, r := range latestPerConversation(o.Remote, clock.Or(o.Clock).Now().Add(-o.Since)) {
			lines, tab, why := o.remoteTab(r)
			if why != "" {
				out.skip(r, why)
				continue
			}
			file.WriteString(lines)
			out.Tabs = append(out.Tabs, tab)
		}
	}
	if len(out.Tabs) > 0 {
		out.Data = []byte(file.String())
	}
	return out, nil
}

func (p *Plan) skip(r journal.Record, why string) {
	p.Skipped = append(p.Skipped, Skipped{Agent: r.Agent, ID: r.ID, Dir: r.Dir, Key: r.Key, LastActive: r.LastSeen, Why: why, Host: r.Host})
}

// candidates are the journal's conversations that can come back, in the
// order their windows were opened; the others are skipped in plan.
func (o Options) candidates(plan *Plan) []candidate {
	var cands []candidate
	for _, r := range latestPerConversation(o.Journal, clock.Or(o.Clock).Now().Add(-o.Since)) {
		c, why := o.candidate(r)
		if why != "" {
			plan.skip(r, why)
			continue
		}
		cands = append(cands, c)
	}
	// The tabs come back in the order the windows were opened.
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i].rec, cands[j].rec
		if !a.FirstSeen.Equal(b.FirstSeen) {
			return a.FirstSeen.Before(b.FirstSeen)
		}
		return a.WindowID < b.WindowID
	})
	return cands
}

// candidate is r as a window to recover, or why it is not one.
func (o Options) candidate(r journal.Record) (candidate, string) {
	if why := o.notRecoverable(r); why != "" {
		return candidate{}, why
	}
	if r.ID != "" && o.Lost != nil {
		if why := o.Lost(r); why != "" {
			return candidate{}, why
		}
	}
	cmd, ok := recognize.Argv(o.Agents, r.Argv)
	if !ok || cmd.Agent != r.Agent {
		return candidate{}, fmt.Sprintf("its command %s is not %s as the definitions know it now", recognize.Quote(r.Argv), r.Agent)
	}
	if why := sessionfile.DirProblem(r.Dir); why != "" {
		return candidate{}, why
	}
	if o.Stat != nil {
		if err := o.Stat(r.Dir); err != nil {
			return candidate{}, fmt.Sprintf("its directory is gone: %v", err)
		}
	}
	cmd, ok = cmd.Placed(r.Dir)
	if !ok {
		return candidate{}, fmt.Sprintf("the program %q is a relative path", cmd.Program)
	}
	return candidate{rec: r, cmd: cmd, tab: title(r), dir: r.Dir}, ""
}

// windows are what the rules see: the recovered windows and every live
// agent window, so "latest" is never chosen where a running window may own
// the newest conversation. Live windows get ids after the recovered ones.
// names are the recovered windows' agents, to probe.
func (o Options) windows(cands []candidate) (ws []live.AgentWindow, names []string) {
	ws = make([]live.AgentWindow, 0, len(cands))
	for i, c := range cands {
		w := live.AgentWindow{ID: i + 1, Cwd: c.dir, Cmd: c.cmd}
		if c.rec.ID != "" {
			w.KnownID, w.KnownIDFrom = c.rec.ID, "the journal ("+cmp.Or(c.rec.IDFrom, "recorded")+")"
		}
		ws = append(ws, w)
		names = append(names, c.cmd.Agent)
	}
	next := len(cands) + 1
	for _, lk := range o.Live {
		for _, aw := range lk.Agents {
			w := aw
			w.ID = next
			next++
			ws = append(ws, w)
		}
	}
	return ws, names
}

// tabOf is the session file's lines that bring c back as d decided, or
// why it cannot come back (ok false).
func (o Options) tabOf(c candidate, d plan.Decision) (lines, why string, ok bool) {
	if d.Mode == plan.ModeAsSaved || len(d.Argv) == 0 {
		return "", d.Reason, false
	}
	// The files the journal's record says the agent process ran: a
	// record without them (an older scanner's, one kittymux read from
	// kitty's ls alone) is not sealed, and the prompt asks first.
	rec := resumerecord.Record{Agent: d.Agent, Mode: d.Mode, ID: d.ID, Confirm: d.Unsure != "" || len(c.rec.Exe) == 0,
		Tab: c.tab, Dir: c.dir, Exe: c.rec.Exe, Argv: d.Argv}
	if d.Mode == plan.ModeChoose && !c.rec.FirstSeen.IsZero() {
		// The journal saw its agent process from FirstSeen to LastSeen: the
		// conversations it could hold were written since.
		rec.Since = c.rec.FirstSeen.Unix()
		rec.LastSeen = max(c.rec.LastSeen.Unix(), rec.Since)
	}
	key := o.Key
	if len(c.rec.Exe) == 0 {
		key = nil
	}
	argv, err := rec.CommandLine(o.ResumeBin, key, o.Agents.ConfigEnv())
	if err != nil {
		return "", fmt.Sprintf("the restore prompt would refuse its record: %v", err), false
	}
	lines, err = tabLines(c.tab, c.dir, argv)
	if err != nil {
		return "", err.Error(), false
	}
	return lines, "", true
}

// latestPerConversation returns, for each conversation active since cutoff,
// its most recently seen record. A conversation is its agent and id; a
// record without an id is a conversation of its own. An id a process left
// (claude's /clear) is not a conversation to bring back.
func latestPerConversation(f *journal.File, cutoff time.Time) []journal.Record {
	left := map[Conversation]bool{}
	for _, r := range f.Records {
		for _, id := range r.PreviousIDs {
			left[Conversation{r.Agent, id}] = true
		}
	}
	best := map[string]journal.Record{}
	var order []string
	for _, r := range f.Records {
		if r.LastSeen.Before(cutoff) {
			continue
		}
		k := "key\x00" + r.Key
		if r.ID != "" {
			if left[Conversation{r.Agent, r.ID}] {
				continue
			}
			k = "id\x00" + r.Agent + "\x00" + r.ID
		}
		old, seen := best[k]
		if !seen {
			order = append(order, k)
		}
		if !seen || r.LastSeen.After(old.LastSeen) {
			best[k] = r
		}
	}
	out := make([]journal.Record, 0, len(order))
	for _, k := range order {
		out = append(out, best[k])
	}
	return out
}

// notRecoverable says why r's conversation does not come back, or "".
func (o Options) notRecoverable(r journal.Record) string {
	for _, lk := range o.Live {
		if r.ID != "" {
			for _, aw := range lk.Agents {
				if aw.Cmd.Agent == r.Agent && (aw.KnownID == r.ID || aw.Cmd.ID == r.ID) {
					return fmt.Sprintf("it runs in window %d of the kitty at %s", aw.Ref.Window.ID, lk.Socket)
				}
			}
			if slices.Contains(lk.Waiting, Conversation{r.Agent, r.ID}) {
				return fmt.Sprintf("a restore prompt in the kitty at %s is already asking about it", lk.Socket)
			}
		}
		if !lk.ran(r) {
			continue
		}
		for _, aw := range lk.Agents {
			if aw.Ref.Window.ID == r.WindowID && aw.Cmd.Agent == r.Agent && (r.PID == 0 || aw.PID == r.PID) {
				return fmt.Sprintf("it runs in window %d of the kitty at %s", aw.Ref.Window.ID, lk.Socket)
			}
		}
		// Its kitty lives on without it: it was ended there.
		if !o.Closed {
			return "it ended while its kitty kept running (--closed recovers it)"
		}
		return ""
	}
	if !r.Open && r.CloseReason != journal.ClosedKittyGone && !o.Closed {
		what := "its window was closed"
		if strings.Contains(r.CloseDetail, "agent exited") {
			what = "the agent exited"
		}
		return what + " (--closed recovers it)"
	}
	return ""
}

// ran reports whether r ran in this kitty: same socket, and the same
// process where both pids are known (a socket name without -<pid> is
// reused by the next kitty).
func (lk LiveKitty) ran(r journal.Record) bool {
	return lk.Socket == r.KittySocket && (lk.PID == 0 || r.KittyPID == 0 || lk.PID == r.KittyPID)
}

// title is the tab's title: the tab's old title, else the directory's
// name. kitty 0.43 and newer expand $VAR in new_tab and launch options and
// 0.26.5 does not, so a '$' is dropped rather than read two ways.
func title(r journal.Record) string {
	t := strings.TrimSpace(strings.ReplaceAll(kitty.Printable(r.TabTitle), "$", ""))
	// A tab nobody named shows its window's title: the agent's name says
	// less than the directory.
	if t == r.Agent || (len(r.Argv) > 0 && t == filepath.Base(r.Argv[0])) {
		t = ""
	}
	if t == "" {
		t = strings.TrimSpace(strings.ReplaceAll(kitty.Printable(filepath.Base(r.Dir)), "$", ""))
	}
	if t == "" || t == "/" || t == "." {
		t = r.Agent
	}
	// With a single quote, a '`' is quoted in a way kitty 0.26.5 and 0.48.2
	// read differently (sessionfile.QuoteWord): it goes.
	if _, err := sessionfile.QuoteWord(t); err != nil {
		t = strings.ReplaceAll(t, "`", "")
	}
	return t
}

// tabLines writes one tab: its title, directory and the restore prompt. Each
// word is quoted so that kitty 0.26.5's shlex and 0.48.2's lexer read it the
// same (sessionfile.QuoteWord), and the launch line is read back as kitty
// will read it, so a word they could read differently never reaches the
// file: a record read differently would show as edited.
func tabLines(title, dir string, argv []string) (string, error) {
	// --title=VALUE: a title starting with '-' stays the option's value.
	words := []string{"--title=" + title}
	words = append(words, argv...)
	quoted := make([]string, len(words))
	for i, w := range words {
		q, err := sessionfile.QuoteWord(w)
		if err != nil {
			return "", err
		}
		quoted[i] = q
	}
	launch := "launch " + strings.Join(quoted, " ")
	lines := "new_tab " + title + "\ncd " + dir + "\n" + launch + "\n"
	f, err := sessionfile.Parse([]byte(lines))
	if err != nil {
		return "", fmt.Errorf("write its tab: %w", err)
	}
	ws := f.Windows()
	if len(ws) != 1 || !slices.Equal(ws[0].Line.Launch.Argv, argv) || ws[0].Cwd != dir || ws[0].TabTitle != title {
		return "", errors.New("its tab does not read back as written")
	}
	return lines, nil
}
