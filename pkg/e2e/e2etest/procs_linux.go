package e2etest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// endLeftovers ends any process that still runs with the test's HOME once
// its kitty is gone: an agent that outlived its terminal; codex's
// app-server daemon, which runs from HOME's .codex, serves every TUI there
// and stays when they exit.
func endLeftovers(t *testing.T, home string) {
	for _, pid := range processesUnder(home) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// processesUnder lists the processes whose HOME is home (/proc/PID/environ).
func processesUnder(home string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && slices.Contains(strings.Split(string(env), "\x00"), "HOME="+home) {
			pids = append(pids, pid)
		}
	}
	return pids
}
