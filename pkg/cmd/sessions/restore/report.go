package restore

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/spinner"
	"github.com/kittymux/kittymux/pkg/stagger"
)

// ReportWait is how long `sessions restore` waits, by default, for the
// prompts that run without asking.
const ReportWait = 5 * time.Second

// Report prints what each agent window's restore prompt did, as the
// prompts record it in the journal, after waiting up to o.Wait for those
// that run without asking (a spinner on IO.ErrOut meanwhile, when it is a
// terminal).
func (o *RestoreOptions) Report(ctx context.Context, path string, since time.Time) {
	data, err := published.ReadRaw(path)
	if err != nil {
		return
	}
	key, _ := resumerecord.ReadKey(o.Paths.ResumeKey())
	_, autoFile := os.Stat(o.Paths.ResumeAuto())
	ws, err := published.AgentWindows(data, key, o.Getenv("KITTYMUX_RESUME") == "auto" || autoFile == nil)
	if err != nil || len(ws) == 0 {
		return
	}
	j := journal.New(o.Paths.Journal(), journal.IsOff(o.Paths.StateDir, o.Getenv))
	if j.Off {
		fmt.Fprintf(o.IO.Out, "%d agent windows (the journal is off, so their prompts report nothing)\n", len(ws))
		return
	}
	// Resumes without asking start one after another per agent: the
	// report waits for the last of them too.
	interval, _ := stagger.Interval(o.Paths, o.Getenv)
	var auto []string
	for _, w := range ws {
		if w.Auto {
			auto = append(auto, w.Record.Agent)
		}
	}
	deadline := time.Now().Add(o.Wait + stagger.Span(auto, interval))
	recs := live.Records{ProcRoot: "/proc", Getenv: o.Getenv}
	sp := spinner.Start(o.IO.ErrOut, fmt.Sprintf("waiting for the prompts of %d agent window(s)", len(ws)))
	defer sp.Stop()
	for {
		// One read a pass: the outcomes and the records they are checked
		// against.
		jf, _ := j.Read()
		var outcomes []journal.Restore
		if jf != nil {
			outcomes = jf.RestoresSince(since)
		}
		lines, done := outcomeLines(ws, outcomes, func(r journal.Restore) (string, string, bool) {
			return recs.Resumed(jf, r)
		})
		if done || !time.Now().Before(deadline) || ctx.Err() != nil {
			sp.Stop()
			for _, l := range lines {
				// Records and directories come from the editable file.
				fmt.Fprintf(o.IO.Out, "  %s\n", kitty.Printable(l))
			}
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// confirmer says which conversation the agent a prompt resumed reports it
// has (its hook, its own record of the process): id "" when it has not
// said (yet); pending when it may still say.
type confirmer func(journal.Restore) (id, from string, pending bool)

// outcomeLines pairs each restored window with the outcome its prompt
// recorded, one line a window. outcomes are those recorded since the
// restore began; each is used once. A resume is "resumed" only when the
// agent reports the conversation asked for (confirm; nil asks nothing).
// done says whether every window that runs without asking has reported,
// and every resume whose agent may still report its conversation has.
func outcomeLines(ws []published.Restored, outcomes []journal.Restore, confirm confirmer) (lines []string, done bool) {
	used := make([]bool, len(outcomes))
	done = true
	for _, w := range ws {
		r := w.Record
		got := w.Outcome(outcomes, used)
		what, dir := r.Agent, w.Dir
		if ssh, ok := remote.ParseSSH(r.Argv); ok && r.Remote != "" {
			// An agent on a host reached over ssh: the host its ssh
			// command reaches, its directory there.
			what, dir = r.Agent+" on "+ssh.Host(), r.RemoteDir
		}
		if r.ID != "" {
			what += " " + ids.Short(r.ID)
		}
		line := fmt.Sprintf("%-20s %s", what, dir)
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
func describeResume(o journal.Restore, confirm confirmer) (text string, wait bool) {
	how, why := howWhy(o)
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
	how, why := howWhy(o)
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

// howWhy says how a prompt went on (without asking, or as answered) and
// why, as ": why".
func howWhy(o journal.Restore) (how, why string) {
	how = "without asking"
	if o.Asked {
		how = "as answered"
	}
	if o.Why != "" {
		why = ": " + o.Why
	}
	return how, why
}
