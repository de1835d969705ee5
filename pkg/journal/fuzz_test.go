package journal_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	f.Fuzz(func(t *testing.T, data []byte) { checkJournal(t, data, nil) })
}

// FuzzJournalLog: the same with a log of changes beside the file
// (agent-sessions.json.log), which others can edit too: the writers' reading
// of it agrees with a reader's, and the prompt's lookup with both.
func FuzzJournalLog(f *testing.F) {
	for _, seed := range fuzzLogSeeds(f) {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, data, log []byte) { checkJournal(t, data, log) })
}

// checkJournal checks a journal file holding data, with a log holding log
// (none: nil).
func checkJournal(t *testing.T, data, log []byte) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "agent-sessions.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	j := journal.New(path, false)
	if log != nil {
		if err := os.WriteFile(j.LogPath(), log, 0o600); err != nil {
			t.Fatal(err)
		}
	}
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
	// no escapes (the prompt asks only for plain ids), and a key to a
	// record.
	plain := func(b []byte) bool { return utf8.Valid(b) && !bytes.ContainsRune(b, '\\') }
	if readErr == nil && plain(data) && plain(log) && uniqueKeys(want.Records) {
		// A line without a key is no record to the fast lookup (restores
		// are lines too): hand-made, it names no window.
		keyed := &journal.File{}
		for _, r := range want.Records {
			if r.Key != "" {
				keyed.Records = append(keyed.Records, r)
			}
		}
		for _, r := range want.Records[:min(len(want.Records), 4)] {
			// Spelled out by kittymux too: encoding/json writes these
			// escaped (an id the agents' patterns never allow).
			if strings.ContainsAny(r.ID, "<>&\u2028\u2029") {
				continue
			}
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
		var seen []journal.Record
		res, err := j.Update(func(f *journal.File) error { seen = slices.Clone(f.Records); return nil })
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
		opts := []cmp.Option{cmpopts.EquateEmpty(), cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })}
		if ce == nil && pass == 0 {
			if diff := cmp.Diff(want.Records, seen, opts...); diff != "" {
				t.Fatalf("an update read other records than a reader (-read +update):\n%s", diff)
			}
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
		if diff := cmp.Diff(bounded.Records, got.Records, opts...); diff != "" {
			t.Fatalf("an update that changed nothing changed the records (-read +written):\n%s", diff)
		}
		if diff := cmp.Diff(bounded.Restores, got.Restores, opts...); diff != "" {
			t.Fatalf("an update that changed nothing changed the restores (-read +written):\n%s", diff)
		}
	}
}

func uniqueKeys(rs []journal.Record) bool {
	seen := map[string]bool{}
	for _, r := range rs {
		if seen[r.Key] {
			return false
		}
		seen[r.Key] = true
	}
	return true
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
		[]byte(`{"version":3,"records":[]}`),
		[]byte(`{"records":[]}`),
		[]byte(`{"version":1,"records":[{"key":"k","agent":"claude","id":"x"`),
		[]byte("not json"),
		{},
	}
}

// fuzzLogSeeds are journals with their logs as kittymux writes them, and
// as a crash or a person might leave them.
func fuzzLogSeeds(f testing.TB) [][2][]byte {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	path := filepath.Join(f.TempDir(), "agent-sessions.json")
	j := journal.New(path, false)
	j.Clock = clock.NewFake(now)
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	for _, fn := range []func(fl *journal.File){
		func(fl *journal.File) {
			fl.Upsert(journal.Record{Key: "a", Agent: "claude", ID: id, LastSeen: now, State: agents.StateIdle, Open: true})
			fl.Upsert(journal.Record{Key: "b", Agent: "codex", ID: "0199a213-81c0-7800-8aa1-bbab2a035a53", LastSeen: now})
		},
		func(fl *journal.File) { fl.Find("a").RunsFinished = 2 },
		func(fl *journal.File) {
			fl.Upsert(journal.Record{Key: "c", Agent: "claude", ID: id, LastSeen: now.Add(time.Minute), PreviousIDs: []string{"old"}})
		},
		func(fl *journal.File) { fl.Records = fl.Records[1:] },
		func(fl *journal.File) {
			fl.Restores = append(fl.Restores, journal.Restore{At: now, Agent: "claude", Mode: "exact", ID: id, Outcome: journal.OutcomeResumed})
		},
	} {
		if _, err := j.Update(func(fl *journal.File) error { fn(fl); return nil }); err != nil {
			f.Fatal(err)
		}
	}
	file, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	log, err := os.ReadFile(j.LogPath())
	if err != nil {
		f.Fatal(err)
	}
	head, _, _ := bytes.Cut(log, []byte("\n"))
	var gen uint64
	fmt.Sscanf(string(head), `{"log":%d}`, &gen)
	return [][2][]byte{
		{file, log},
		{file, append(slices.Clone(log), `{"put":[{"key":"a","agent":"claude","id":"x"`...)},
		{file, append(slices.Clone(log), "{\"put\":5}\n{\"drop\":[\"c\"]}\n"...)},
		{file, fmt.Appendf(nil, "{\"log\":%d}\n{\"drop\":[\"a\"]}\n", gen+1)},
		{file, fmt.Appendf(nil, "{\"log\":%d}\n{\"put\":[{\"key\":\"a\",\"agent\":\"claude\",\"id\":\"y\"}]}\n", gen-1)},
		{file, nil},
		{[]byte(`{"version":1,"records":[{"key":"a","agent":"claude","id":"x"}]}`), []byte("{\"log\":1}\n{\"drop\":[\"a\"]}\n")},
		{[]byte(`{"version":2,"log":7,"records":[{"key":"a","agent":"claude","id":"x"}]}`), []byte("{\"log\":7}\n{\"put\":[{\"key\":\"b\",\"agent\":\"claude\",\"id\":\"x\"}]}\n")},
	}
}
