//go:build linux

package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/setup"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// quitSetup runs `kittymux setup`'s plan over a throw-away kitty.conf that
// already has remote control and a socket (StartReal's own), and returns
// the include line for the real kitty and the pattern of the quit save's
// path: sessions/autosave-quit-KITTYPID-TIME.kitty-session.
func quitSetup(t *testing.T) (include string, pubGlob string, p paths.Paths) {
	t.Helper()
	kittymux, err := exec.LookPath("kittymux")
	if err != nil {
		t.Fatalf("kittymux is not on PATH; testscript.Main puts it there: %v", err)
	}
	dir := t.TempDir()
	p = paths.Paths{StateDir: filepath.Join(dir, "state", "kittymux"), ConfigDir: filepath.Join(dir, "config", "kittymux")}
	confDir := filepath.Join(dir, "kittyconf")
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(confDir, "kitty.conf"), []byte("allow_remote_control socket-only\nlisten_on unix:/tmp/unused\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(dir, "state"), "XDG_CONFIG_HOME": filepath.Join(dir, "config")}
	e := setup.Env{Paths: p, KittyConfDir: confDir, Home: filepath.Join(dir, "home"), Getenv: func(k string) string { return env[k] },
		Executable: kittymux, Systemd: e2etest.UserSystemd{}}
	plan, err := setup.PlanSetup(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	inc, err := os.ReadFile(e.Included())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(inc), "listen_on") {
		t.Fatalf("setup wrote a listen_on although kitty.conf has one:\n%s", inc)
	}
	return "include " + e.Included(), p.Session(setup.QuitSession + "-*"), p
}

func waitGone(t *testing.T, k *kittytest.Real, timeout time.Duration) {
	t.Helper()
	kittytest.Eventually(t, "kitty to exit after quit", timeout, func() (bool, string) { return !k.Running(), k.Log() })
}

// waitFile waits for the one file that matches pattern and returns its
// content and path.
func waitFile(t *testing.T, pattern string, timeout time.Duration) ([]byte, string) {
	t.Helper()
	var b []byte
	var path string
	kittytest.Eventually(t, "one file matching "+pattern+" to appear", timeout, func() (bool, string) {
		m, _ := filepath.Glob(pattern)
		if len(m) > 1 {
			t.Fatalf("%d files match %s: %q", len(m), pattern, m)
		}
		if len(m) == 1 {
			var err error
			if b, err = os.ReadFile(m[0]); err == nil {
				path = m[0]
				return true, ""
			}
		}
		return false, ""
	})
	return b, path
}

// rawQuitSaves are the watcher's raw saves left in the sessions directory.
func rawQuitSaves(t *testing.T, p paths.Paths) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(p.SessionsDir(), ".raw-quit-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// quit sends kitty the quit action (as a key mapped to quit would); the
// reply may never come, as kitty goes away.
func quit(t *testing.T, k *kittytest.Real) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kittytest.Scaled(5*time.Second))
	defer cancel()
	if _, err := k.Client.Do(ctx, "action", map[string]any{"action": "quit"}, true); err != nil {
		t.Fatalf("action quit: %v", err)
	}
}

