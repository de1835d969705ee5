//go:build linux

package agents

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// daemonHolding is the pid of a process of this user whose argv is (its
// words split at NULs) and that holds want open; 0 when none.
func daemonHolding(is func(argv []string) bool, want fs.FileInfo) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
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
		if !is(strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")) {
			continue
		}
		if holds(filepath.Join(dir, "fd"), want) {
			return pid
		}
	}
	return 0
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
