//go:build linux

package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealLeaseAfterAChild: in a real kitty, a restored window resumes a
// conversation; the agent starts a background helper and exits. Another
// window restoring the same conversation resumes it: the helper, still
// running, holds no lease (the lease is the agent's, and free once it is
// gone), so nothing says "already open in process N" of a process that
// ended.
func TestRealLeaseAfterAChild(t *testing.T) {
	t.Parallel()
	binDir, log := kittytest.FakeAgents(t, "claude")
	resume := resumeBin(t)
	dir := e2etest.WorkDirs(t, "api")[0]
	state := filepath.Join(t.TempDir(), "state")
	p := paths.Paths{StateDir: filepath.Join(state, "kittymux")}
	key, err := resumerecord.LoadOrCreateKey(p)
	if err != nil {
		t.Fatal(err)
	}
	const id = "7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e"
	rec := resumerecord.Record{Agent: "claude", Mode: "exact", ID: id, Dir: dir, Argv: []string{"claude", "--resume", id}}.Sealed(key)
	helperPID := filepath.Join(t.TempDir(), "helper.pid")
	env := append(log.Env(), "XDG_STATE_HOME="+state, "PATH="+binDir+":"+os.Getenv("PATH"))
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: env, Kitty: "kitty"})
	first := k.LaunchWith(kitty.LaunchOptions{Cwd: dir, Args: append([]string{resume}, rec.Args()...),
		Env: []string{"FAKEAGENT_BACKGROUND=" + helperPID, "FAKEAGENT_EXIT=0"}})
	k.WaitForText("id:"+strconv.Itoa(first), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
	if err := k.Client.SendText(t.Context(), "id:"+strconv.Itoa(first), "\r"); err != nil {
		t.Fatal(err)
	}
	runs := waitRuns(t, log, 1, 30*time.Second)
	var helper int
	kittytest.Eventually(t, "the agent's helper to start and the agent to end", 30*time.Second, func() (bool, string) {
		raw, err := os.ReadFile(helperPID)
		if err != nil {
			return false, err.Error()
		}
		helper, _ = strconv.Atoi(string(raw))
		return helper > 0 && syscall.Kill(runs[0].PID, 0) != nil, ""
	})
	t.Cleanup(func() { _ = syscall.Kill(helper, syscall.SIGKILL) })
	if err := syscall.Kill(helper, 0); err != nil {
		t.Fatalf("the helper %d does not run: %v", helper, err)
	}

	second := k.LaunchWith(kitty.LaunchOptions{Cwd: dir, Args: append([]string{resume}, rec.Args()...)})
	text := k.WaitForText("id:"+strconv.Itoa(second), func(s string) bool { return strings.Contains(s, "i commands") || strings.Contains(s, "already open") }, 30*time.Second)
	if strings.Contains(text, "already open") {
		t.Fatalf("the second restore is refused while only the helper runs:\n%s", text)
	}
	if err := k.Client.SendText(t.Context(), "id:"+strconv.Itoa(second), "\r"); err != nil {
		t.Fatal(err)
	}
	runs = waitRuns(t, log, 2, 30*time.Second)
	if got := strings.Join(argvOf(runs[1]), " "); got != "claude --resume "+id {
		t.Errorf("the second restore ran %q", got)
	}
}

// TestRealFIFOs: FIFOs put where kittymux reads (claude's record of a
// real kitty window's claude, config.json, scanner.lock) hang no command:
// sessions list, doctor, setup --dry-run and scanner status each end
// within a bound, against a real kitty.
func TestRealFIFOs(t *testing.T) {
	t.Parallel()
	binDir, log := kittytest.FakeAgents(t, "claude")
	bin := e2etest.Bin(t, "kittymux")
	home := t.TempDir()
	claudeDir := filepath.Join(home, ".claude")
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), "CLAUDE_CONFIG_DIR="+claudeDir), Kitty: "kitty"})
	dir := e2etest.WorkDirs(t, "api")[0]
	k.LaunchWith(kitty.LaunchOptions{Cwd: dir, Args: []string{filepath.Join(binDir, "claude")}})
	pid := waitRuns(t, log, 1, 30*time.Second)[0].PID
	p := paths.Under(home)
	if err := statefile.EnsureState(p); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(claudeDir, "sessions", strconv.Itoa(pid)+".json"), p.Config(),
		filepath.Join(p.StateDir, paths.ScannerLockName)} {
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Only the fake claude on PATH: doctor probes every agent CLI it finds,
	// and a real one's cold start is not what is measured here.
	env := []string{"HOME=" + home, "PATH=" + binDir + ":/usr/bin:/bin", "KITTY_LISTEN_ON=" + k.Addr.String(),
		"KITTY_PID=" + strconv.Itoa(k.PID), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
	for _, args := range [][]string{{"sessions", "list"}, {"doctor"}, {"setup", "--dry-run"}, {"scanner", "status"}} {
		bound := kittytest.Scaled(2 * time.Second)
		ctx, cancel := context.WithTimeout(t.Context(), bound+5*time.Second)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env, cmd.Stdin = env, nil
		start := time.Now()
		out, _ := cmd.CombinedOutput()
		took := time.Since(start)
		cancel()
		if took > bound {
			t.Errorf("kittymux %s took %v (bound %v) with FIFOs in its way:\n%s", strings.Join(args, " "), took, bound, out)
		}
		if args[0] == "sessions" && !strings.Contains(string(out), "claude") {
			t.Errorf("sessions list lost the claude window:\n%s", out)
		}
	}
}
