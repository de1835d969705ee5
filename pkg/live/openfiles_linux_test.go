package live_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

const (
	rolloutA = "rollout-2026-12-01T02-18-41-01a22f65-a912-7040-baf9-a9d5211cdd9e.jsonl"
	idA      = "01a22f65-a912-7040-baf9-a9d5211cdd9e"
	rolloutB = "rollout-2026-12-01T02-20-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"
)

// TestHeldFileIDs: codex's id is read from the rollout file a process of its
// window holds open (the native child of the node launcher, as codex 0.171.0
// running in process does), and from nothing else.
func TestHeldFileIDs(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	sessions := "/home/u/.codex/sessions/2026/12/01/"
	tests := []struct {
		name  string
		agent string
		fds   map[int][]string // pid → what its descriptors point at
		want  [2]string
	}{
		{name: "native child holds the rollout", agent: "codex",
			fds:  map[int][]string{501: {"/dev/pts/3", "/home/u/.codex/state_5.sqlite"}, 502: {"/home/u/.codex/logs_2.sqlite", sessions + rolloutA}},
			want: [2]string{idA, "codex " + rolloutA + " held open by pid 502"}},
		{name: "held twice by one process", agent: "codex",
			fds:  map[int][]string{502: {sessions + rolloutA, sessions + rolloutA}},
			want: [2]string{idA, "codex " + rolloutA + " held open by pid 502"}},
		// The app-server daemon holds the files of TUIs run through it: the
		// window's own processes hold none.
		{name: "nothing held: run through the daemon", agent: "codex",
			fds: map[int][]string{501: {"/dev/pts/3"}, 502: {"/home/u/.codex/state_5.sqlite"}}},
		{name: "two conversations held: no guess", agent: "codex",
			fds: map[int][]string{502: {sessions + rolloutA, sessions + rolloutB}}},
		{name: "a rollout outside sessions/Y/M/D", agent: "codex",
			fds: map[int][]string{502: {"/tmp/" + rolloutA}}},
		// gemini appends by path and closes: a file it held would be a
		// coincidence, and is not read.
		{name: "gemini is not read from open files", agent: "gemini",
			fds: map[int][]string{502: {"/home/u/.gemini/tmp/p/chats/session-2026-12-01T02-18-01a22f65.jsonl"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proc := t.TempDir()
			for pid, targets := range tt.fds {
				dir := filepath.Join(proc, strconv.Itoa(pid), "fd")
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				for i, target := range targets {
					if err := os.Symlink(target, filepath.Join(dir, strconv.Itoa(i+3))); err != nil {
						t.Fatal(err)
					}
				}
			}
			ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{{ID: 2, PID: 500, Cwd: "/a",
				ForegroundProcesses: []kitty.Process{
					{PID: 501, Cmdline: []string{"/usr/bin/" + tt.agent, "--model", "x"}, Cwd: "/a"},
					{PID: 502, Cmdline: []string{"/opt/vendor/bin/" + tt.agent, "--model", "x"}, Cwd: "/a"},
				}}}}}}}
			ws := live.AgentWindowsFrom(set, ls, noProc)
			if len(ws) != 1 {
				t.Fatalf("recognised %d agent windows, want 1", len(ws))
			}
			live.Records{ProcRoot: proc}.ReadIDs(ws)
			got := [2]string{ws[0].KnownID, ws[0].KnownIDFrom}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("id, from (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHeldFileRealProcess: a fake codex that keeps its rollout open, as the
// real one does in process, is read through the real /proc.
func TestHeldFileRealProcess(t *testing.T) {
	bin, _ := kittytest.FakeAgents(t, "codex")
	home := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "codex"), "--model", "x")
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "FAKEAGENT_CODEX_ROLLOUT="+idA)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The fake prints its "running" line once the file is open.
	if _, err := out.Read(make([]byte, 64)); err != nil {
		t.Fatal(err)
	}
	rec, ok := live.Records{ProcRoot: "/proc"}.Read("codex", []int{cmd.Process.Pid})
	if !ok || rec.ID != idA {
		t.Fatalf("read %+v, %v; want id %s", rec, ok, idA)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if rec, ok := (live.Records{ProcRoot: "/proc"}).Read("codex", []int{cmd.Process.Pid}); ok {
		t.Errorf("a process gone still gave %+v", rec)
	}
}
