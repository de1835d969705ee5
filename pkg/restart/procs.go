package restart

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// OS is Procs for this machine's processes.
type OS struct{}

// Signal sends sig to p, never to a process that got its pid since.
func (OS) Signal(p procid.ID, sig syscall.Signal) error { return procid.Signal(p, sig) }

// Alive reports whether p still runs: its pid is a process with p's start
// (with no start known, whether its pid is a process at all).
func (OS) Alive(p procid.ID) bool {
	if p.Start != "" {
		return p.Is()
	}
	err := syscall.Kill(p.PID, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// WaitExec waits until process p has ended, then replaces this process
// with argv: what runs in the place of an agent started without a shell
// once it ends. argv is kittymux's own (the restore prompt and its
// record), never text from a terminal; only kittymux-resume is run.
func WaitExec(ctx context.Context, p procid.ID, argv []string, timeout time.Duration) error {
	if len(argv) == 0 || !filepath.IsAbs(argv[0]) || filepath.Base(argv[0]) != resumerecord.Program {
		return fmt.Errorf("wait-exec runs only kittymux-resume by its absolute path, not %q", argv)
	}
	deadline := time.Now().Add(timeout)
	for (OS{}).Alive(p) {
		if time.Now().After(deadline) {
			return fmt.Errorf("process %d did not end within %s", p.PID, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return syscall.Exec(argv[0], argv, os.Environ())
}
