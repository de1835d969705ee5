package journal_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
)

// FuzzJournal: agent-sessions.json is a file others can edit. Whatever it
// holds, reading it never panics; the prompt's fast lookup of one id agrees
// with the full read; and an update that changes nothing either moves a
// corrupt file aside or writes back exactly what the full read saw (bounded),
// which is what proves the update's line-by-line reading and its cache agree
// with encoding/json.
func FuzzJournal(f *testing.F) {
	for _, seed := range fuzzJournalSeeds(f) {
		f.Add(seed)
	}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "agent-sessions.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		j := journal.New(path, false)
		j.Clock = clock.NewFake(now)
		want, readErr := j.Read()
		var ce *journal.CorruptError
		switch {
		case readErr == nil:
		case errors.As(readErr, &ce), errors.Is(readErr, journal.ErrNewer):
		default:
			t.Fatalf("read: %v", readErr)
		}
		// The fast lookup finds an id as kittymux writes it: spelled out,
		// no escapes (the prompt asks only for plain ids).
		if readErr == nil && utf8.Valid(data) && !bytes.ContainsRune(data, '\\') {
			// A line without a key is no record to the fast lookup (restores
			// are lines too): hand-made, it names no window.
			keyed := &journal.File{}
			for _, r := range want.Records {
				if r.Key != "" {
					keyed.Records = append(keyed.Records, r)
				}
			}
			for _, r := range want.Records[:min(len(want.Records), 4)] {
				got, err := j.LatestOf(r.Agent, r.ID)
				if err != nil {
					t.Fatalf("LatestOf(%q, %q): %v", r.Agent, r.ID, err)
				}
				if w := keyed.Latest(r.Agent, r.ID); !sameRecord(w, got) {
					t.Fatalf("LatestOf(%q, %q) = %+v, the full read's latest %+v", r.Agent, r.ID, got, w)
				}
			}
		}

		// Twice: the second update reads through the first one's cache.
		for pass := range 2 {
			res, err := j.Update(func(*journal.File) error { return nil })
			switch {
			case errors.Is(readErr, journal.ErrNewer):
				if err == nil {
					t.Fatal("a newer journal was updated")
				}
				if b, _ := os.ReadFile(path); string(b) != string(data) {
					t.Fatal("a newer journal was rewritten")
				}
				return
			case err != nil:
				t.Fatalf("update: %v", err)
			case ce != nil && pass == 0 && res.MovedAside == "":
				t.Fatalf("a corrupt journal (%v) was not moved aside", readErr)
			}
			got, err := j.Read()
			if err != nil {
				t.Fatalf("the journal an update wrote does not read: %v", err)
			}
			if ce != nil {
				if len(got.Records) != 0 {
					t.Fatalf("after moving a corrupt journal aside: %+v", got.Records)
				}
				continue
			}
			bounded := *want
			journal.Bound(&bounded, now)
			opts := []cmp.Option{cmpopts.EquateEmpty(), cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })}
			if diff := cmp.Diff(bounded.Records, got.Records, opts...); diff != "" {
				t.Fatalf("an update that changed nothing changed the records (-read +written):\n%s", diff)
			}
			if diff := cmp.Diff(bounded.Restores, got.Restores, opts...); diff != "" {
				t.Fatalf("an update that changed nothing changed the restores (-read +written):\n%s", diff)
			}
		}
	})
}

func sameRecord(a, b *journal.Record) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Key == b.Key && a.Agent == b.Agent && a.ID == b.ID && a.LastSeen.Equal(b.LastSeen)
}

// fuzzJournalSeeds are journals as kittymux writes them and as a person
// might leave them.
func fuzzJournalSeeds(f *testing.F) [][]byte {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	path := filepath.Join(f.TempDir(), "agent-sessions.json")
	j := journal.New(path, false)
	j.Clock = clock.NewFake(now)
	if _, err := j.Update(func(fl *journal.File) error {
		fl.Upsert(journal.Record{Key: journal.Key("unix:/tmp/k-1", 1, 2, 3), Agent: "claude",
			ID: "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", Dir: "/home/u/p", Argv: []string{"claude", "--resume", "x"},
			FirstSeen: now, LastSeen: now, State: agents.StateIdle, Open: true})
		fl.Upsert(journal.Record{Key: "k2", Agent: "codex", ID: "0199a213-81c0-7800-8aa1-bbab2a035a53", TabTitle: "a \"tab\"\n",
			LastSeen: now.Add(-time.Hour), State: agents.StateWorking})
		fl.Restores = append(fl.Restores, journal.Restore{At: now, Agent: "claude", Mode: "exact", Outcome: journal.OutcomeResumed})
		return nil
	}); err != nil {
		f.Fatal(err)
	}
	written, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return [][]byte{
		written,
		[]byte(`{"version":1,"records":[]}`),
		[]byte("{\n  \"version\": 1,\n  \"records\": [\n    {\"key\": \"k\", \"agent\": \"claude\", \"id\": \"x\"}\n  ]\n}\n"),
		[]byte("{\"version\":1,\"records\":[\n{\"key\":\"a\",\"agent\":\"claude\",\"id\":\"x\"},\n{\"key\":\"b\",\"agent\":\"claude\",\"id\":\"x\",\"last_seen\":\"2026-11-30T00:00:00Z\"}\n],\"restores\":[\n{\"at\":\"2026-11-30T00:00:00Z\",\"agent\":\"claude\",\"mode\":\"exact\",\"id\":\"x\",\"outcome\":\"resumed\"}\n]}\n"),
		[]byte(`{"version":2,"records":[]}`),
		[]byte(`{"records":[]}`),
		[]byte(`{"version":1,"records":[{"key":"k","agent":"claude","id":"x"`),
		[]byte("not json"),
		{},
	}
}
