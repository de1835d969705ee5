package prompt_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/remote"
)

// remoteWorld is a world with a fake ssh on PATH (it logs how it was run,
// as the fake agents do).
func remoteWorld(t *testing.T) (*world, string) {
	w := newWorld(t)
	ssh := filepath.Join(w.agents, "ssh")
	if err := os.Link(filepath.Join(w.agents, "claude"), ssh); err != nil {
		t.Fatal(err)
	}
	return w, ssh
}

func remoteRecord(ssh string) []string {
	return []string{"--agent", "claude", "--mode", "exact", "--id", uuid, "--remote", "devbox.lan", "--remote-dir", "/home/u/api",
		"--", ssh, "-p", "2222", "u@devbox"}
}

// Each key of a remote record's question: the ssh command as saved, -t,
// and the remote command kittymux builds, which hands the hint's values to
// the host's kittymux to check; l is a shell here.
func TestRemoteKeys(t *testing.T) {
	w, ssh := remoteWorld(t)
	hint := remote.Hint{Agent: "claude", ID: uuid, Dir: "/home/u/api", Host: "devbox.lan"}
	for _, c := range []struct {
		keys string
		do   string
	}{{"\r", remote.DoResume}, {"n", remote.DoNew}, {"s", remote.DoShell}, {"l", ""}, {"\x1b", ""}} {
		r := w.runPTYShown(w.seal(remoteRecord(ssh)), c.keys, func() {})
		if !strings.Contains(r.out, "claude on devbox was running here — resume session") || !strings.Contains(r.out, "(reported by devbox.lan)?") {
			t.Errorf("%q: question:\n%s", c.keys, r.out)
		}
		got := argvOf(r)
		if c.do == "" {
			if len(got) != 1 || got[0] != "-fakesh" {
				t.Errorf("%q: %q, want a shell here", c.keys, got)
			}
			continue
		}
		cmd, _ := remote.CheckCommand(hint, c.do)
		want := []string{"ssh", "-p", "2222", "-t", "u@devbox", cmd}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q: exec'd %q\nwant %q", c.keys, got, want)
		}
	}
}

// A record not sealed here (written by hand, or by a program in the
// window) shows its whole command; one that names an ssh other than the
// one on PATH runs nothing but a shell here.
func TestRemoteUnsealed(t *testing.T) {
	w, ssh := remoteWorld(t)
	r := w.runPTYShown(remoteRecord(ssh), "\r", func() {})
	if !strings.Contains(r.out, "(unconfirmed)") || !strings.Contains(r.out, ssh+" -p 2222 u@devbox") {
		t.Errorf("output:\n%s", r.out)
	}
	if got := argvOf(r); len(got) < 1 || got[0] != "ssh" {
		t.Errorf("exec'd %q", got)
	}
	other := filepath.Join(w.dir, "bin", "ssh")
	if err := os.WriteFile(other, []byte("#!/bin/sh\necho pwned > \"$HOME/pwned\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = w.runPTY(remoteRecord(other), "\r", false)
	if got := argvOf(r); len(got) != 1 || got[0] != "-fakesh" || !strings.Contains(r.out, "not the ssh on PATH") {
		t.Errorf("exec'd %q\n%s", got, r.out)
	}
	if _, err := os.Stat(filepath.Join(w.home, "pwned")); err == nil {
		t.Error("the record's own ssh ran")
	}
}
