package live

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
)

// readProc reads process pid from root (/proc): its executable, argv,
// environment, directory, parent and process group. ok is false when any of
// them cannot be read (a process gone meanwhile, another user's).
func readProc(root string, pid int) (agents.Proc, bool) {
	if pid <= 0 {
		return agents.Proc{}, false
	}
	dir := filepath.Join(root, strconv.Itoa(pid))
	exe, err := os.Readlink(filepath.Join(dir, "exe"))
	if err != nil || !filepath.IsAbs(exe) {
		return agents.Proc{}, false
	}
	p := agents.Proc{PID: pid, Exe: exe}
	if p.Argv = nulList(filepath.Join(dir, "cmdline")); len(p.Argv) == 0 {
		return agents.Proc{}, false
	}
	p.Env = nulList(filepath.Join(dir, "environ"))
	p.Cwd, _ = os.Readlink(filepath.Join(dir, "cwd"))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return agents.Proc{}, false
	}
	// The comm field may hold spaces and parentheses: read after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return agents.Proc{}, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 3 {
		return agents.Proc{}, false
	}
	p.PPID, _ = strconv.Atoi(f[1])
	p.PGID, _ = strconv.Atoi(f[2])
	return p, true
}

// nulList reads a NUL-separated list (/proc/PID/cmdline, environ).
func nulList(path string) []string {
	raw, err := os.ReadFile(path)
	if err != nil || len(raw) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
}
