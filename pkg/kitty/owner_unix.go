//go:build unix

package kitty

import (
	"math"
	"os"
	"syscall"
)

func ownerUID(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// processAlive reports whether pid is a live process this user may signal
// (EPERM: another user's, not a kitty kittymux can drive). The kernel takes
// a 32-bit pid: a larger number would wrap to some other process.
func processAlive(pid int) bool {
	return pid > 0 && pid <= math.MaxInt32 && syscall.Kill(pid, 0) == nil
}
