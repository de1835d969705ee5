package journal_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
)

// Restore outcomes live beside the records: read back in order, bounded,
// and never taken for a record by the prompt's fast read of one id.
func TestRestores(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	j := journal.New(filepath.Join(t.TempDir(), "agent-sessions.json"), false)
	j.Clock = clock.NewFake(now)
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

// A queued outcome (the prompt's, written without the lock or an fsync) is
// read at once, moved into the journal by the next update of anyone, and
// never counted twice, even when a fold stopped before removing its file.
func TestQueueRestore(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	state := t.TempDir()
	j := journal.New(filepath.Join(state, "agent-sessions.json"), false)
	j.Clock = clock.NewFake(now)
	queued := journal.Restore{At: now, Agent: "claude", Mode: "exact", ID: "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73",
		Outcome: journal.OutcomeResumed, KittyPID: 10, WindowID: 3}
	older := journal.Restore{At: now.Add(-time.Minute), Agent: "codex", Mode: "latest", Outcome: journal.OutcomeShell}
	if err := j.AddRestore(older); err != nil {
		t.Fatal(err)
	}
	if err := j.QueueRestore(queued); err != nil {
		t.Fatal(err)
	}
	queue := func() string {
		b, _ := os.ReadFile(j.QueuePath())
		return string(b)
	}
	if q := queue(); strings.Count(q, "\n") != 1 || !strings.Contains(q, `"window_id":3`) {
		t.Fatalf("queue: %q", q)
	}
	// A line in the queue that is not an outcome (a write cut short) is no
	// outcome.
	if err := appendTo(j.QueuePath(), "{not json\n"); err != nil {
		t.Fatal(err)
	}
	want := []journal.Restore{older, queued}
	got, err := j.RestoresSince(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("before any update (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(j.Path); strings.Contains(string(b), `"window_id":3`) {
		t.Errorf("the journal took the queue before an update:\n%s", b)
	}
	if f, _ := j.Read(); !cmp.Equal(want, f.Restores) {
		t.Errorf("Read does not show the queue: %+v", f.Restores)
	}
	if _, err := j.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: "k", Agent: "claude", LastSeen: now})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f, _ := j.Read()
	if diff := cmp.Diff(want, f.Restores); diff != "" {
		t.Errorf("after an update (-want +got):\n%s", diff)
	}
	if q := queue(); q != "" {
		t.Errorf("the queue was not emptied: %q", q)
	}
	if err := j.QueueRestore(queued); err != nil {
		t.Fatal(err)
	}
	if got, _ := j.RestoresSince(time.Time{}); !cmp.Equal(want, got) {
		t.Errorf("counted twice: %+v", got)
	}
	if _, err := j.Update(func(*journal.File) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if f, _ := j.Read(); !cmp.Equal(want, f.Restores) || queue() != "" {
		t.Errorf("after a second fold: %+v, queue %q", f.Restores, queue())
	}
	if err := journal.New(j.Path, true).QueueRestore(queued); !errors.Is(err, journal.ErrOff) {
		t.Errorf("with the journal off: %v", err)
	}
}

func appendTo(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	return errors.Join(err, f.Close())
}
