package hook

import "golang.org/x/sys/unix"

// parentOf reads pid's command name and parent with sysctl.
func parentOf(pid int) (comm string, ppid int, ok bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return "", 0, false
	}
	return unix.ByteSliceToString(k.Proc.P_comm[:]), int(k.Eproc.Ppid), true
}
