//go:build linux

package root_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// Linux only: kittymux reads the agent process from /proc.

// TestRestartAsksOnATerminal drives `agents restart` in a pseudo-terminal
// against a fake kitty with one claude window: it asks first, naming the
// window, and never queries the terminal; "n" leaves with exit 2 and kitty is sent nothing but ls.
func TestRestartAsksOnATerminal(t *testing.T) {
	t.Parallel()
	km, err := exec.LookPath("kittymux")
	if err != nil {
		t.Fatalf("kittymux is not on PATH; testscript.Main puts it there: %v", err)
	}
	binDir, _ := kittytest.FakeAgents(t, "claude")
	const uuid = "a21e57a7-5c1d-4b7a-9e0f-2d5c8a1b6e21"
	// A claude process kittymux can read, as it reads every agent's.
	claude := exec.Command(filepath.Join(binDir, "claude"), "--resume", uuid)
	claude.Dir = "/"
	if err := claude.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = claude.Process.Kill()
		_ = claude.Wait()
	})
	ls, err := json.Marshal([]kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Title: "api", Windows: []kitty.Window{{
		ID: 2, Title: "✳ api", PID: os.Getpid(), Cwd: "/", Cmdline: []string{"/bin/bash"},
		ForegroundProcesses: []kitty.Process{{PID: claude.Process.Pid, Cmdline: claude.Args, Cwd: "/"}},
	}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	k := kittytest.StartFake(t, kittytest.FakeOptions{LS: ls})
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"PATH=" + binDir + ":/usr/bin:/bin", "TERM=xterm-256color", "KITTYMUX_RESUME_BIN=/opt/km/kittymux-resume"}
	run := kittytest.RunPTY(t, kittytest.PTYOptions{Path: km, Args: []string{"--to", k.Addr.String(), "agents", "restart"},
		Env: env, Dir: home, WaitFor: "Restart 1 agent window", Timeout: 40 * time.Second, Keys: []string{"n"}})
	if !run.Exited || run.Code != 2 {
		t.Fatalf("exit %d (exited %v); output:\n%s", run.Code, run.Exited, run.Out)
	}
	noQueries(t, run.Out)
	if !strings.Contains(run.Out, "window 2  claude  /") {
		t.Errorf("the question does not name the window:\n%s", run.Out)
	}
	for _, r := range k.Requests() {
		if r.Cmd != "ls" {
			t.Errorf("declined, yet kitty was sent %s", r.Cmd)
		}
	}
}
