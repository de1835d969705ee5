package store

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/restorerec"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// Restored is one agent window of a session file being restored: the
// record its restore prompt runs, and whether that prompt will run without
// asking (so the restore can wait for its outcome).
type Restored struct {
	Record restorerec.Record
	Dir    string
	Auto   bool
}

// AgentWindows reads the agent windows of a session file. auto says
// whether prompts run without asking where nothing in the record stops them
// (KITTYMUX_RESUME=auto, the resume-auto file); key checks seals: only a
// sealed record runs without asking, and never one marked --confirm.
func AgentWindows(data []byte, key []byte, auto bool) ([]Restored, error) {
	f, err := sessionfile.Parse(data)
	if err != nil {
		return nil, err
	}
	var out []Restored
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		r, ok := restorerec.FromCommandLine(l.Command(), "")
		if !ok {
			continue // not the prompt, or one that will open a shell: nothing to wait for
		}
		sealed := r.VerifyIn(key, ref.Cwd) == nil
		out = append(out, Restored{Record: r, Dir: ref.Cwd, Auto: sealed && !r.Confirm && (r.Direct || auto)})
	}
	return out, nil
}

// Confirm says which conversation the agent a prompt resumed reports it
// has (its hook, its own record of the process): id "" when it has not
// said (yet); pending when it may still say.
type Confirm func(journal.Restore) (id, from string, pending bool)

// Report pairs each restored window with the outcome its prompt recorded,
// one line a window. outcomes are those recorded since the restore began;
// each is used once. A resume is "resumed" only when the agent reports the
// conversation asked for (confirm; nil asks nothing). done says whether
// every window that runs without asking has reported, and every resume
// whose agent may still report its conversation has.
func Report(ws []Restored, outcomes []journal.Restore, confirm Confirm) (lines []string, done bool) {
	used := make([]bool, len(outcomes))
	done = true
	for _, w := range ws {
		r := w.Record
		var got *journal.Restore
		for i := range outcomes {
			o := &outcomes[i]
			if !used[i] && o.Agent == r.Agent && o.Mode == string(r.Mode) && o.ID == r.ID && o.Tab == r.Tab && sameDir(o.Dir, w.Dir) {
				used[i], got = true, o
				break
			}
		}
		what := r.Agent
		if r.ID != "" {
			what += " " + ids.Short(r.ID)
		}
		line := fmt.Sprintf("%-20s %s", what, w.Dir)
		switch {
		case got != nil && got.Outcome == journal.OutcomeResumed && got.ID != "":
			text, wait := describeResume(*got, confirm)
			line += "  " + text
			done = done && !wait
		case got != nil:
			line += "  " + describe(*got)
		case w.Auto:
			line += "  no word from its prompt yet"
			done = false
		default:
			line += "  waiting at its prompt for a key"
		}
		lines = append(lines, line)
	}
	return lines, done
}

// describeResume says whether the agent resumed the conversation asked
// for: the id it reports is compared with the one asked; wait: it has not
// reported yet and may.
func describeResume(o journal.Restore, confirm Confirm) (text string, wait bool) {
	how := "without asking"
	if o.Asked {
		how = "as answered"
	}
	why := ""
	if o.Why != "" {
		why = ": " + o.Why
	}
	var id, from string
	var pending bool
	if confirm != nil {
		id, from, pending = confirm(o)
	}
	switch {
	case id == o.ID:
		return "resumed " + how + why, false
	case id != "":
		return fmt.Sprintf("started a different conversation %s %s (asked for %s; %s reports %s)", ids.Short(id), how, ids.Short(o.ID), from, id), false
	}
	return fmt.Sprintf("resume run %s%s, not confirmed: %s has not reported its conversation", how, why, o.Agent), pending
}

func describe(o journal.Restore) string {
	how := "without asking"
	if o.Asked {
		how = "as answered"
	}
	why := ""
	if o.Why != "" {
		why = ": " + o.Why
	}
	switch o.Outcome {
	case journal.OutcomeResumed:
		return "resumed " + how + why
	case journal.OutcomeNew:
		return "new conversation " + how + why
	case journal.OutcomeAttached:
		return "attached " + how + why
	case journal.OutcomeAgentMissing:
		return "agent missing, a shell: " + o.Why
	case journal.OutcomeShell, journal.OutcomeFailed:
		return o.Outcome + ": " + o.Why
	}
	return o.Outcome
}

// sameDir compares a directory the prompt saw (its working directory) with
// one the session file names, through links.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// StaggerWait is how much longer than its own wait a restore waits for
// the prompts that run without asking: they start one after another per
// agent, interval apart (package stagger), so the last of n windows of one
// agent starts (n-1)×interval after the first.
func StaggerWait(ws []Restored, interval time.Duration) time.Duration {
	n := map[string]int{}
	most := 0
	for _, w := range ws {
		if w.Auto {
			n[w.Record.Agent]++
			most = max(most, n[w.Record.Agent])
		}
	}
	if most <= 1 {
		return 0
	}
	return time.Duration(most-1) * interval
}

// ReportWait is how long `sessions restore` waits, by default, for the
// prompts that run without asking.
const ReportWait = 5 * time.Second
