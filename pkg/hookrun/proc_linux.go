package hookrun

import (
	"bytes"
	"os"
	"strconv"
	"strings"
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

// cmdlineOf reads pid's argv from /proc.
func cmdlineOf(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// ttyOf is the terminal pid's standard input, output or error is open on
// (/dev/pts/N or /dev/ttyN), "" when none is.
func ttyOf(pid int) string {
	for _, fd := range []string{"0", "1", "2"} {
		p, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd)
		if err == nil && isTTYPath(p) {
			return p
		}
	}
	return ""
}