// TestRealQuitCapture: with the included file `kittymux setup` writes, a
// real kitty 0.46.2 or newer that is sent `quit` (no confirmation) saves its
// layout in its own process as it goes, and the detached publish leaves a
// session, with the agent window rewritten to its exact resume, after kitty
// is gone. With screen history on, the shell window keeps what it showed;
// the agent window keeps nothing.
func TestRealQuitCapture(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionOnQuit)
	binDir, log := kittytest.FakeAgents(t, "claude")
	include, pubGlob, p := quitSetup(t)
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.Config(), []byte(`{"screen_history": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Env: log.Env(), Config: []string{include}})
	const uuid = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	agent := k.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude"), "--resume", uuid}})
	waitRuns(t, log, 1, 30*time.Second)
	var shell *kitty.Window
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID != agent && atPrompt(r.Window) {
				shell = r.Window
			}
		}
		return shell != nil
	}, 30*time.Second)
	writeTTY(t, shell.PID, "\x1b[31mquit-history-line\x1b[m\n")
	k.WaitForText("id:"+strconv.Itoa(shell.ID), func(s string) bool { return strings.Contains(s, "quit-history-line") }, 30*time.Second)
	// A reload runs the configuration again: the watcher must still save
	// once, and say nothing.
	reload, cancel := context.WithTimeout(context.Background(), kittytest.Scaled(5*time.Second))
	defer cancel()
	if err := k.Client.Action(reload, "load_config_file"); err != nil {
		t.Fatalf("reload: %v", err)
	}

	quit(t, k)
	waitGone(t, k, 20*time.Second)
	data, path := waitFile(t, pubGlob, 60*time.Second)
	// Named after the kitty that quit: its newest save, ended at a quit.
	if name := strings.TrimSuffix(filepath.Base(path), ".kitty-session"); !autosave.IsQuit(name) ||
		!strings.HasPrefix(name, autosave.QuitPrefix+strconv.Itoa(k.PID)+"-") {
		t.Errorf("the quit save is %s, want %s%d-TIME", name, autosave.QuitPrefix, k.PID)
	}
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatalf("published quit save does not parse: %v\n%s", err, data)
	}
	if n := len(f.Launches()); n != 2 {
		t.Errorf("published quit save has %d windows, want 2 (the shell and claude):\n%s", n, data)
	}
	if !strings.Contains(string(data), "kittymux-resume") || !strings.Contains(string(data), uuid) {
		t.Errorf("claude's window is not rewritten to its exact resume:\n%s", data)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".kitty-session")
	if hs := published.HistoryWindows(data); len(hs) != 1 || hs[0].WindowID != shell.ID || filepath.Dir(hs[0].File) != published.HistoryDir(p, name) {
		t.Errorf("windows with screen history %+v, want the shell's (%d) alone, in %s:\n%s", hs, shell.ID, published.HistoryDir(p, name), data)
	} else if kept, err := os.ReadFile(hs[0].File); err != nil || !strings.Contains(string(kept), "\x1b[31mquit-history-line") {
		t.Errorf("the shell's kept history: %v\n%q", err, kept)
	}
	// The publish removes the raw save it was given.
	bound := kittytest.NewBound(t, "the watcher's raw saves to go", 10*time.Second)
	for len(rawQuitSaves(t, p)) > 0 && !bound.Over() {
		time.Sleep(50 * time.Millisecond)
	}
	if raw := rawQuitSaves(t, p); len(raw) > 0 {
		t.Errorf("raw quit saves left: %q", raw)
	}
	if strings.Contains(k.Log(), "kittymux watcher") {
		t.Errorf("the watcher complained:\n%s", k.Log())
	}
}

// TestRealQuitCancelled: with confirmation on, kitty calls on_quit with
// confirmed false before it asks; a quit cancelled at the question saves
// nothing. Confirmed at the question, it saves.
func TestRealQuitCancelled(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionOnQuit)
	include, pubGlob, p := quitSetup(t)
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin,
		// Later lines win: ask before quitting whatever the number of windows.
		Config: []string{include, "confirm_os_window_close 1"}})
	ids := func(ls []kitty.OSWindow) []int {
		var out []int
		for _, r := range kitty.Windows(ls) {
			out = append(out, r.Window.ID)
		}
		return out
	}
	before := ids(k.LS())
	// ask answers when the question's window exists: kitty called
	// on_quit(confirmed=False) before it opened it.
	ask := func(answer string) {
		t.Helper()
		quit(t, k)
		var question int
		k.WaitFor(func(ls []kitty.OSWindow) bool {
			for _, id := range ids(ls) {
				if !slices.Contains(before, id) {
					question = id
					return true
				}
			}
			return false
		}, 20*time.Second)
		if raw := rawQuitSaves(t, p); len(raw) > 0 {
			t.Fatalf("saved before the quit was confirmed: %q", raw)
		}
		k.WaitForText("id:"+strconv.Itoa(question), func(s string) bool { return strings.Contains(strings.ToLower(s), "quit") }, 20*time.Second)
		if err := k.Client.SendText(context.Background(), "id:"+strconv.Itoa(question), answer); err != nil {
			t.Fatal(err)
		}
	}

	ask("n")
	k.WaitFor(func(ls []kitty.OSWindow) bool { return slices.Equal(ids(ls), before) }, 20*time.Second)
	if raw := rawQuitSaves(t, p); len(raw) > 0 {
		t.Errorf("a cancelled quit saved: %q", raw)
	}
	if m, _ := filepath.Glob(pubGlob); len(m) > 0 {
		t.Errorf("a cancelled quit published %q", m)
	}

	ask("y")
	waitGone(t, k, 20*time.Second)
	data, _ := waitFile(t, pubGlob, 60*time.Second)
	if _, err := sessionfile.Parse(data); err != nil {
		t.Fatalf("published quit save does not parse: %v\n%s", err, data)
	}
}

// TestRealWatcherLoads: kitty on PATH (Debian 12's 0.26.5 in CI, which has
// no on_quit) loads the included file and the watcher without a complaint.
func TestRealWatcherLoads(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	include, _, _ := quitSetup(t)
	k := kittytest.StartReal(t, kittytest.RealOptions{Config: []string{include}})
	k.Launch()
	for _, bad := range []string{"watcher", "kittymux", "Traceback"} {
		if strings.Contains(k.Log(), bad) {
			t.Errorf("kitty %s's log mentions %q:\n%s", k.Version, bad, k.Log())
		}
	}
}

// TestRealQuitCaptureRestoredWindow: a window restored by kittymux runs the
// restore prompt, which execs the agent in its place. kitty saves such a
// window with the command it was launched with (the prompt's sealed
// record) while its ls lists the agent: the quit capture keeps it as that
// agent's resume, not as a shell.
func TestRealQuitCaptureRestoredWindow(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionOnQuit)
	binDir, log := kittytest.FakeAgents(t, "claude")
	include, pubGlob, p := quitSetup(t)
	key, err := resumerecord.LoadOrCreateKey(p)
	if err != nil {
		t.Fatal(err)
	}
	const uuid = "7b1e0c94-2f3a-4d5b-8c6e-9a0f1b2c3d4e"
	dir := t.TempDir()
	claude := filepath.Join(binDir, "claude")
	exe, err := filepath.EvalSymlinks(claude)
	if err != nil {
		t.Fatal(err)
	}
	rec := resumerecord.Record{Agent: "claude", Mode: plan.ModeExact, ID: uuid, Dir: dir, Exe: []string{exe},
		Argv: []string{claude, "--resume", uuid}}
	argv, err := rec.CommandLine(resumeBin(t), key, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := append(log.Env(), "KITTYMUX_RESUME=auto", "XDG_STATE_HOME="+filepath.Dir(p.StateDir),
		"XDG_CONFIG_HOME="+filepath.Dir(p.ConfigDir))
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Env: env, Config: []string{include}})
	win := k.LaunchWith(kitty.LaunchOptions{Args: argv, Cwd: dir})
	waitRuns(t, log, 1, 30*time.Second)
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == win && len(r.Window.Cmdline) > 0 && r.Window.Cmdline[0] == claude {
				return true
			}
		}
		return false
	}, 30*time.Second)

	quit(t, k)
	waitGone(t, k, 20*time.Second)
	data, _ := waitFile(t, pubGlob, 60*time.Second)
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatalf("published quit save does not parse: %v\n%s", err, data)
	}
	var got []resumerecord.Record
	for _, l := range f.Launches() {
		if r, ok := resumerecord.FromCommandLine(l.Launch.Argv, ""); ok {
			got = append(got, r)
		}
	}
	if len(got) != 1 || got[0].ID != uuid || got[0].Verify(key) != nil {
		t.Errorf("the restored claude's window is not kept as its sealed resume: %+v\n%s", got, data)
	}
}
