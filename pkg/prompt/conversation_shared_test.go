//go:build linux

package prompt_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/ids"
)

// codexID is a thread id as codex 0.171.0 makes them (UUIDv7).
const codexID = "01a2325a-55ff-7883-9c8b-48b6eccfef87"

// rollout places codex's recorded rollout (its first line, from a real
// codex 0.171.0 thread with the model stand-in) under the world's ~/.codex
// as thread id of directory cwd, as codex files it.
func (w *world) rollout(t *testing.T, id, cwd string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "conversations", "codex-0.171.0-rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.NewReplacer("@CWD@", cwd, "@HOME@", w.home, "@ID@", id).Replace(string(data)))
	dir := filepath.Join(w.home, ".codex", "sessions", "2026", "12", "01")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "rollout-2026-12-01T16-05-10-"+id+".jsonl")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// standInDaemon starts a process whose command line is codex's app-server
// daemon's (`…/codex app-server --managed-daemon`) and which holds file
// open, as the real daemon holds a thread's rollout after its TUI is gone:
// a shell reading its script from a file named app-server.
func standInDaemon(t *testing.T, file string) int {
	t.Helper()
	dir := t.TempDir()
	script := `exec 3<"$HELD"; while :; do sleep 1; done` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "app-server"), []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh")
	cmd.Args = []string{filepath.Join(dir, "codex"), "app-server", "--managed-daemon"}
	cmd.Dir, cmd.Env = dir, []string{"HELD=" + file, "PATH=/usr/bin:/bin"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	link := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "fd", "3")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if l, err := os.Readlink(link); err == nil && l == file {
			return cmd.Process.Pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stand-in daemon did not open %s", file)
		}
	}
}

// TestConversationHeldByCodexDaemon: codex's app-server daemon holds the
// thread after its TUI is gone (TestRealCodexDaemonHoldsThread shows it
// with the real codex), and codex run apart from the daemon (--no-daemon,
// as kittymux's exact codex records run) does not open it: it waits on
// "This conversation is open in another app". The prompt says where the
// thread runs and offers `codex resume <id>`, which attaches through the
// daemon; with no terminal, a shell. A resume through the daemon, or with
// no daemon holding the thread, runs as before.
func TestConversationHeldByCodexDaemon(t *testing.T) {
	w := newWorld(t)
	f := w.rollout(t, codexID, w.cwd)
	rec := func(extra ...string) []string {
		a := append([]string{"--agent", "codex", "--mode", "exact", "--id", codexID, "--tab", "web"}, extra...)
		return append(a, "--", "codex", "resume", codexID, "--no-daemon")
	}
	resumed := []string{"codex", "resume", codexID, "--no-daemon"}
	if r := w.runPTY(w.seal(rec()), "\r", true); !cmp.Equal(argvOf(r), resumed) {
		t.Fatalf("no daemon holds it: ran %q, want the resume\n%s", argvOf(r), r.out)
	}
	pid := standInDaemon(t, f)
	for _, c := range []struct {
		keys string
		want []string
	}{
		{"\r", []string{"codex", "resume", codexID}},
		{"a", []string{"codex", "resume", codexID}},
		{"n", []string{"codex", "--no-daemon"}},
		{"s", []string{"-fakesh"}},
	} {
		r := w.runPTY(w.seal(rec("--direct")), c.keys, false)
		if diff := cmp.Diff(c.want, argvOf(r)); diff != "" {
			t.Errorf("key %q exec'd (-want +got):\n%s\noutput:\n%s", c.keys, diff, r.out)
		}
		want := "codex conversation " + ids.Short(codexID) + " runs in codex's shared server (codex app-server --managed-daemon) (pid " +
			strconv.Itoa(pid) + ", in " + w.cwd + "): `codex resume " + codexID + "` opens it here"
		if !strings.Contains(flat(r.out), want) {
			t.Errorf("the prompt did not say where it runs (%q):\n%s", want, r.out)
		}
	}
	if out, _ := w.runNoTerminal(w.seal(rec("--direct")), nil); !strings.Contains(out, "not resuming it a second time") {
		t.Errorf("no terminal:\n%s", out)
	}
	// Through the daemon, codex resume attaches: nothing to say.
	through := []string{"--agent", "codex", "--mode", "exact", "--id", codexID, "--", "codex", "resume", codexID}
	if r := w.runPTY(w.seal(through), "\r", true); !cmp.Equal(argvOf(r), []string{"codex", "resume", codexID}) {
		t.Errorf("through the daemon: ran %q, want the resume\n%s", argvOf(r), r.out)
	}
}
