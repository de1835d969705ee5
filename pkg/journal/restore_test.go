package journal_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
)

// Restore outcomes live beside the records: read back in order, bounded,
// and never taken for a record by the prompt's fast read of one id.
func TestRestores(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	j := journal.New(filepath.Join(t.TempDir(), "agent-sessions.json"), false)
	j.Now = func() time.Time { return now }
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	if _, err := j.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: "k", Agent: "claude", ID: id, LastSeen: now.Add(-time.Hour), RunsFinished: 3})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	first := journal.Restore{At: now.Add(-time.Minute), Agent: "claude", Mode: "exact", ID: id, Outcome: journal.OutcomeResumed}
	second := journal.Restore{At: now, Agent: "codex", Mode: "latest", Outcome: journal.OutcomeShell, Why: "chosen", Asked: true}
	for _, r := range []journal.Restore{first, second} {
		if err := j.AddRestore(r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := j.RestoresSince(now.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]journal.Restore{first, second}, got); diff != "" {
		t.Errorf("RestoresSince (-want +got):\n%s", diff)
	}
	if got, _ := j.RestoresSince(now); len(got) != 1 || got[0].Agent != "codex" {
		t.Errorf("since now: %+v", got)
	}
	rec, err := j.LatestOf("claude", id)
	if err != nil || rec == nil || rec.Key != "k" || rec.RunsFinished != 3 {
		t.Errorf("LatestOf after a restore of that id: %+v, %v", rec, err)
	}

	for i := range journal.MaxRestores + 5 {
		if err := j.AddRestore(journal.Restore{At: now.Add(time.Duration(i) * time.Second), Agent: "pi", Outcome: journal.OutcomeNew}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Restores); n != journal.MaxRestores || f.Restores[0].Agent != "pi" || len(f.Records) != 1 {
		t.Errorf("bounded to %d restores, oldest %+v, %d records", n, f.Restores[0], len(f.Records))
	}
}
