//go:build !linux

package procid

import "syscall"

func signal(id ID, sig syscall.Signal) error {
	if err := check(id); err != nil {
		return err
	}
	return syscall.Kill(id.PID, sig)
}
