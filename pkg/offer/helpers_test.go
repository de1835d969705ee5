package offer

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func aliveSet(keys ...string) ended.Alive {
	return func(k string) bool { return slices.Contains(keys, k) }
}

func rec(key string, kittyPID int, agent, id string, last int, reason string) journal.Record {
	r := journal.Record{Key: key, Agent: agent, ID: id, KittyPID: kittyPID, KittySocket: "unix:/k", LastSeen: at(last)}
	if reason == "" {
		r.Open = true
		return r
	}
	closed := at(last + 1)
	r.ClosedAt, r.CloseReason = &closed, reason
	return r
}

func writeState(t *testing.T, p paths.Paths, st ended.File) {
	t.Helper()
	if err := ended.Update(p, func(f *ended.File) bool { *f = st; return true }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.StateDir); err != nil {
		t.Fatal(err)
	}
}
