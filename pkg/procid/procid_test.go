package procid

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func startSleep(t *testing.T) *exec.Cmd {
	t.Helper()
	c := exec.Command("sleep", "60")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	return c
}

func TestStartIsStable(t *testing.T) {
	self := Start(os.Getpid())
	if self == "" || Start(os.Getpid()) != self {
		t.Fatalf("Start(self) = %q, then %q", self, Start(os.Getpid()))
	}
	if !Of(os.Getpid()).Is() {
		t.Fatal("this process is not itself")
	}
	if Start(0) != "" || Start(-1) != "" {
		t.Fatal("a start for no pid")
	}
}

// TestRuns: this process runs sleep's program only while sleep does, and
// started within the hour.
func TestRuns(t *testing.T) {
	c := startSleep(t)
	if runtime.GOOS == "linux" && !Runs(c.Process.Pid, "sleep") {
		t.Error("sleep does not run sleep")
	}
	if Runs(c.Process.Pid, "kitty") || Runs(0, "sleep") || Runs(99999999, "sleep") {
		t.Error("a process that is no kitty runs kitty")
	}
	if s := Started(os.Getpid()); !s.IsZero() && (s.After(time.Now()) || time.Since(s) > time.Hour) {
		t.Errorf("this process started at %v", s)
	}
}

// TestSignalRefusesAnotherProcess: the pid seen is another process's now
// (here: a start the live process does not have). Nothing reaches it.
func TestSignalRefusesAnotherProcess(t *testing.T) {
	c := startSleep(t)
	// A start that is not the live process's (this test's own start can be
	// sleep's, in clock ticks, when both started within one tick).
	seen := ID{PID: c.Process.Pid, Start: Start(c.Process.Pid) + "1"}
	if err := Signal(seen, syscall.SIGTERM); !errors.Is(err, ErrNotSame) {
		t.Fatalf("Signal to another process: %v, want ErrNotSame", err)
	}
	if err := Signal(ID{PID: c.Process.Pid}, syscall.SIGTERM); !errors.Is(err, ErrNotSame) {
		t.Fatalf("Signal with no start known: %v, want ErrNotSame", err)
	}
	if syscall.Kill(c.Process.Pid, 0) != nil {
		t.Fatal("the other process was signalled")
	}
	if err := Signal(Of(c.Process.Pid), syscall.SIGTERM); err != nil {
		t.Fatalf("Signal to the process seen: %v", err)
	}
	if st, _ := c.Process.Wait(); st == nil || st.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Fatalf("the process seen did not get SIGTERM: %v", st)
	}
}

func TestSignalGone(t *testing.T) {
	c := startSleep(t)
	id := Of(c.Process.Pid)
	_ = c.Process.Kill()
	_, _ = c.Process.Wait()
	if err := Signal(id, syscall.SIGTERM); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("Signal to a gone process: %v, want ESRCH", err)
	}
	if id.Is() {
		t.Fatal("a gone process is still itself")
	}
}
