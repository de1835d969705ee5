package hook

import (
	"os"

	"golang.org/x/sys/unix"
)

const maxDepth = 12

// Ancestors reads the hook's parents with sysctl, nearest first, up to and
// not including stop.
func Ancestors(stop int) []Proc {
	var out []Proc
	pid := os.Getppid()
	for range maxDepth {
		if pid <= 1 || pid == stop {
			break
		}
		k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
		if err != nil {
			break
		}
		out = append(out, Proc{PID: pid, Comm: unix.ByteSliceToString(k.Proc.P_comm[:])})
		pid = int(k.Eproc.Ppid)
	}
	return out
}
