package kitty

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// StartSession starts a new kitty on a session file, in a session of its
// own, and returns once it has run for a moment: one that fails at once
// (no display to open, a kitty.conf it refuses) is an error with what it
// said. One that exits at once with success handed the session to a kitty
// already running (--single-instance in the user's kitty.conf or a
// wrapper): that is a start. Not `kitty --detach`: it returns before the
// new kitty opened its display, so a kitty that could not start would be
// reported started.
func StartSession(kittyPath, session string) error {
	return startSession(kittyPath, session, 2*time.Second)
}

// startSession is StartSession, waiting settle for an early exit.
func startSession(kittyPath, session string, settle time.Duration) error {
	// Its output goes to a file no one reads once it runs: a pipe would
	// break when this process exits, and kitty writes to it for life.
	out, err := os.CreateTemp("", "kittymux-kitty-*.log")
	if err != nil {
		return err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	cmd := exec.Command(kittyPath, "--session", session)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err == nil {
			return nil
		}
		said, _ := os.ReadFile(out.Name())
		return fmt.Errorf("kitty exited at once (%v)%s", err, lastLines(string(said), 5))
	case <-time.After(settle):
		return nil
	}
}

// lastLines is the last n lines of s, after a colon, joined by "; " (an
// error is shown on one line).
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return ": " + strings.Join(lines, "; ")
}
