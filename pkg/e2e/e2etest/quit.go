//go:build linux

package e2etest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/setup"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// UserSystemd is a running user manager that starts nothing: the watcher
// `kittymux setup` installs then leaves the scanner to the test's own, and
// the test leaves no scanner behind.
type UserSystemd struct{}

func (UserSystemd) Running(context.Context) bool         { return true }
func (UserSystemd) Enabled(context.Context, string) bool { return true }
func (UserSystemd) Active(context.Context, string) bool  { return true }
func (UserSystemd) Run(context.Context, ...string) error { return nil }

// watcher runs `kittymux setup`'s plan for the world (its state, the
// kittymux Bin built) over a throw-away kitty.conf that has remote control
// and a socket already (StartReal's own), and returns the include line
// that loads the quit watcher.
func (w *world) watcher() string {
	t := w.t
	t.Helper()
	base := t.TempDir()
	confDir := filepath.Join(base, "kittyconf")
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(confDir, "kitty.conf"), []byte("allow_remote_control socket-only\nlisten_on unix:/tmp/unused\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := setup.Env{Paths: w.p, KittyConfDir: confDir, Home: filepath.Join(base, "home"), Getenv: func(k string) string { return w.env[k] },
		Executable: Bin(t, "kittymux"), Systemd: UserSystemd{}}
	plan, err := setup.PlanSetup(t.Context(), e)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(t.Context(), e); err != nil {
		t.Fatal(err)
	}
	return "include " + e.Included()
}

// quitKitty quits k as the user does (the quit action; StartReal's kitty
// asks no confirmation), waits until it is gone and the watcher's save of
// it is published with a restore prompt for each of n windows, and returns
// the save's name.
func (w *world) quitKitty(k *kittytest.Real, n int) string {
	t := w.t
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), kittytest.Scaled(5*time.Second))
	defer cancel()
	// The reply may never come: kitty goes.
	_, _ = k.Client.Do(ctx, "action", map[string]any{"action": "quit"}, true)
	kittytest.Eventually(t, "kitty to exit after quit", 30*time.Second, func() (bool, string) { return !k.Running(), k.Log() })
	pattern := w.p.Session(setup.QuitSession + "-" + strconv.Itoa(k.PID) + "-*")
	var name string
	kittytest.Eventually(t, "the quit save of kitty "+strconv.Itoa(k.PID)+" with "+strconv.Itoa(n)+" restore prompts", 60*time.Second, func() (bool, string) {
		m, _ := filepath.Glob(pattern)
		if len(m) != 1 {
			return false, k.Log()
		}
		data, err := os.ReadFile(m[0])
		if err != nil {
			return false, err.Error()
		}
		if got := strings.Count(string(data), w.env["KITTYMUX_RESUME_BIN"]); got < n {
			return false, string(data)
		}
		name = strings.TrimSuffix(filepath.Base(m[0]), ".kitty-session")
		return true, ""
	})
	if !autosave.IsQuit(name) {
		t.Fatalf("the quit save is named %s", name)
	}
	return name
}
