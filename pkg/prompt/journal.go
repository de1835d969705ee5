package prompt

import (
	"fmt"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// JournalFacts is what the journal says of the conversation r resumes,
// `last active 12m ago · 7 runs finished · 1h20m of work`, and the tab it
// was in (as saved, else as the journal last saw it); "" when it has no
// record of it (no id, the journal off or missing).
func JournalFacts(j *journal.Journal, r resumerecord.Record, now time.Time) (facts, tab string) {
	if r.ID == "" || j == nil || j.Off {
		return "", r.Tab
	}
	rec, err := j.LatestOf(r.Agent, r.ID)
	if err != nil || rec == nil {
		return "", r.Tab
	}
	runs := fmt.Sprintf("%d runs finished", rec.RunsFinished)
	if rec.RunsFinished == 1 {
		runs = "1 run finished"
	}
	tab = rec.TabTitle
	if r.Tab != "" {
		tab = r.Tab // as saved: what the user sees restored
	}
	return fmt.Sprintf("last active %s · %s · %s of work", ago(now.Sub(rec.LastSeen)), runs, span(rec.Working())), tab
}

func ago(d time.Duration) string {
	if d < time.Minute {
		return "just now"
	}
	return span(d) + " ago"
}

// span is a duration as people read it: 45m, 1h20m, 3d4h.
func span(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "0m"
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

func (e *Env) journalFacts(r resumerecord.Record) (facts, tab string) {
	return JournalFacts(e.journal(), r, e.clk().Now())
}

// journal is kittymux's journal as this prompt reads it: one for the run,
// so that what it reads of the file more than once is read once while the
// file is unchanged.
func (e *Env) journal() *journal.Journal {
	if e.jrnl == nil {
		e.jrnl = journal.New(e.Paths.Journal(), journal.IsOff(e.Paths.StateDir, e.Getenv))
	}
	return e.jrnl
}
