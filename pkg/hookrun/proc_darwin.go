package hookrun

import (
	"bytes"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// parentOf reads pid's command name and parent with sysctl.
func parentOf(pid int) (comm string, ppid int, ok bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return "", 0, false
	}
	return unix.ByteSliceToString(k.Proc.P_comm[:]), int(k.Eproc.Ppid), true
}

// cmdlineOf reads pid's argv with sysctl kern.procargs2: argc, the
// executable's path, padding, then the arguments, each NUL-terminated.
func cmdlineOf(pid int) []string {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(b) < 4 {
		return nil
	}
	argc := int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24
	b = b[4:]
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil
	}
	b = bytes.TrimLeft(b[i:], "\x00")
	var argv []string
	for len(argv) < argc {
		j := bytes.IndexByte(b, 0)
		if j < 0 {
			break
		}
		argv = append(argv, string(b[:j]))
		b = b[j+1:]
	}
	return argv
}

// ttyOf is pid's controlling terminal (its device number, found among
// /dev/ttys*), "" when it has none.
func ttyOf(pid int) string {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Eproc.Tdev == -1 {
		return ""
	}
	names, _ := filepath.Glob("/dev/ttys*")
	for _, n := range names {
		var st unix.Stat_t
		if unix.Stat(n, &st) == nil && st.Rdev == k.Eproc.Tdev && isTTYPath(n) {
			return n
		}
	}
	return ""
}
