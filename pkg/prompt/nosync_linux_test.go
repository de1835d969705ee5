//go:build linux

package prompt_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// execOrSync is a traced execve or sync call, with its pid.
var execOrSync = regexp.MustCompile(`^(\d+) +(execve|fsync|fdatasync|sync_file_range|syncfs|sync)\(`)

// TestNoSyncBeforeTheAgent: between the prompt's start and its exec of the
// agent, nothing is synced to disk (strace): the lease is a lock held
// through exec, written unsynced, and the outcome is queued. A sync there
// waited on the disk in every restored window (11–28 ms, measured). The
// run is the common one: a sealed exact record, no terminal.
func TestNoSyncBeforeTheAgent(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		msg := "strace is not installed (apt-get install strace)"
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatal(msg + " (KITTYMUX_E2E=require)")
		}
		t.Skip(msg)
	}
	w := newWorld(t)
	trace := filepath.Join(t.TempDir(), "trace")
	args := append([]string{"-f", "-qq", "-o", trace, "-e", "trace=execve,fsync,fdatasync,sync_file_range,syncfs,sync", w.bin},
		w.seal(claudeRecord())...)
	cmd := exec.Command(strace, args...)
	cmd.Env, cmd.Dir = append(w.env(), "FAKEAGENT_EXIT=0"), w.cwd
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rs := w.log.Records(); len(rs) != 1 || rs[0].Name != "claude" {
		t.Fatalf("the agent did not run: %+v", rs)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	execs := 0
	for _, line := range strings.Split(string(data), "\n") {
		m := execOrSync.FindStringSubmatch(line)
		switch {
		case m == nil:
		case m[2] == "execve":
			if execs++; execs == 2 {
				return // the agent's: what comes after is the agent's own
			}
		default:
			t.Errorf("before the agent's exec: %s", line)
		}
	}
	t.Fatalf("the trace shows no exec of the agent:\n%s", data)
}
