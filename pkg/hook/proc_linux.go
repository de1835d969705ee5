package hook

import (
	"bytes"
	"os"
	"strconv"
)

// maxDepth bounds the walk up: agent, a shell or two, kitty.
const maxDepth = 12

// Ancestors reads the hook's parents from /proc, nearest first, up to and
// not including stop.
func Ancestors(stop int) []Proc {
	var out []Proc
	pid := os.Getppid()
	for range maxDepth {
		if pid <= 1 || pid == stop {
			break
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			break
		}
		// pid (comm) state ppid ...: comm may hold spaces and parens.
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || end < open {
			break
		}
		out = append(out, Proc{PID: pid, Comm: string(b[open+1 : end])})
		f := bytes.Fields(b[end+1:])
		if len(f) < 2 {
			break
		}
		if pid, err = strconv.Atoi(string(f[1])); err != nil {
			break
		}
	}
	return out
}
