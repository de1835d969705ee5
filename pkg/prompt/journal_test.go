package prompt

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

func TestJournalLine(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	j := journal.New(filepath.Join(t.TempDir(), "agent-sessions.json"), false)
	j.Clock = clock.NewFake(now)
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	_, err := j.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: "1", Agent: "claude", ID: id, LastSeen: now.Add(-12 * time.Minute), RunsFinished: 7,
			WorkingSeconds: (80 * time.Minute).Seconds(), TabTitle: "api work"})
		f.Upsert(journal.Record{Key: "2", Agent: "codex", ID: "one", LastSeen: now.Add(-10 * time.Second), RunsFinished: 1})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	off := journal.New(j.Path, true)
	line := func(j *journal.Journal, r resumerecord.Record, now time.Time) string {
		facts, tab := JournalFacts(j, r, now)
		return facts + " | " + tab
	}
	got := map[string]string{
		"claude":        line(j, resumerecord.Record{Agent: "claude", ID: id}, now),
		"tab as saved":  line(j, resumerecord.Record{Agent: "claude", ID: id, Tab: "api"}, now),
		"codex":         line(j, resumerecord.Record{Agent: "codex", ID: "one"}, now),
		"no record":     line(j, resumerecord.Record{Agent: "claude", ID: "nope"}, now),
		"no id":         line(j, resumerecord.Record{Agent: "claude"}, now),
		"journal off":   line(off, resumerecord.Record{Agent: "claude", ID: id}, now),
		"another agent": line(j, resumerecord.Record{Agent: "codex", ID: id}, now),
	}
	want := map[string]string{
		"claude":        `last active 12m ago · 7 runs finished · 1h20m of work | api work`,
		"tab as saved":  `last active 12m ago · 7 runs finished · 1h20m of work | api`,
		"codex":         `last active just now · 1 run finished · 0m of work | `,
		"no record":     " | ",
		"no id":         " | ",
		"journal off":   " | ",
		"another agent": " | ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
