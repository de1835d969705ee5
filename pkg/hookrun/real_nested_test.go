//go:build linux

package hookrun

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// TestRealNestedClaude: the real claude, with kittymux's SessionStart hook
// in its settings and the model stand-in, run as `claude -p` from a shell
// inside the window's agent (a process named claude that the journal holds
// as the window's, here a script). The hook fires in the same window with
// the nested run's own id: the window's record keeps its conversation, and
// the nested run is recorded as its own session. The same claude run as
// the window's own agent moves nothing but its own record.
func TestRealNestedClaude(t *testing.T) {
	claude, err := exec.LookPath("claude")
	if err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("claude is not on PATH; .ci/run installs it from npm")
		}
		t.Skip("claude is not on PATH (KITTYMUX_E2E=require makes this fatal)")
	}
	stub := modelstub.Start(t)
	root := t.TempDir()
	home, work, state := filepath.Join(root, "home"), filepath.Join(root, "work"), filepath.Join(root, "state")
	for _, d := range []string{home, work, state} {
		os.MkdirAll(d, 0o700)
	}
	agentEnv := stub.ClaudeHome(t, home, work)
	self, _ := os.Executable()
	hookCmd := "HOOK_HELPER=1 XDG_STATE_HOME=" + state + " " + self + " claude SessionStart"
	settings := map[string]any{"hooks": map[string]any{"SessionStart": []any{
		map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hookCmd}}}}}}
	data, _ := json.Marshal(settings)
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	// This test's process stands for kitty: the hook's walk up stops there.
	env := append(append(os.Environ(), agentEnv...), "HOME="+home, "KITTY_WINDOW_ID=4",
		"KITTY_PID="+strconv.Itoa(os.Getpid()), "HOOK_HELPER=")
	const windowID, nestedID, ownID = "11111111-1111-4111-8111-111111111111",
		"7e3a1c52-9b4d-4f68-8a21-6c0d3e5f7b94", "4c2b8e17-5d3a-4e9f-b061-2a7d9c4e8f35"

	// The window's agent: a process named claude (a script) that runs a
	// shell, in which a tool runs `claude -p`.
	outer := filepath.Join(root, "bin", "claude")
	os.MkdirAll(filepath.Dir(outer), 0o700)
	script := "#!/bin/sh\necho $$ > " + filepath.Join(root, "outer.pid") + "\n" +
		"while [ ! -e " + filepath.Join(root, "go") + " ]; do sleep 0.05; done\n" +
		// A tool's shell that stays (claude's Bash tool runs more than
		// the command), so bash does not exec claude in its place.
		"/bin/bash -c '" + claude + " -p \"remember NESTED\" --session-id " + nestedID + "; true'\n"
	if err := os.WriteFile(outer, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, outer)
	cmd.Dir, cmd.Env = work, env
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for pid == 0 && ctx.Err() == nil {
		b, _ := os.ReadFile(filepath.Join(root, "outer.pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		time.Sleep(20 * time.Millisecond)
	}
	// The journal holds the window's agent, as the scanner records it.
	j := journal.New(filepath.Join(state, "kittymux", "agent-sessions.json"), false)
	os.MkdirAll(filepath.Dir(j.Path), 0o700)
	key := journal.Key("", os.Getpid(), 4, pid)
	if _, err := j.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: key, Agent: "claude", ID: windowID, IDFrom: "claude sessions/1.json", Argv: []string{"claude"},
			Open: true, KittyPID: os.Getpid(), WindowID: 4, PID: pid, State: agents.StateIdle,
			FirstSeen: time.Now(), LastSeen: time.Now(), StateSince: time.Now()})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "go"), nil, 0o600)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("nested claude -p: %v\n%s", err, out)
	}
	f, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	var window, nested *journal.Record
	for i := range f.Records {
		switch r := &f.Records[i]; {
		case r.Key == key:
			window = r
		case r.ID == nestedID:
			nested = r
		}
	}
	if window == nil || window.ID != windowID || len(window.PreviousIDs) != 0 {
		t.Errorf("the window's record: %+v, want its own id %s unmoved\n%+v", window, windowID, f.Records)
	}
	if nested == nil || !nested.Nested || nested.IDFrom != journal.FromHook {
		t.Fatalf("the nested run: %+v, want its own record from its hook\n%+v", nested, f.Records)
	}

	// The same claude as the window's own agent (right below "kitty"): its
	// hook is the window's.
	direct := exec.CommandContext(ctx, claude, "-p", "remember OWN", "--session-id", ownID)
	direct.Dir, direct.Env = work, env
	if b, err := direct.CombinedOutput(); err != nil {
		t.Fatalf("claude -p: %v\n%s", err, b)
	}
	f, _ = j.Read()
	for _, r := range f.Records {
		if r.ID == ownID && (r.Nested || r.PID != direct.Process.Pid) {
			t.Errorf("the window's own claude: %+v, want its record, not nested", r)
		}
	}
	if r := f.Latest("claude", ownID); r == nil {
		t.Errorf("no record of the window's own claude:\n%+v", f.Records)
	}
}
