package kitty

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A kitty that cannot start (here: no display) is an error saying why; one
// that hands the session to a running kitty and exits 0 is a start; one
// that runs is started and left running.
func TestStartSession(t *testing.T) {
	dir := t.TempDir()
	failing := filepath.Join(dir, "failing")
	if err := os.WriteFile(failing, []byte("#!/bin/sh\necho '[0.01] Failed to open display' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := startSession(failing, "s.kitty-session", 10*time.Second)
	if err == nil || !strings.Contains(err.Error(), "Failed to open display") || !strings.Contains(err.Error(), "exit status 1") {
		t.Errorf("failing kitty: %v", err)
	}
	handed := filepath.Join(dir, "handed")
	if err := os.WriteFile(handed, []byte("#!/bin/sh\necho handed to the running kitty\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := startSession(handed, "s.kitty-session", 10*time.Second); err != nil {
		t.Errorf("a kitty that hands the session on and exits 0: %v", err)
	}
	ran := filepath.Join(dir, "ran")
	running := filepath.Join(dir, "running")
	if err := os.WriteFile(running, []byte("#!/bin/sh\necho \"$$ $@\" > "+ran+"\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := startSession(running, "s.kitty-session", 300*time.Millisecond); err != nil {
		t.Errorf("running kitty: %v", err)
	}
	got, _ := os.ReadFile(ran)
	pid, args, _ := strings.Cut(strings.TrimSpace(string(got)), " ")
	if n, err := strconv.Atoi(pid); err == nil {
		_ = syscall.Kill(n, syscall.SIGKILL)
	}
	if args != "--session s.kitty-session" {
		t.Errorf("kitty ran with %q", got)
	}
}
