package remote

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/recognize"
)

func TestParseHint(t *testing.T) {
	good := Hint{Agent: "claude", ID: "9f3c2b1a-0d4e", Dir: "/home/u/api", Host: "devbox.lan"}
	got, err := ParseHint(good.Encode())
	if err != nil || got != good {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	for _, bad := range []string{
		`{"agent":"claude","id":"--dangerously-skip-permissions","dir":"/x","host":"h"}`,
		`{"agent":"claude","id":"a","dir":"x","host":"h"}`,
		`{"agent":"claude","id":"a","dir":"/x/../y","host":"h"}`,
		`{"agent":"claude","id":"a","dir":"/x\ny","host":"h"}`,
		"{\"agent\":\"claude\",\"id\":\"a\",\"dir\":\"/x\u009by\",\"host\":\"h\"}", // C1: an 8-bit CSI
		`{"agent":"claude","id":"a","dir":"/x","host":"-oProxyCommand=x"}`,
		`{"agent":"claude","id":"a","dir":"/x","host":"h h"}`,
		`{"agent":"Claude;rm","id":"a","dir":"/x","host":"h"}`,
		`{"agent":"claude","id":"a","dir":"/x","host":"h","cmd":"x"}`,
		`not json`,
	} {
		if _, err := ParseHint(bad); !errors.Is(err, ErrBadHint) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestParseSSH(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want SSH
		cmd  []string
	}{
		{[]string{"/usr/bin/ssh", "devbox"}, SSH{Argv: []string{"/usr/bin/ssh", "devbox"}, Dest: "devbox"},
			[]string{"/usr/bin/ssh", "-t", "devbox", "CMD"}},
		{[]string{"ssh", "-p", "2222", "-i", "/k", "-oBatchMode=yes", "-A", "u@devbox", "claude", "--resume", "x"},
			SSH{Argv: []string{"ssh", "-p", "2222", "-i", "/k", "-oBatchMode=yes", "-A", "u@devbox"}, Dest: "u@devbox"},
			[]string{"ssh", "-p", "2222", "-i", "/k", "-oBatchMode=yes", "-A", "-t", "u@devbox", "CMD"}},
		{[]string{"ssh", "-t", "--", "devbox", "old"}, SSH{Argv: []string{"ssh", "-t", "--", "devbox"}, Dest: "devbox"},
			[]string{"ssh", "-t", "--", "devbox", "CMD"}},
		{[]string{"/opt/kitty/bin/kitten", "ssh", "--kitten", "login_shell=zsh", "devbox"},
			SSH{Argv: []string{"/opt/kitty/bin/kitten", "ssh", "--kitten", "login_shell=zsh", "devbox"}, Dest: "devbox", Kitten: true},
			[]string{"/opt/kitty/bin/kitten", "ssh", "--kitten", "login_shell=zsh", "-t", "devbox", "CMD"}},
		{[]string{"kitty", "+kitten", "ssh", "devbox"}, SSH{Argv: []string{"kitty", "+kitten", "ssh", "devbox"}, Dest: "devbox", Kitten: true},
			[]string{"kitty", "+kitten", "ssh", "-t", "devbox", "CMD"}},
	} {
		got, ok := ParseSSH(tc.argv)
		if !ok {
			t.Errorf("%q: not ssh", tc.argv)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%q: %s", tc.argv, d)
		}
		if d := cmp.Diff(tc.cmd, got.Command("CMD")); d != "" {
			t.Errorf("%q command: %s", tc.argv, d)
		}
	}
	for _, bad := range [][]string{
		{"ssh"}, {"ssh", "-p"}, {"ssh", "-N", "h"}, {"ssh", "-O", "exit", "h"}, {"ssh", "-W", "x:1", "h"},
		{"ssh", "--bogus", "h"}, {"sshd", "h"}, {"kitten", "icat", "x"}, {"bash", "-c", "ssh h"}, {"ssh", "-Z", "h"},
	} {
		if s, ok := ParseSSH(bad); ok {
			t.Errorf("%q read as %+v", bad, s)
		}
	}
}

// The remote command, run by a real shell as ssh would have the host's
// run it, hands kittymux-resume the hint's values as they are, whatever
// they hold; without kittymux-resume on the host it says so and opens a
// shell in the directory.
func TestCheckCommandRunsAsArguments(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(home, ".local", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(home, "args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + out + "\n"
	if err := os.WriteFile(filepath.Join(bin, "kittymux-resume"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := "/tmp/a b'c\"$(touch " + home + "/pwned)`id`;x"
	h := Hint{Agent: "claude", ID: "9f3c-2b1a", Dir: dir, Host: "devbox"}
	cmd, err := CheckCommand(h, DoResume)
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command("/bin/sh", "-c", cmd)
	c.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	got, _ := os.ReadFile(out)
	want := strings.Join([]string{CheckFlag, "--do", "resume", "--agent", "claude", "--dir", dir, "--id", "9f3c-2b1a"}, "\n") + "\n"
	if string(got) != want {
		t.Errorf("arguments:\n%s\nwant:\n%s", got, want)
	}
	if _, err := os.Stat(filepath.Join(home, "pwned")); err == nil {
		t.Error("a directory's text ran as a command")
	}

	// No kittymux-resume: a line, and a shell in the directory.
	os.Remove(filepath.Join(bin, "kittymux-resume"))
	target := t.TempDir()
	h.Dir = target
	cmd, _ = CheckCommand(h, DoShell)
	shell := filepath.Join(home, "shell")
	os.WriteFile(shell, []byte("#!/bin/sh\npwd > "+out+"\n"), 0o755)
	c = exec.Command("/bin/sh", "-c", cmd)
	c.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "SHELL=" + shell}
	b, err := c.CombinedOutput()
	if err != nil || !strings.Contains(string(b), "kittymux is not installed on this host") {
		t.Errorf("%v: %s", err, b)
	}
	if got, _ := os.ReadFile(out); strings.TrimSpace(string(got)) != target {
		t.Errorf("shell ran in %q, want %q", got, target)
	}
}

// Only a process that executes ssh or the kitten counts, whatever argv
// says; of the kitten and the ssh it starts, the kitten is the command; a
// hint that is not one is said so, not used.
func TestWindows(t *testing.T) {
	hint := Hint{Agent: "claude", ID: "abc", Dir: "/w", Host: "devbox"}
	procs := map[int]recognize.Proc{
		10: {PID: 10, Exe: "/opt/kitty/bin/kitten", Argv: []string{"kitten", "ssh", "devbox"}},
		11: {PID: 11, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "-o", "RemoteCommand=none", "-t", "--", "devbox", "boot"}},
		20: {PID: 20, Exe: "/usr/bin/bash", Argv: []string{"ssh", "evil"}},
		30: {PID: 30, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "-p", "2222", "box2"}},
	}
	win := func(id int, vars map[string]string, pids ...int) kitty.Window {
		w := kitty.Window{ID: id, UserVars: vars}
		for _, p := range pids {
			w.ForegroundProcesses = append(w.ForegroundProcesses, kitty.Process{PID: p})
		}
		return w
	}
	ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{
		win(1, map[string]string{Var: hint.Encode()}, 11, 10),
		win(2, map[string]string{Var: hint.Encode()}, 20),
		win(3, map[string]string{Var: `{"agent":"claude","id":"-x","dir":"/w","host":"h"}`}, 30),
	}}}}}
	got := Windows(ls, func(pid int) (recognize.Proc, bool) { p, ok := procs[pid]; return p, ok })
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	if got[0].WindowID != 1 || !got[0].SSH.Kitten || got[0].SSH.Argv[0] != "/opt/kitty/bin/kitten" || got[0].Hint != hint {
		t.Errorf("window 1: %+v", got[0])
	}
	if got[1].WindowID != 3 || got[1].HasHint() || got[1].HintErr == nil || got[1].SSH.Host() != "box2" {
		t.Errorf("window 3: %+v", got[1])
	}
}

