//go:build linux

package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/restore"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealAutosave runs autosave against a real kitty 0.43 or newer
// ($KITTYMUX_KITTY) with short settings: the scanner saves the kitty as
// windows open and close, each save parses and holds the windows kitty had,
// the oldest go beyond the three kept; kitty is then killed with SIGKILL,
// and `sessions restore last` opens a new kitty on the newest autosave
// whose prompts, answered with Enter, run each fake agent with its exact
// resume argv, and record what they did for the restore report.
func TestRealAutosave(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude", "codex")
	resume := resumeBin(t)
	d := e2etest.WorkDirs(t, "api", "cli")
	api, cli, work := d[0], d[1], filepath.Dir(d[0])
	const uuid = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"

	k1 := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env(), Kitty: kittyBin})
	ctx := t.Context()
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude"), "--resume", uuid}, Cwd: api})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "codex")}, Cwd: cli})
	waitRuns(t, log, 2, 30*time.Second)

	// kittymux's state is where the restored kitty's prompts look for it:
	// $XDG_STATE_HOME/kittymux.
	home := t.TempDir()
	xdgState := filepath.Join(home, "xdg-state")
	p := paths.Paths{StateDir: filepath.Join(xdgState, "kittymux"), ConfigDir: filepath.Join(home, "config")}
	// kitty for `restore` to start: the one under test.
	kittyDir := filepath.Join(home, "bin")
	if err := os.Mkdir(kittyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kittyDir, "kitty"), []byte("#!/bin/sh\nexec '"+kittyBin+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"HOME": home, "PATH": kittyDir + ":" + binDir + ":" + os.Getenv("PATH"), "KITTYMUX_RESUME_BIN": resume,
		autosave.EnvSettle: "1s", autosave.EnvAtMostEvery: "2s", autosave.EnvAtLeastEvery: "10s", autosave.EnvKeep: "3",
	}
	newFactory := func(out *kittytest.Buffer) *factory.Factory {
		f := factorytest.Writing(t, out, out)
		f.Getenv = func(k string) string { return env[k] }
		f.Paths = p
		return f
	}
	scanLog := &kittytest.Buffer{}
	f := newFactory(scanLog)
	f.Discover = func(context.Context) ([]kitty.Instance, error) {
		return []kitty.Instance{{Addr: k1.Addr, Socket: k1.Addr.String(), PID: k1.PID, Version: k1.Version, Source: "kitty.conf listen_on"}}, nil
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(sctx, cmdscanner.RunOptions{Interval: 200 * time.Millisecond, Rescan: time.Second,
			Signals: []os.Signal{}}.From(f))
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("scanner: %v", err)
			}
		}
	}
	t.Cleanup(stop)

	store := autosave.Store{Paths: p}
	key := strconv.Itoa(k1.PID)
	seen := map[string]bool{}
	// next waits for an autosave not seen before, checks that every save on
	// disk parses, and returns the newest with its window count.
	next := func(what string) (string, int) {
		t.Helper()
		bound := kittytest.NewBound(t, what+": a new autosave", 30*time.Second)
		for {
			names, _ := store.Names(key)
			if n := len(names); n > 0 && !seen[names[n-1]] {
				for _, name := range names {
					seen[name] = true
				}
				newest := names[n-1]
				var windows int
				for _, name := range names {
					data, err := os.ReadFile(p.Session(name))
					if err != nil {
						t.Fatal(err)
					}
					file, err := sessionfile.Parse(data)
					if err != nil {
						t.Fatalf("%s does not parse: %v\n%s", name, err, data)
					}
					windows = len(file.Windows())
				}
				return newest, windows
			}
			if bound.Over() {
				t.Fatalf("%v (have %v); scanner log:\n%s", bound, names, scanLog)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	live := func() int { return len(kitty.Windows(k1.LS())) }

	if _, n := next("first save"); n != live() {
		t.Errorf("the first autosave holds %d windows, kitty has %d", n, live())
	}
	extra := k1.LaunchWith(kitty.LaunchOptions{Cwd: work})
	if _, n := next("a window opened"); n != live() {
		t.Errorf("after a window opened: %d windows saved, kitty has %d", n, live())
	}
	k1.LaunchWith(kitty.LaunchOptions{Cwd: work})
	next("another window opened")
	if err := k1.Client.CloseWindow(ctx, "id:"+strconv.Itoa(extra)); err != nil {
		t.Fatal(err)
	}
	// Fewer windows: kept once the kitty is seen running after the save.
	if _, n := next("a window closed"); n != live() {
		t.Errorf("after a window closed: %d windows saved, kitty has %d", n, live())
	}
	// The oldest goes once the newest is published: wait for it.
	names, _ := store.Names(key)
	for pruned := kittytest.NewBound(t, "the oldest autosave removed", 10*time.Second); len(names) > 3 && !pruned.Over(); {
		time.Sleep(100 * time.Millisecond)
		names, _ = store.Names(key)
	}
	if len(names) != 3 || len(seen) != 4 {
		t.Errorf("autosaves on disk %v of %d taken; want the newest 3 of 4", names, len(seen))
	}
	newest := names[len(names)-1]

	if err := syscall.Kill(k1.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	log.WaitExited(t, k1.PID, 20*time.Second)
	kittytest.Eventually(t, "the scanner to log that the killed kitty went away", 30*time.Second, func() (bool, string) {
		return strings.Contains(scanLog.String(), "went away"), scanLog.String()
	})
	stop()
	if got, _ := store.Names(key); !slices.Equal(got, names) {
		t.Errorf("after kitty was killed the autosaves are %v, were %v", got, names)
	}

	// restore last, outside kitty: a new kitty on the newest autosave.
	before := len(agentRuns(log))
	var k2 *kittytest.Real
	out := &kittytest.Buffer{}
	k2Env := append(log.Env(), "XDG_STATE_HOME="+xdgState)
	err := restore.Restore(ctx, restore.RestoreOptions{Name: "last",
		// The report ends as soon as both prompts have told their outcome.
		Wait: kittytest.Scaled(20 * time.Second),
		StartKitty: func(_, session string) error {
			k2 = kittytest.StartReal(t, kittytest.RealOptions{Env: k2Env, Kitty: kittyBin, Session: session})
			return nil
		}}.From(newFactory(out)))
	if err != nil || k2 == nil {
		t.Fatalf("restore last: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "restored "+newest+" in a new kitty") ||
		strings.Count(out.String(), "waiting at its prompt for a key") != 2 {
		t.Errorf("restore last said:\n%s", out)
	}
	t.Logf("restore last:\n%s\nscanner log:\n%s", out, scanLog)
	inDir := map[string]int{}
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		clear(inDir)
		for _, r := range kitty.Windows(ls) {
			inDir[r.Window.Cwd] = r.Window.ID
		}
		return inDir[api] != 0 && inDir[cli] != 0
	}, 30*time.Second)
	for _, d := range []string{api, cli} {
		k2.WaitForText("id:"+strconv.Itoa(inDir[d]), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
		if err := k2.Client.SendText(ctx, "id:"+strconv.Itoa(inDir[d]), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	runs := waitRuns(t, log, before+2, 30*time.Second)[before:]
	got := map[string][]string{}
	for _, r := range runs {
		for d, id := range inDir {
			if strconv.Itoa(id) == r.Env["KITTY_WINDOW_ID"] {
				got[filepath.Base(d)] = argvOf(r)
			}
		}
	}
	want := map[string][]string{"api": {"claude", "--resume", uuid}, "cli": {"codex", "resume", "--last"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s\nruns %+v", diff, runs)
	}

	// Each prompt recorded its outcome for the restore report.
	outcomes, err := journal.New(p.Journal(), false).RestoresSince(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var report []string
	for _, o := range outcomes {
		report = append(report, o.Agent+" "+o.Outcome+" asked="+strconv.FormatBool(o.Asked)+" "+filepath.Base(o.Dir))
	}
	slices.Sort(report)
	if diff := cmp.Diff([]string{"claude resumed asked=true api", "codex resumed asked=true cli"}, report); diff != "" {
		t.Errorf("restore outcomes (-want +got):\n%s", diff)
	}
}
