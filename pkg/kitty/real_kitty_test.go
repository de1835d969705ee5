//go:build linux

package kitty_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// The tests here run a real kitty under Xvfb (kittytest.StartReal): they
// are skipped without kitty and Xvfb unless KITTYMUX_E2E=require.

// TestRealLS opens three windows in a real kitty, one running a fake claude,
// and reads them back through the client.
func TestRealLS(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, agents := kittytest.FakeAgents(t, "claude")
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: agents.Env()})

	work := realDir(t)
	shellID := k.Launch()
	claudeArgv := []string{filepath.Join(binDir, "claude"), "--model", "opus"}
	claudeID := k.LaunchWith(kitty.LaunchOptions{Args: claudeArgv, Cwd: work})

	runs := agents.WaitFor(t, 1, 20*time.Second)
	if len(runs) != 1 {
		t.Fatalf("fake agents ran %d times, want 1: %+v", len(runs), runs)
	}
	run := runs[0]
	if diff := cmp.Diff(claudeArgv[1:], run.Args); run.Name != "claude" || diff != "" {
		t.Errorf("fake agent logged %s, args (-want +got):\n%s", run.Name, diff)
	}
	if run.Cwd != work || run.Env["KITTY_WINDOW_ID"] != strconv.Itoa(claudeID) || run.Env["KITTY_LISTEN_ON"] != k.Addr.String() {
		t.Errorf("fake agent ran in %q with KITTY_WINDOW_ID=%q KITTY_LISTEN_ON=%q, want %q, %d, %s",
			run.Cwd, run.Env["KITTY_WINDOW_ID"], run.Env["KITTY_LISTEN_ON"], work, claudeID, k.Addr)
	}

	// kitty reads foreground processes from /proc when asked, so the fake's
	// argv is there as soon as it runs; wait for the shell window too.
	ls := k.WaitFor(func(ls []kitty.OSWindow) bool {
		ws := kitty.Windows(ls)
		return len(ws) == 3 && slices.ContainsFunc(ws, func(w kitty.WindowRef) bool {
			return w.Window.ID == shellID && len(w.Window.ForegroundProcesses) > 0
		})
	}, 20*time.Second)

	var agentWins []*kitty.Window
	for _, ref := range kitty.Windows(ls) {
		w := ref.Window
		if w.PID <= 0 || w.Lines <= 0 || w.Columns <= 0 {
			t.Errorf("window %d: pid %d, %dx%d cells", w.ID, w.PID, w.Columns, w.Lines)
		}
		for _, p := range w.ForegroundProcesses {
			if slices.Equal(p.Cmdline, claudeArgv) {
				agentWins = append(agentWins, w)
				if p.Cwd != work || p.PID != run.PID {
					t.Errorf("claude process: cwd %q pid %d, want %q pid %d", p.Cwd, p.PID, work, run.PID)
				}
			}
		}
		if w.ID == shellID {
			if len(w.Cmdline) == 0 || filepath.Base(w.Cmdline[0]) != "bash" {
				t.Errorf("shell window %d runs %q, want bash", w.ID, w.Cmdline)
			}
		}
	}
	if len(agentWins) != 1 {
		t.Fatalf("%d windows run %q, want 1", len(agentWins), claudeArgv)
	}
	if w := agentWins[0]; w.ID != claudeID || w.Cwd != work || !slices.Equal(w.Cmdline, claudeArgv) {
		t.Errorf("claude window: id %d cwd %q cmdline %q, want %d, %q, %q", w.ID, w.Cwd, w.Cmdline, claudeID, work, claudeArgv)
	}

	// 0.26.5 names these is_active_tab / is_active_window; either way one
	// tab per OS window and one window per tab is active.
	for _, o := range ls {
		if n := countFunc(o.Tabs, func(tb kitty.Tab) bool { return tb.IsActive }); n != 1 {
			t.Errorf("OS window %d: %d active tabs, want 1", o.ID, n)
		}
		for _, tb := range o.Tabs {
			if n := countFunc(tb.Windows, func(w kitty.Window) bool { return w.IsActive }); n != 1 {
				t.Errorf("tab %d: %d active windows, want 1", tb.ID, n)
			}
		}
	}
	if n := countFunc(ls, func(o kitty.OSWindow) bool { return o.IsActive }); len(ls) != 1 || n != 1 {
		t.Errorf("%d OS windows, %d active; want 1 and 1", len(ls), n)
	}
}

// TestRealSendText types a command into a shell window and reads its output
// back.
func TestRealSendText(t *testing.T) {
	t.Parallel()
	k := kittytest.StartReal(t, kittytest.RealOptions{})
	ls := k.LS()
	ws := kitty.Windows(ls)
	if len(ws) != 1 {
		t.Fatalf("kitty started with %d windows, want 1", len(ws))
	}
	match := fmt.Sprintf("id:%d", ws[0].Window.ID)

	// Typed before bash is reading, input waits in the tty; waiting for the
	// prompt keeps the screen simple to read.
	k.WaitForText(match, func(s string) bool { return strings.TrimSpace(s) != "" }, 20*time.Second)
	c, cancel := context.WithTimeout(context.Background(), kittytest.Scaled(5*time.Second))
	defer cancel()
	if err := k.Client.SendText(c, match, "printf 'km-%s\\n' ok\r"); err != nil {
		t.Fatal(err)
	}
	// The typed line holds "km-%s", only printf's output holds "km-ok".
	text := k.WaitForText(match, func(s string) bool {
		return slices.Contains(strings.Split(s, "\n"), "km-ok")
	}, 20*time.Second)
	if !strings.Contains(text, "printf 'km-%s\\n' ok") {
		t.Errorf("screen does not show the typed command:\n%s", text)
	}
}

// TestRealSession starts kitty with a session file that runs a fake agent:
// the basic directives 0.26.5 loads.
func TestRealSession(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, agents := kittytest.FakeAgents(t, "codex")
	work := realDir(t)
	session := filepath.Join(t.TempDir(), "start.kitty-session")
	body := fmt.Sprintf("new_tab agents\nlayout tall\ncd %s\nlaunch --title fake-codex %s resume --last\nlaunch\n",
		work, filepath.Join(binDir, "codex"))
	if err := os.WriteFile(session, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: agents.Env(), Session: session})

	run := agents.WaitFor(t, 1, 20*time.Second)[0]
	if diff := cmp.Diff([]string{"resume", "--last"}, run.Args); diff != "" || run.Cwd != work {
		t.Errorf("fake codex ran in %q, args (-want +got):\n%s", run.Cwd, diff)
	}
	ls := k.WaitFor(func(ls []kitty.OSWindow) bool { return len(kitty.Windows(ls)) == 2 }, 20*time.Second)
	ws := kitty.Windows(ls)
	if tb := ws[0].Tab; tb.Title != "agents" || tb.Layout != "tall" {
		t.Errorf("tab: title %q layout %q, want agents, tall", tb.Title, tb.Layout)
	}
	if w := ws[0].Window; w.Title != "fake-codex" || w.Cwd != work || len(w.Cmdline) != 3 || w.Cmdline[1] != "resume" {
		t.Errorf("first window: title %q cwd %q cmdline %q", w.Title, w.Cwd, w.Cmdline)
	}
}

// realDir is a temp dir as kitty reports it: /proc has the resolved path.
func realDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func countFunc[T any](s []T, f func(T) bool) int {
	n := 0
	for _, v := range s {
		if f(v) {
			n++
		}
	}
	return n
}
