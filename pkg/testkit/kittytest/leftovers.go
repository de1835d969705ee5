package kittytest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// EndLeftovers kills the processes whose HOME is home (a test's throw-away
// home): what an agent left running once its terminal is gone, such as
// codex's app-server daemon, which serves every TUI of that home and stays
// when they exit, or a child an agent detached that still writes there. It
// waits (up to 5 s) until none is left, so that a TempDir's removal after
// it finds the directory quiet. It reads /proc: elsewhere it ends nothing.
func EndLeftovers(home string) {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pids := processesOf(home)
		if len(pids) == 0 || time.Now().After(deadline) {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// processesOf lists the processes whose environment holds HOME=home (a
// process that was killed has none to read).
func processesOf(home string) []int {
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