// Hinted reads the processes of the windows that carry a hint only: the
// scanner's poll reads no process of a plain ssh window, nor of any other.
func TestHinted(t *testing.T) {
	hint := Hint{Agent: "claude", ID: "abc", Dir: "/w", Host: "devbox"}
	procs := map[int]recognize.Proc{
		11: {PID: 11, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "devbox"}, Start: "b:1"},
		30: {PID: 30, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "box2"}},
	}
	ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{
		{ID: 1, UserVars: map[string]string{Var: hint.Encode()}, ForegroundProcesses: []kitty.Process{{PID: 11}}},
		{ID: 2, ForegroundProcesses: []kitty.Process{{PID: 30}}},
	}}}}}
	var read []int
	got := Hinted(ls, func(pid int) (recognize.Proc, bool) { read = append(read, pid); p, ok := procs[pid]; return p, ok })
	if len(got) != 1 || got[0].WindowID != 1 || got[0].Start != "b:1" || fmt.Sprint(read) != "[11]" {
		t.Errorf("got %+v, read %v", got, read)
	}
	if all := Windows(ls, func(pid int) (recognize.Proc, bool) { p, ok := procs[pid]; return p, ok }); len(all) != 2 {
		t.Errorf("Windows: %+v", all)
	}
}

func TestNote(t *testing.T) {
	s, _ := ParseSSH([]string{"/usr/bin/ssh", "u@gpu"})
	agentOf := func(line string) (string, bool) { return "claude", strings.HasPrefix(line, "claude") }
	w := Seen{WindowID: 2, SSH: s, Reported: "claude --model opus"}
	if n := w.Note(agentOf); !strings.Contains(n, "`kittymux setup --remote` on gpu would bring its agents back") {
		t.Errorf("no kittymux there: %q", n)
	}
	w.Hint = Hint{Agent: "claude", ID: "abc", Dir: "/w", Host: "gpu.lan"}
	if n := w.Note(agentOf); !strings.Contains(n, "claude on gpu (reported by gpu.lan)") {
		t.Errorf("hint: %q", n)
	}
	if n := (Seen{SSH: s, Reported: "ls"}).Note(agentOf); n != "" {
		t.Errorf("plain ssh: %q", n)
	}
}
