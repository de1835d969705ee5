package journal

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/clock"
)

// TestOrigin: a record's origin finds that record again, through the
// journal's JSON, and no other: not one under another key, nor a later
// record under the same key (the same pids used again).
func TestOrigin(t *testing.T) {
	first := time.Date(2026, 12, 1, 9, 0, 0, 123456789, time.FixedZone("x", 3600))
	key := Key("unix:/tmp/kitty-7", 7, 2, 42)
	r := Record{Key: key, Agent: "gemini", FirstSeen: first, LastSeen: first, Open: true}
	origin := r.Origin()
	if want := "2026-12-01T08:00:00.123456789Z|unix:/tmp/kitty-7|7|2|42"; origin != want {
		t.Fatalf("origin %q, want %q", origin, want)
	}
	j := New(filepath.Join(t.TempDir(), "agent-sessions.json"), false)
	j.Clock = clock.NewFake(first.Add(time.Minute))
	if _, err := j.Update(func(f *File) error {
		f.Upsert(Record{Key: Key("unix:/tmp/kitty-7", 7, 3, 42), Agent: "gemini", FirstSeen: first, LastSeen: first, Open: true})
		f.Upsert(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	back, err := New(j.Path, false).Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := back.FindOrigin(origin); got == nil || got.Key != key {
		t.Fatalf("FindOrigin after a round trip: %+v", got)
	}
	later := *back
	later.Records = []Record{{Key: key, FirstSeen: first.Add(time.Hour)}}
	for name, c := range map[string]struct {
		f      *File
		origin string
	}{
		"a later record under the same key": {&later, origin},
		"no time":                           {back, "|" + key},
		"not a time":                        {back, "yesterday|" + key},
		"no key":                            {back, first.Format(time.RFC3339Nano)},
		"empty":                             {back, ""},
		"no journal":                        {nil, origin},
	} {
		if got := c.f.FindOrigin(c.origin); got != nil {
			t.Errorf("%s: found %+v", name, got)
		}
	}
	if got := (Record{Key: key}).Origin(); got != "" {
		t.Errorf("a record never seen has origin %q", got)
	}
}
