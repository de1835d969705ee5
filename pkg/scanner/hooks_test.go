package scanner_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/hookrun"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
)

const hookID = "9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b"

// runHook runs `kittymux hook` as the agent with ancestors would, in
// window w of the rig's kitty, at the rig's time.
func (r *rig) runHook(t *testing.T, w int, agent, event, payload string, ancestors ...hookrun.Proc) {
	t.Helper()
	env := map[string]string{"KITTY_WINDOW_ID": strconvItoa(w), "KITTY_PID": "7", "KITTY_LISTEN_ON": "unix:/tmp/kitty-7"}
	o := hookrun.Options{
		Paths:       paths.Paths{StateDir: filepath.Dir(r.journal.Path)},
		Getenv:      func(k string) string { return env[k] },
		Clock:       r.clock,
		Ancestors:   func(int) []hookrun.Proc { return ancestors },
		SetUserVars: func(context.Context, kitty.Address, string, []string) error { return nil },
	}
	if _, err := hookrun.Run(t.Context(), o, agent, event, strings.NewReader(payload)); err != nil {
		t.Fatalf("hook %s %s: %v", agent, event, err)
	}
}

func strconvItoa(i int) string { return strconv.Itoa(i) }

// TestHookStateWins: where a hook reports, the id, the state, the runs and
// the working time are the hook's, whatever the title says, and the
// scanner's own writes (heartbeats) keep them.
func TestHookStateWins(t *testing.T) {
	r := newRig(t, kitty.Version{Major: 0, Minor: 26, Patch: 5})
	w := win{id: 1, title: idle, pid: 2001, argv: []string{"/usr/bin/claude", "--model", "opus"}, cwd: "/a"}
	r.kitty.set(lsOf(w), nil)
	r.poll(t)
	claude := []hookrun.Proc{{PID: 2100, Comm: "sh"}, {PID: 2001, Comm: "claude"}, {PID: 2000, Comm: "bash"}}

	r.clock.Advance(5 * time.Second)
	r.runHook(t, 1, "claude", "SessionStart", `{"session_id":"`+hookID+`","cwd":"/a","source":"startup"}`, claude...)
	r.clock.Advance(5 * time.Second)
	r.runHook(t, 1, "claude", "UserPromptSubmit", `{"session_id":"`+hookID+`","prompt":"go"}`, claude...)
	// The title still says idle: the hook says working.
	r.clock.Advance(2 * time.Second)
	r.poll(t)
	if got := r.records(t)[1]; got.State != "working" || got.StateFrom != "hook" || got.ID != hookID || got.IDFrom != "hook" {
		t.Fatalf("after the prompt: %+v", sum(got))
	}
	// A busy title after the turn ended does not make it work again.
	r.clock.Advance(68 * time.Second)
	r.runHook(t, 1, "claude", "Stop", `{"session_id":"`+hookID+`"}`, claude...)
	w.title = busy
	r.kitty.set(lsOf(w), nil)
	r.clock.Advance(2 * time.Second)
	r.poll(t)
	// Heartbeats rewrite the record: the hook's counts stay.
	for range 3 {
		r.clock.Advance(time.Minute)
		r.poll(t)
	}
	want := summary{Agent: "claude", ID: hookID, IDFrom: "hook", Dir: "/a", TabTitle: "work", State: "idle",
		Argv: []string{"/usr/bin/claude", "--model", "opus"}, Runs: 1, Working: 70 * time.Second, Open: true}
	if diff := cmp.Diff(want, sum(r.records(t)[1])); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
	if recs := mustRead(t, r); len(recs) != 1 {
		t.Errorf("records: %+v", recs)
	}
}

// TestHookBeforeScannerFoldsIn: the hook ran before the scanner saw the
// window and keyed its record by another process of the agent (claude's
// child here): the scanner's record of the window takes the hook's id and
// state over, and the hook's record goes.
func TestHookBeforeScannerFoldsIn(t *testing.T) {
	r := newRig(t, kitty.Version{Major: 0, Minor: 26, Patch: 5})
	ls := lsOf(win{id: 2, title: "claude", pid: 3001, argv: []string{"/usr/bin/claude"}, cwd: "/b"})
	ls[0].Tabs[0].Windows[0].ForegroundProcesses = append(ls[0].Tabs[0].Windows[0].ForegroundProcesses,
		kitty.Process{PID: 3002, Cmdline: []string{"/usr/bin/claude", "--child"}, Cwd: "/b"})
	r.kitty.set(ls, nil)
	r.runHook(t, 2, "claude", "SessionStart", `{"session_id":"`+hookID+`","cwd":"/b","source":"startup"}`,
		hookrun.Proc{PID: 3002, Comm: "claude"})
	r.clock.Advance(2 * time.Second)
	r.poll(t)
	recs := mustRead(t, r)
	if len(recs) != 1 {
		t.Fatalf("records: %+v", recs)
	}
	got := recs[0]
	if got.PID != 3001 || got.ID != hookID || got.IDFrom != "hook" || got.State != "idle" || !got.Open {
		t.Errorf("record %+v", got)
	}
}

// TestHookOnlySessionKeptWhileItsAgentLives: an agent the scanner does not
// recognise reports through its hook; its record stays open while its
// process lives, and closes once it is gone.
func TestHookOnlySessionKeptWhileItsAgentLives(t *testing.T) {
	r := newRig(t, kitty.Version{Major: 0, Minor: 26, Patch: 5})
	r.kitty.set(lsOf(win{id: 3, title: "bash", cwd: "/c"}), nil)
	r.poll(t)
	r.runHook(t, 3, "newagent", "SessionStart", `{"session_id":"abc-1","cwd":"/c"}`, hookrun.Proc{PID: os.Getpid(), Comm: "newagent"})
	r.runHook(t, 3, "otheragent", "SessionStart", `{"session_id":"abc-2","cwd":"/c"}`, hookrun.Proc{PID: 1 << 22, Comm: "otheragent"})
	r.clock.Advance(2 * time.Second)
	r.poll(t)
	open := map[string]bool{}
	for _, rec := range mustRead(t, r) {
		open[rec.ID] = rec.Open
	}
	if diff := cmp.Diff(map[string]bool{"abc-1": true, "abc-2": false}, open); diff != "" {
		t.Errorf("open (-want +got):\n%s", diff)
	}
}

func mustRead(t *testing.T, r *rig) []journal.Record {
	t.Helper()
	f, err := r.journal.Read()
	if err != nil {
		t.Fatal(err)
	}
	return f.Records
}
