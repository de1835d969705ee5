//go:build darwin

package ended

import (
	"path/filepath"

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
