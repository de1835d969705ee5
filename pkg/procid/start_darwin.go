package procid

import (
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
