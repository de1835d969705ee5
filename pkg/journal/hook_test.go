package journal_test

import (
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
)

// TestApplyHookCounts: runs and working time come from what hooks report.
// The first event of a session the scanner judged by its title (an agent
// whose title says busy before its hook ran) replaces that guess and counts
// nothing; from then on working → idle ends a run.
func TestApplyHookCounts(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	r := journal.Record{State: agents.StateWorking, StateFrom: "title", LastSeen: t0}
	r.ApplyHook(journal.HookEvent{ID: "a", State: agents.StateIdle, At: t0.Add(3 * time.Second)})
	if r.RunsFinished != 0 || r.WorkingSeconds != 0 || r.State != agents.StateIdle || r.StateFrom != journal.FromHook {
		t.Fatalf("after the first event: %+v", r)
	}
	r.ApplyHook(journal.HookEvent{State: agents.StateWorking, At: t0.Add(4 * time.Second)})
	r.ApplyHook(journal.HookEvent{State: agents.StateIdle, At: t0.Add(6 * time.Second)})
	if r.RunsFinished != 1 || r.WorkingSeconds != 2 || r.ID != "a" {
		t.Errorf("after a prompt and a stop: runs %d, working %.1fs, id %q", r.RunsFinished, r.WorkingSeconds, r.ID)
	}
}
