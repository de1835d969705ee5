package journal

import (
	"strings"
	"time"
)

// Origin names one record for good: its key (kitty, window, agent process)
// and when it was first seen, "2026-12-01T09:00:00.5Z|unix:/tmp/kitty-7|7|2|42".
// A save writes it into the restore record of a window whose conversation
// it did not know yet; the restore prompt finds the same record by it
// (FindOrigin), and the id the agent reported for that very process after
// the save. The time tells the record apart from a later one under the
// same key (a kitty, window and agent started again with the same pids).
func (r Record) Origin() string {
	if r.Key == "" || r.FirstSeen.IsZero() {
		return ""
	}
	return r.FirstSeen.UTC().Format(time.RFC3339Nano) + "|" + r.Key
}

// FindOrigin is the record origin names (Record.Origin), or nil.
func (f *File) FindOrigin(origin string) *Record {
	at, key, ok := strings.Cut(origin, "|")
	if f == nil || !ok || key == "" {
		return nil
	}
	first, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return nil
	}
	if r := f.Find(key); r != nil && r.FirstSeen.Equal(first) {
		return r
	}
	return nil
}
