//go:build linux

package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

const uuid = "a21e57a7-5c1d-4b7a-9e0f-2d5c8a1b6e21"

// fakeKittyWithClaude is a fake kitty with one window: bash running claude
// on a conversation, a fake claude process that runs until the test ends
// (kittymux reads the process itself).
func fakeKittyWithClaude(t *testing.T, claude string) *kittytest.Fake {
	t.Helper()
	cmd := exec.Command(claude, "--resume", uuid)
	cmd.Dir = "/"
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Title: "api", Windows: []kitty.Window{{
		ID: 2, Title: "✳ api", PID: os.Getpid(), Cwd: "/", Cmdline: []string{"/bin/bash"},
		ForegroundProcesses: []kitty.Process{{PID: cmd.Process.Pid, Cmdline: cmd.Args, Cwd: "/"}},
	}}}}}}
	doc, err := json.Marshal(ls)
	if err != nil {
		t.Fatal(err)
	}
	return kittytest.StartFake(t, kittytest.FakeOptions{LS: doc})
}

func testFactory(t *testing.T, k *kittytest.Fake, binDir string) (*factory.Factory, *kittytest.Buffer) {
	t.Helper()
	f, out, _ := factorytest.New(t)
	f.IO.ErrOut = out
	env := map[string]string{"PATH": binDir, "KITTYMUX_RESUME_BIN": "/opt/km/kittymux-resume"}
	f.Getenv = func(k string) string { return env[k] }
	f.Executable = "/opt/km/kittymux"
	f.Discover = func(context.Context) ([]kitty.Instance, error) {
		return []kitty.Instance{{Addr: k.Addr, Socket: k.Addr.String(), Source: "--to"}}, nil
	}
	return f, out
}

// TestRestartAsks: on a terminal the user is asked first, with each
// window; declined, nothing is sent to kitty and the exit is "cancelled".
func TestRestartAsks(t *testing.T) {
	binDir, _ := kittytest.FakeAgents(t, "claude")
	k := fakeKittyWithClaude(t, filepath.Join(binDir, "claude"))
	f, out := testFactory(t, k, binDir)
	var asked, detail string
	err := Restart(t.Context(), RestartOptions{Confirm: func(q, d string) (bool, error) {
		asked, detail = q, d
		return false, nil
	}}.From(f))
	if !errors.Is(err, factory.ErrCancel) {
		t.Fatalf("declined: %v\n%s", err, out)
	}
	if asked != "Restart 1 agent window(s)?" || !strings.Contains(detail, "window 2  claude  /") {
		t.Errorf("asked %q with %q", asked, detail)
	}
	for _, r := range k.Requests() {
		if r.Cmd != "ls" {
			t.Errorf("declined, yet kitty was sent %s", r.Cmd)
		}
	}
}

func TestRestartUsage(t *testing.T) {
	binDir, _ := kittytest.FakeAgents(t, "claude")
	k := fakeKittyWithClaude(t, filepath.Join(binDir, "claude"))
	f, _ := testFactory(t, k, binDir)
	var flagErr *factory.FlagError
	if err := Restart(t.Context(), RestartOptions{}.From(f)); !errors.As(err, &flagErr) || !strings.Contains(err.Error(), "--yes") {
		t.Errorf("no terminal, no --yes: %v", err)
	}
	if err := Restart(t.Context(), RestartOptions{Yes: true, Agent: "nosuch"}.From(f)); !errors.As(err, &flagErr) {
		t.Errorf("--agent nosuch: %v", err)
	}
	// --json with --dry-run: what would be done, and nothing done.
	f, out := testFactory(t, k, binDir)
	if err := Restart(t.Context(), RestartOptions{DryRun: true, JSON: true}.From(f)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Windows []struct{ Outcome, ID, Command string }
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Windows) != 1 || got.Windows[0].Outcome != "would restart" || got.Windows[0].ID != uuid ||
		got.Windows[0].Command != filepath.Join(binDir, "claude")+" --resume "+uuid {
		t.Errorf("--dry-run --json: %s", out)
	}
}

// TestRestartCompletesAgents: --agent completes the defined agents.
func TestRestartCompletesAgents(t *testing.T) {
	f, _, _ := factorytest.New(t)
	cmd := NewCmdAgents(f)
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"__complete", "restart", "--agent", "cl"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(out.String()); len(got) == 0 || got[0] != "claude" {
		t.Errorf("completions: %q", out.String())
	}
}
