package kittytest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// EndLeftovers kills the processes whose HOME is home (a test's throw-away
// home): what an agent left running once its terminal is gone, such as
// codex's app-server daemon, which serves every TUI of that home and stays
// when they exit. It reads /proc: elsewhere it ends nothing.
func EndLeftovers(home string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && slices.Contains(strings.Split(string(env), "\x00"), "HOME="+home) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
