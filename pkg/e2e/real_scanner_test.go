//go:build linux

package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealScanner runs `kittymux scanner run` against real kitty: a fake
// agent with its id on the command line and a fake claude that writes its
// sessions/<pid>.json (and changes it, as /clear does) each get a journal
// record with that exact id; title changes move the state and count a run;
// closing a window closes its record as window-closed; killing kitty closes
// the rest as kitty-gone; a new kitty is then picked up.
func TestRealScanner(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, log := kittytest.FakeAgents(t, "claude")
	claudeDir := filepath.Join(t.TempDir(), "claude-config")
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), "CLAUDE_CONFIG_DIR="+claudeDir)})
	const (
		argvID  = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
		recID   = "0199a213-81c0-7800-8aa1-bbab2a035a53"
		clearID = "7d3f1c2e-9a8b-4c5d-8e6f-0a1b2c3d4e5f"
	)
	claude := filepath.Join(binDir, "claude")
	byArgv := k.LaunchWith(kitty.LaunchOptions{Args: []string{claude, "--model", "opus", "--resume", argvID}, Cwd: k.Home})
	byRecord := k.LaunchWith(kitty.LaunchOptions{Args: []string{claude}, Cwd: k.Home, Env: []string{
		"FAKEAGENT_CLAUDE_SESSION=" + recID, "FAKEAGENT_CLAUDE_CLEAR=" + clearID,
		"FAKEAGENT_TITLES=\u2802 fix the tests|\u2733 fix the tests"}})
	runs := log.WaitFor(t, 2, 20*time.Second)
	pidOf := map[int]int{}
	for _, r := range runs {
		id := 0
		fmt.Sscan(r.Env["KITTY_WINDOW_ID"], &id)
		pidOf[id] = r.PID
	}

	home := t.TempDir()
	var mu sync.Mutex
	insts := []kitty.Instance{{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version, Source: "kitty.conf listen_on"}}
	errOut := &kittytest.Buffer{}
	f := factorytest.Writing(t, &bytes.Buffer{}, errOut)
	f.Getenv = func(k string) string { return map[string]string{"HOME": home}[k] }
	f.Paths = paths.Under(home)
	// Only this test's kitties: other tests' run beside it.
	f.Discover = func(context.Context) ([]kitty.Instance, error) {
		mu.Lock()
		defer mu.Unlock()
		return append([]kitty.Instance(nil), insts...), nil
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(ctx, cmdscanner.RunOptions{Interval: 200 * time.Millisecond, Rescan: time.Second,
			Signals: []os.Signal{}}.From(f))
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	j := journal.New(f.Paths.Journal(), false)
	// waitFor waits for the journal's records of this kitty's windows to
	// satisfy cond.
	waitFor := func(what string, cond func(map[int]journal.Record) bool) map[int]journal.Record {
		t.Helper()
		bound := kittytest.NewBound(t, what, 30*time.Second)
		for {
			recs := map[int]journal.Record{}
			if jf, err := j.Read(); err == nil {
				for _, r := range jf.Records {
					if r.KittyPID == k.PID {
						recs[r.WindowID] = r
					}
				}
			}
			if cond(recs) {
				return recs
			}
			if bound.Over() {
				t.Fatalf("%v; records %+v\nscanner log:\n%s", bound, recs, errOut)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	recs := waitFor("both ids", func(r map[int]journal.Record) bool {
		return r[byArgv].ID == argvID && r[byRecord].ID == recID
	})
	if got := recs[byArgv]; got.IDFrom != "command line --resume" || got.Agent != "claude" || !got.Open ||
		strings.Join(got.Argv, " ") != claude+" --model opus" || got.PID != pidOf[byArgv] {
		t.Errorf("record of the id on the command line: %+v", got)
	}
	if got := recs[byRecord]; got.IDFrom != fmt.Sprintf("claude sessions/%d.json", pidOf[byRecord]) {
		t.Errorf("record of claude's own record: %+v", got)
	}

	// /clear: claude rewrites its record with a new id.
	if err := syscall.Kill(pidOf[byRecord], syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	recs = waitFor("the id after /clear", func(r map[int]journal.Record) bool { return r[byRecord].ID == clearID })
	if got := recs[byRecord].PreviousIDs; len(got) != 1 || got[0] != recID {
		t.Errorf("previous ids %v", got)
	}

	// The title says it works, then that it is idle again: one run.
	if err := syscall.Kill(pidOf[byRecord], syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	waitFor("working", func(r map[int]journal.Record) bool { return r[byRecord].State == agents.StateWorking })
	if err := syscall.Kill(pidOf[byRecord], syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	recs = waitFor("a run finished", func(r map[int]journal.Record) bool { return r[byRecord].RunsFinished == 1 })
	if got := recs[byRecord]; got.State != agents.StateIdle || got.StateFrom != "title" || got.WorkingSeconds <= 0 {
		t.Errorf("after a run: %+v", got)
	}

	// Closing a window closes its record by the window.
	if err := k.Client.CloseWindow(t.Context(), fmt.Sprintf("id:%d", byArgv)); err != nil {
		t.Fatal(err)
	}
	recs = waitFor("closed by the window", func(r map[int]journal.Record) bool { return !r[byArgv].Open })
	if got := recs[byArgv]; got.CloseReason != journal.ClosedWindow || !recs[byRecord].Open {
		t.Errorf("after closing window %d: %+v / %+v", byArgv, got, recs[byRecord])
	}

	// Killing kitty closes the rest: kitty went away.
	if err := syscall.Kill(k.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	recs = waitFor("closed as kitty gone", func(r map[int]journal.Record) bool { return !r[byRecord].Open })
	if got := recs[byRecord]; got.CloseReason != journal.ClosedKittyGone || got.ID != clearID {
		t.Errorf("after killing kitty: %+v", got)
	}

	// The scanner lives on, and a new kitty is picked up.
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env()})
	w := k2.LaunchWith(kitty.LaunchOptions{Args: []string{claude, "--resume", argvID}, Cwd: k2.Home})
	mu.Lock()
	insts = append(insts, kitty.Instance{Addr: k2.Addr, Socket: k2.Addr.String(), PID: k2.PID, Version: k2.Version})
	mu.Unlock()
	bound := kittytest.NewBound(t, "the new kitty's agent in the journal", 30*time.Second)
	for {
		jf, _ := j.Read()
		found := false
		for _, r := range jf.Records {
			found = found || r.KittyPID == k2.PID && r.WindowID == w && r.Open && r.ID == argvID
		}
		if found {
			break
		}
		if bound.Over() {
			t.Fatalf("%v; scanner log:\n%s", bound, errOut)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Stopped by its context: a signal would reach every scanner of the
	// tests running beside this one in this process.
	cancel()
	if err := <-done; err != nil {
		t.Errorf("scanner: %v", err)
	}
	done <- nil // for the cleanup
	if !strings.Contains(errOut.String(), "stopped") {
		t.Errorf("scanner log:\n%s", errOut)
	}
}
