package live

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// readProc reads process pid from root (/proc): its executable, argv,
// environment, directory, parent and process group. ok is false when any of
// them cannot be read (a process gone meanwhile, another user's).
func readProc(root string, pid int) (recognize.Proc, bool) {
	if pid <= 0 {
		return recognize.Proc{}, false
	}
	dir := filepath.Join(root, strconv.Itoa(pid))
	exe, err := os.Readlink(filepath.Join(dir, "exe"))
	if err != nil || !filepath.IsAbs(exe) {
		return recognize.Proc{}, false
	}
	p := recognize.Proc{PID: pid, Exe: exe}
	if p.Argv = nulList(filepath.Join(dir, "cmdline")); len(p.Argv) == 0 {
		return recognize.Proc{}, false
	}
	p.Env = nulList(filepath.Join(dir, "environ"))
	p.Cwd, _ = os.Readlink(filepath.Join(dir, "cwd"))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return recognize.Proc{}, false
	}
	// The comm field may hold spaces and parentheses: read after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return recognize.Proc{}, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 3 {
		return recognize.Proc{}, false
	}
	p.PPID, _ = strconv.Atoi(f[1])
	p.PGID, _ = strconv.Atoi(f[2])
	p.Start = startOf(root, f)
	return p, true
}

// startOf is the process's start as Proc.Start holds it: the boot's id and
// the clock tick the process started at (field 22 of /proc/PID/stat, f
// being the fields after its name), "" when either is missing. Ticks count
// from boot: with the boot's id they tell a process from any later one
// that gets its pid.
func startOf(root string, f []string) string {
	const startField = 22 - 3 // f[0] is field 3, the state
	if len(f) <= startField {
		return ""
	}
	if _, err := strconv.ParseUint(f[startField], 10, 64); err != nil {
		return ""
	}
	if b := bootID(root); b != "" {
		return procid.StartToken(b, f[startField])
	}
	return ""
}

// boots caches each root's boot id: it changes only with a reboot.
var boots sync.Map

func bootID(root string) string {
	if b, ok := boots.Load(root); ok {
		return b.(string)
	}
	data, err := os.ReadFile(filepath.Join(root, "sys", "kernel", "random", "boot_id"))
	b := strings.TrimSpace(string(data))
	if err != nil || b == "" || strings.ContainsAny(b, "/\n") {
		return ""
	}
	boots.Store(root, b)
	return b
}

// nulList reads a NUL-separated list (/proc/PID/cmdline, environ).
func nulList(path string) []string {
	raw, err := os.ReadFile(path)
	if err != nil || len(raw) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
}
