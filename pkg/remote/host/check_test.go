package host

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/remote"
)

func TestParseRequest(t *testing.T) {
	r, err := ParseRequest([]string{"--do", "resume", "--agent", "claude", "--dir", "/w", "--id", "abc"})
	if err != nil || r != (Request{Do: remote.DoResume, Agent: "claude", ID: "abc", Dir: "/w"}) {
		t.Fatalf("%+v %v", r, err)
	}
	for _, bad := range [][]string{
		{"--do", "resume", "--agent", "claude", "--dir", "/w"},
		{"--do", "new", "--agent", "claude", "--dir", "/w", "--id", "abc"},
		{"--do", "resume", "--agent", "claude", "--dir", "/w", "--id", "-x"},
		{"--do", "exec", "--agent", "claude", "--dir", "/w"},
		{"--do", "new", "--agent", "claude", "--dir", "w"},
		{"--do", "new", "--do", "new", "--agent", "claude", "--dir", "/w"},
		{"--do", "new", "--agent", "claude", "--dir"},
	} {
		if _, err := ParseRequest(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

var errExeced = errors.New("exec'd")

func TestCheckResumesOnlyWhatTheHostRecorded(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	now := time.Now()
	f := &journal.File{Records: []journal.Record{
		{Key: remote.HostSocket + "|0|0|42", Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000001", IDFrom: journal.FromHook, Dir: dir, LastSeen: now},
		// Not the host's hook: a local window's record, and a scanner's.
		{Key: "unix:/tmp/k|7|1|43", Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000002", IDFrom: journal.FromHook, Dir: dir, LastSeen: now},
		{Key: remote.HostSocket + "|0|0|44", Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000003", IDFrom: "journal", Dir: dir, LastSeen: now},
	}}
	for _, tc := range []struct {
		req  Request
		want []string
	}{
		{Request{Do: remote.DoResume, Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000001", Dir: dir}, []string{"/bin/claude", "--resume", "0a1b2c3d-0000-4000-8000-000000000001"}},
		{Request{Do: remote.DoResume, Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000002", Dir: dir}, []string{"-sh"}},
		{Request{Do: remote.DoResume, Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000003", Dir: dir}, []string{"-sh"}},
		{Request{Do: remote.DoResume, Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000004", Dir: dir}, []string{"-sh"}},
		{Request{Do: remote.DoResume, Agent: "codex", ID: "0a1b2c3d-0000-4000-8000-000000000001", Dir: dir}, []string{"-sh"}},
		{Request{Do: remote.DoResume, Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000001", Dir: "/"}, []string{"-sh"}},
		{Request{Do: remote.DoNew, Agent: "claude", Dir: dir}, []string{"/bin/claude"}},
		{Request{Do: remote.DoShell, Agent: "claude", Dir: dir}, []string{"-sh"}},
	} {
		var ran []string
		var cwd string
		var said strings.Builder
		h := Host{Out: &said, Getenv: func(string) string { return "/bin/sh" }, Agents: set,
			LookPath: func(p string) (string, error) { return "/bin/" + p, nil },
			Chdir:    func(d string) error { cwd = d; return nil },
			Exec: func(path string, argv []string) error {
				if ran == nil {
					ran = argv
				}
				return errExeced
			},
			Run: func(path string, argv []string) (int, error) {
				if ran == nil {
					ran = argv
				}
				return 0, nil
			},
			Journal: func() (*journal.File, error) { return f, nil }}
		Check(h, tc.req)
		if d := cmp.Diff(tc.want, ran); d != "" || cwd != tc.req.Dir {
			t.Errorf("%+v: in %s %s (said %q)", tc.req, cwd, d, said.String())
		}
		if tc.want[0] == "-sh" && tc.req.Do == remote.DoResume && !strings.Contains(said.String(), "not resumed") {
			t.Errorf("%+v: no line says why: %q", tc.req, said.String())
		}
	}
}

// An agent that fails as it starts leaves what it said above a shell in
// its directory, with a line saying so; one that ran a while, or ended
// well, ends the window as an agent here does.
func TestCheckAgentExitsAtOnce(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const id = "0a1b2c3d-0000-4000-8000-000000000001"
	f := &journal.File{Records: []journal.Record{
		{Key: remote.HostSocket + "|0|0|42", Agent: "claude", ID: id, IDFrom: journal.FromHook, Dir: dir, LastSeen: time.Now()},
	}}
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		code  int
		ran   time.Duration
		shell bool
		err   error
	}{
		{"fails at once", 1, time.Second, true, errExeced},
		{"killed at once", -1, time.Second, true, errExeced},
		{"ends well at once", 0, time.Second, false, Exited(0)},
		{"fails after a while", 1, time.Minute, false, Exited(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := t0
			var ran, execd []string
			var said strings.Builder
			h := Host{Out: &said, Getenv: func(string) string { return "/bin/sh" }, Agents: set,
				LookPath: func(p string) (string, error) { return "/bin/" + p, nil },
				Chdir:    func(string) error { return nil },
				Exec:     func(path string, argv []string) error { execd = argv; return errExeced },
				Run: func(path string, argv []string) (int, error) {
					ran = argv
					now = now.Add(tc.ran)
					return tc.code, nil
				},
				Now:     func() time.Time { return now },
				Journal: func() (*journal.File, error) { return f, nil }}
			err := Check(h, Request{Do: remote.DoResume, Agent: "claude", ID: id, Dir: dir})
			if d := cmp.Diff([]string{"/bin/claude", "--resume", id}, ran); d != "" {
				t.Errorf("ran (-want +got):\n%s", d)
			}
			if got := execd != nil; got != tc.shell || err != tc.err {
				t.Errorf("shell %v (%q), err %v; want shell %v, err %v", got, execd, err, tc.shell, tc.err)
			}
			if tc.shell != strings.Contains(said.String(), "claude exited at once") {
				t.Errorf("said %q", said.String())
			}
		})
	}
}
