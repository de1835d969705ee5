package procid

import (
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

func start(pid int) string {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return ""
	}
	t := kp.Proc.P_starttime
	return strconv.FormatInt(int64(t.Sec), 10) + "." + strconv.FormatInt(int64(t.Usec), 10)
}

// Started is when process pid started; zero when not known.
func Started(pid int) time.Time {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return time.Time{}
	}
	return time.Unix(kp.Proc.P_starttime.Unix())
}

// Runs reports whether pid is a live process of this user whose program is
// named name, as the process table says (macOS names kitty.app's binary
// "kitty" too).
func Runs(pid int, name string) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return false
	}
	comm := unix.ByteSliceToString(kp.Proc.P_comm[:])
	return filepath.Base(comm) == name && int(kp.Eproc.Ucred.Uid) == unix.Getuid()
}
