package root

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// A command blocked where its context does not reach (a read the kernel
// does not interrupt) still ends after SIGTERM: once the grace is over,
// the signal is left to end the process.
func TestSignalEndsABlockedCommand(t *testing.T) {
	died := make(chan os.Signal, 1)
	ctx, stop := watchSignals(10*time.Millisecond, func(s os.Signal) { died <- s })
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The command never returns; its context ends all the same.
	select {
	case <-ctx.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the context did not end at SIGTERM")
	}
	select {
	case s := <-died:
		if s != syscall.SIGTERM {
			t.Errorf("died by %v, want SIGTERM", s)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a command that never returned was not ended")
	}
}

// A command that returns in its grace is not ended: it stops cleanly.
func TestSignalLetsACommandReturn(t *testing.T) {
	died := make(chan os.Signal, 1)
	ctx, stop := watchSignals(time.Hour, func(s os.Signal) { died <- s })
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	stop()
	select {
	case s := <-died:
		t.Errorf("died by %v though the command returned", s)
	default:
	}
}
