//go:build linux

package conversations

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// serverHolding is the pid and command (its program's base name and
// the words after it) of a process of this user whose argv is (its words
// split at NULs) and that holds want open; 0 when none.
func serverHolding(is func(argv []string) bool, want fs.FileInfo) (int, []string) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, nil
	}
	uid := uint32(os.Getuid())
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 1 {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		if fi, err := os.Stat(dir); err != nil || fi.Sys().(*syscall.Stat_t).Uid != uid {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || len(raw) == 0 {
			continue
		}
		argv := strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")
		if !is(argv) {
			continue
		}
		if holds(filepath.Join(dir, "fd"), want) {
			return pid, append([]string{filepath.Base(argv[0])}, argv[1:]...)
		}
	}
	return 0, nil
}

// holds reports whether one of the descriptors in fdDir is want.
func holds(fdDir string, want fs.FileInfo) bool {
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join(fdDir, fd.Name())); err != nil || !strings.HasPrefix(link, "/") {
			continue
		}
		if fi, err := os.Stat(filepath.Join(fdDir, fd.Name())); err == nil && os.SameFile(fi, want) {
			return true
		}
	}
	return false
}
