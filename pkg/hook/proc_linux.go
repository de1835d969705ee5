package hook

import (
	"bytes"
	"os"
	"strconv"
)

// parentOf reads pid's command name and parent from /proc.
func parentOf(pid int) (comm string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parens.
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return "", 0, false
	}
	f := bytes.Fields(b[end+1:])
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(string(f[1]))
	return string(b[open+1 : end]), ppid, err == nil
}
