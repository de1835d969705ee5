package scanner_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/hookrun"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// TestAutosaveIDArrives: a window's conversation id appearing after a save
// (its hook reports it, or the agent's own record of its process appears)
// is a change worth saving, settled like a window change: the next save
// comes once the settle delay has passed since the id arrived, and
// carries it. An id that stays the same (the hook reporting it again with
// each turn) saves nothing; one that changes (/clear) saves again.
func TestAutosaveIDArrives(t *testing.T) {
	claude := []hookrun.Proc{{PID: 2100, Comm: "sh"}, {PID: 2001, Comm: "claude"}, {PID: 2000, Comm: "bash"}}
	for _, tc := range []struct {
		name            string
		arrive, another func(t *testing.T, r *rig)
		turn            func(t *testing.T, r *rig)
	}{
		{
			name: "hook",
			arrive: func(t *testing.T, r *rig) {
				r.runHook(t, 1, "claude", "SessionStart", `{"session_id":"`+hookID+`","cwd":"/a","source":"startup"}`, claude...)
			},
			turn: func(t *testing.T, r *rig) {
				r.runHook(t, 1, "claude", "UserPromptSubmit", `{"session_id":"`+hookID+`","prompt":"go"}`, claude...)
				r.clock.Advance(30 * time.Second)
				r.runHook(t, 1, "claude", "Stop", `{"session_id":"`+hookID+`"}`, claude...)
			},
			another: func(t *testing.T, r *rig) {
				r.runHook(t, 1, "claude", "SessionStart", `{"session_id":"`+uuidClear+`","cwd":"/a","source":"clear"}`, claude...)
			},
		},
		{
			name:    "agent record",
			arrive:  func(t *testing.T, r *rig) { r.claudeProcess(t, 2001, uuidRec, "idle") },
			turn:    func(t *testing.T, r *rig) { r.claudeProcess(t, 2001, uuidRec, "busy") },
			another: func(t *testing.T, r *rig) { r.claudeProcess(t, 2001, uuidClear, "idle") },
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, as, saves := autosaveRig(t)
			w := win{id: 1, title: idle, pid: 2001, argv: []string{"/usr/bin/claude", "--model", "opus"}, cwd: "/a"}
			r.kitty.set(lsOf(w), nil)
			step := func(d time.Duration) {
				t.Helper()
				r.clock.Advance(d)
				r.poll(t)
				as.Wait()
			}
			step(0)
			step(21 * time.Second) // settled: the first save, with no id
			step(2 * time.Minute)
			tc.arrive(t, r)
			step(time.Second)      // the id is seen: not settled yet
			step(10 * time.Second) // still settling
			step(11 * time.Second) // settled: saved with the id
			want := []time.Duration{21 * time.Second, 21*time.Second + 2*time.Minute + 22*time.Second}
			if diff := cmp.Diff(want, *saves); diff != "" {
				t.Fatalf("saves after the id arrived, since the start (-want +got):\n%s", diff)
			}
			if got := r.records(t)[1]; got.ID == "" {
				t.Fatalf("the journal has no id: %+v", sum(got))
			}
			for range 20 {
				tc.turn(t, r)
				step(time.Minute)
			}
			if diff := cmp.Diff(want, *saves); diff != "" {
				t.Fatalf("the same id saved again (-want +got):\n%s", diff)
			}
			tc.another(t, r)
			step(time.Second)
			step(20 * time.Second)
			if len(*saves) != 3 {
				t.Fatalf("a changed id was not saved: %v", *saves)
			}
		})
	}
}

// autosaveRig is a rig whose scanner autosaves (settle 20s, at most once a
// minute), with a Take that notes when each save was taken, since t0.
func autosaveRig(t *testing.T) (*rig, *autosave.Autosaver, *[]time.Duration) {
	t.Helper()
	saves := &[]time.Duration{}
	var r *rig
	as := &autosave.Autosaver{
		Settings: autosave.Settings{Settle: 20 * time.Second, AtMostEvery: time.Minute, AtLeastEvery: 15 * time.Minute, Keep: 5},
		Store:    autosave.Store{Paths: paths.Under(t.TempDir()), Keep: 5},
		Logf:     t.Logf,
		Take: func(context.Context, kitty.Instance) (*rewrite.Result, error) {
			*saves = append(*saves, r.clock.Now().Sub(t0))
			return &rewrite.Result{Data: []byte("save\n"), Count: 1}, nil
		},
	}
	r = newRig(t, kitty.Version{Major: 0, Minor: 48, Patch: 2}, func(o *scanner.Options) { o.Autosave = as })
	as.Clock = r.clock
	if err := statefile.EnsureState(as.Store.Paths); err != nil {
		t.Fatal(err)
	}
	return r, as, saves
}

// TestHookIDSurvivesKittyGone: a hook reports the id, and the kitty goes
// away before the scanner has read that write: the record the scanner
// closes keeps the hook's id (a restore learns it from there), rather than
// the scanner's older copy replacing it.
func TestHookIDSurvivesKittyGone(t *testing.T) {
	gone := false
	var r *rig
	r = newRig(t, kitty.Version{Major: 0, Minor: 48, Patch: 2}, func(o *scanner.Options) {
		o.Discover = func(context.Context) ([]kitty.Instance, error) {
			if gone {
				return nil, nil
			}
			return []kitty.Instance{r.inst}, nil
		}
	})
	w := win{id: 1, title: idle, pid: 2001, argv: []string{"/usr/bin/claude", "--model", "opus"}, cwd: "/a"}
	r.kitty.set(lsOf(w), nil)
	r.poll(t)
	r.clock.Advance(5 * time.Second)
	r.poll(t)
	claude := []hookrun.Proc{{PID: 2100, Comm: "sh"}, {PID: 2001, Comm: "claude"}, {PID: 2000, Comm: "bash"}}
	r.clock.Advance(time.Second)
	r.runHook(t, 1, "claude", "SessionStart", `{"session_id":"`+hookID+`","cwd":"/a","source":"startup"}`, claude...)
	gone = true
	r.clock.Advance(time.Second)
	if err := r.sc.Rescan(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	got := r.records(t)[1]
	if got.Open || got.CloseReason != "kitty-gone" || got.ID != hookID || got.IDFrom != "hook" {
		t.Errorf("the closed record: %+v", sum(got))
	}
}
