//go:build darwin

package ended

import (
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// isKitty: the process table says pid is a live process named kitty.
// macOS names the kitty.app binary "kitty" too.
func isKitty(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return false
	}
	name := unix.ByteSliceToString(kp.Proc.P_comm[:])
	return filepath.Base(name) == "kitty" && int(kp.Eproc.Ucred.Uid) == unix.Getuid()
}

// started is when process pid started; zero when not known.
func started(pid int) time.Time {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return time.Time{}
	}
	return time.Unix(kp.Proc.P_starttime.Unix())
}
