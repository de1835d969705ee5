package procid

import (
	"errors"
	"fmt"
	"syscall"
)

// ErrNotSame: the pid is another process's now, or the process's start
// cannot be read to prove it is the one seen. Nothing was sent.
var ErrNotSame = errors.New("not the process seen")

// Signal sends sig to the process id names, never to another that got its
// pid: on Linux through a pidfd opened before its start is compared, so the
// process checked is the process signalled; elsewhere the start is compared
// just before the signal. A process that is gone is syscall.ESRCH; one that
// is not id's, ErrNotSame.
func Signal(id ID, sig syscall.Signal) error {
	if id.PID <= 0 {
		return fmt.Errorf("pid %d: %w", id.PID, syscall.ESRCH)
	}
	if id.Start == "" {
		return fmt.Errorf("%s: its start is not known: %w", id, ErrNotSame)
	}
	return signal(id, sig)
}

// check compares the start of id's pid now with id's.
func check(id ID) error {
	now := Start(id.PID)
	switch {
	case now == "":
		return syscall.ESRCH
	case now != id.Start:
		return fmt.Errorf("pid %d started %s, not %s: %w", id.PID, now, id.Start, ErrNotSame)
	}
	return nil
}
