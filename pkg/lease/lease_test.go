package lease

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/procid"
)

// TestMain lets the test binary stand in for the prompt: with
// LEASE_HELPER set it takes the lease and execs sleep, as the prompt execs
// the agent.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LEASE_HELPER"); dir != "" {
		h := Holder{Agent: "claude", ID: os.Getenv("LEASE_ID"), PID: os.Getpid(), KittyPID: 77, KittySocket: "unix:/tmp/k-77", WindowID: 3, Tab: "api work"}
		l, other, err := Take(dir, h)
		if err != nil {
			fmt.Fprintf(os.Stderr, "busy=%v: %v\n", other, err)
			os.Exit(3)
		}
		if err := l.HoldAcrossExec(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		sleep, _ := exec.LookPath("sleep")
		err = syscall.Exec(sleep, []string{"sleep", "60"}, os.Environ())
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// startHolder runs a process that takes the lease on id and then execs
// sleep; it returns once the lease is recorded.
func startHolder(t *testing.T, state, id string) *exec.Cmd {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the holder's exec is seen in /proc/PID/comm: Linux only")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "LEASE_HELPER="+state, "LEASE_ID="+id)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	file := filepath.Join(state, paths.LeasesName, strconv.Itoa(cmd.Process.Pid)+".lock")
	for deadline := time.Now().Add(10 * time.Second); ; {
		if fi, err := os.Stat(file); err == nil && fi.Size() > 0 {
			// The lease file is written before the exec: wait for the exec
			// too, so the lock is the agent's (sleep's), not the helper's.
			if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", cmd.Process.Pid)); string(b) == "sleep\n" {
				return cmd
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("holder did not take the lease")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSecondTakeSaysWhereAcrossExec(t *testing.T) {
	state := t.TempDir()
	holder := startHolder(t, state, "0a1b2c3d")

	l, other, err := Take(state, Holder{Agent: "claude", ID: "0a1b2c3d", PID: os.Getpid(), WindowID: 9})
	if !errors.Is(err, ErrBusy) || l != nil {
		t.Fatalf("second take: lease %v, err %v; want ErrBusy", l, err)
	}
	want := Holder{Agent: "claude", ID: "0a1b2c3d", PID: holder.Process.Pid, Start: procid.Start(holder.Process.Pid), KittyPID: 77, KittySocket: "unix:/tmp/k-77", WindowID: 3, Tab: "api work"}
	if diff := cmp.Diff(want, *other, cmpIgnoreSince); diff != "" {
		t.Errorf("holder (-want +got):\n%s", diff)
	}
	if got, want := other.Where(), fmt.Sprintf(`kitty 77 (unix:/tmp/k-77), tab "api work", window 3, process %d`, holder.Process.Pid); got != want {
		t.Errorf("Where() = %q, want %q", got, want)
	}

	// Another conversation of the same agent is free.
	l2, _, err := Take(state, Holder{Agent: "claude", ID: "other", PID: os.Getpid()})
	if err != nil {
		t.Fatalf("take another id: %v", err)
	}
	l2.Release()

	// The agent exits: the lease goes with it.
	_ = holder.Process.Kill()
	_ = holder.Wait()
	l, _, err = Take(state, Holder{Agent: "claude", ID: "0a1b2c3d", PID: os.Getpid()})
	if err != nil {
		t.Fatalf("take after the holder exited: %v", err)
	}
	if _, err := os.Stat(filepath.Join(state, paths.LeasesName, strconv.Itoa(holder.Process.Pid)+".lock")); !os.IsNotExist(err) {
		t.Errorf("the gone holder's lease was not removed: %v", err)
	}
	l.Release()
	if h := Find(state, "claude", "0a1b2c3d"); h != nil {
		t.Errorf("after Release, Find = %+v", h)
	}
}

func TestMoveFollowsTheAgentToItsNewConversation(t *testing.T) {
	state := t.TempDir()
	holder := startHolder(t, state, "old-id")
	// A hook sees its parents: the shell claude ran it with, then claude.
	if err := Move(state, []int{999999, holder.Process.Pid}, "claude", "new-id"); err != nil {
		t.Fatal(err)
	}
	if h := Find(state, "claude", "old-id"); h != nil {
		t.Errorf("old id still leased to %+v", h)
	}
	h := Find(state, "claude", "new-id")
	if h == nil || h.PID != holder.Process.Pid {
		t.Fatalf("new id leased to %+v, want process %d", h, holder.Process.Pid)
	}
	// Another agent's hook moves nothing.
	if err := Move(state, []int{holder.Process.Pid}, "codex", "x"); err != nil {
		t.Fatal(err)
	}
	if h := Find(state, "claude", "new-id"); h == nil {
		t.Error("a codex hook moved claude's lease")
	}
}

func TestMoveWithoutLeasesDirIsNoError(t *testing.T) {
	if err := Move(filepath.Join(t.TempDir(), "none"), []int{1}, "claude", "x"); err != nil {
		t.Fatal(err)
	}
}

var cmpIgnoreSince = cmp.Comparer(func(a, b time.Time) bool { return true })

// A lease is one file: its lock, holding who holds it. Nothing else is
// created per lease (no temp files, no rename), so taking one costs the
// agent's start one file.
func TestLeaseIsOneFileHoldingItsHolder(t *testing.T) {
	state := t.TempDir()
	h := Holder{Agent: "codex", ID: "019a-7c", PID: os.Getpid(), WindowID: 5, Since: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	l, _, err := Take(state, h)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	h.Start = procid.Start(os.Getpid())
	ents, err := os.ReadDir(filepath.Join(state, paths.LeasesName))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{strconv.Itoa(os.Getpid()) + ".lock", paths.LeasesRegistryName}; !cmp.Equal(names, want) {
		t.Errorf("leases/ holds %q, want %q", names, want)
	}
	data, err := os.ReadFile(filepath.Join(state, paths.LeasesName, strconv.Itoa(os.Getpid())+".lock"))
	if err != nil {
		t.Fatal(err)
	}
	var got Holder
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("lease file %q: %v", data, err)
	}
	if diff := cmp.Diff(h, got); diff != "" {
		t.Errorf("lease file's holder (-want +got):\n%s", diff)
	}
}

// An agent started by an earlier kittymux holds an empty lock file and
// says who it is in PID.json beside it (no start): it still holds its
// conversation while its pid runs, and both files go once it has exited.
func TestEarlierLayoutLease(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, paths.LeasesName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := exec.Command("sleep", "60")
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = agent.Process.Kill(); _ = agent.Wait() })
	pid := agent.Process.Pid
	lock := filepath.Join(dir, strconv.Itoa(pid)+".lock")
	js := filepath.Join(dir, strconv.Itoa(pid)+".json")
	if err := os.WriteFile(js, []byte(fmt.Sprintf(`{"agent":"claude","id":"old-one","pid":%d,"window_id":2}`+"\n", pid)), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file: this one stands for the agent's.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if _, other, err := Take(state, Holder{Agent: "claude", ID: "old-one", PID: os.Getpid()}); !errors.Is(err, ErrBusy) || other.PID != pid || other.WindowID != 2 {
		t.Fatalf("take of a conversation an earlier kittymux leased: holder %+v, err %v; want ErrBusy from %d", other, err, pid)
	}
	f.Close() // the agent exits
	if h := Find(state, "claude", "old-one"); h != nil {
		t.Errorf("after its holder exited, Find = %+v", h)
	}
	for _, p := range []string{lock, js} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind: %v", filepath.Base(p), err)
		}
	}
}

// TestLeaseOfAGoneHolderIsFree: the lock of a lease is still held (a child
// of the agent inherited it), but the holder it names is gone, or its pid
// now is a process with another start: the lease is free.
func TestLeaseOfAGoneHolderIsFree(t *testing.T) {
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	for name, h := range map[string]Holder{
		"pid reused": {Agent: "claude", ID: "c1", PID: other.Process.Pid, Start: "an earlier start"},
		"pid gone":   {Agent: "claude", ID: "c1", PID: 1 << 30, Start: "1"},
		"old, gone":  {Agent: "claude", ID: "c1", PID: 1 << 30},
	} {
		state := t.TempDir()
		dir := filepath.Join(state, paths.LeasesName)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(h.PID)+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(h)
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
		// This open file stands for the child's inherited descriptor.
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
		l, busy, err := Take(state, Holder{Agent: "claude", ID: "c1", PID: os.Getpid()})
		if err != nil {
			t.Errorf("%s: take: held by %+v: %v", name, busy, err)
		} else {
			l.Release()
		}
		f.Close()
	}
}
