package procid

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

func signal(id ID, sig syscall.Signal) error {
	fd, err := unix.PidfdOpen(id.PID, 0)
	if errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EPERM) {
		// A kernel before 5.3 (or a sandbox without the call): the start
		// compared just before the signal.
		if err := check(id); err != nil {
			return err
		}
		return syscall.Kill(id.PID, sig)
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	// The pidfd holds the process: if it is id's now, it is the one signalled.
	if err := check(id); err != nil {
		return err
	}
	return unix.PidfdSendSignal(fd, sig, nil, 0)
}
