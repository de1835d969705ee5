package host_test

import (
	"bytes"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/kittymux/kittymux/pkg/remote"
)

// sshTo is the sshd .ci/sshd starts on 127.0.0.1: a second local user
// stands for the host, reached with a key generated for the test.
type sshTo struct {
	t    *testing.T
	base []string // ssh and its options, up to the destination
	dest string
}

func realHost(t *testing.T) sshTo {
	t.Helper()
	user, port, key := os.Getenv("KITTYMUX_SSH_USER"), os.Getenv("KITTYMUX_SSH_PORT"), os.Getenv("KITTYMUX_SSH_KEY")
	if user == "" || port == "" || key == "" {
		msg := "no sshd for the remote test: run .ci/sshd DIR as root and export what it prints"
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatal(msg + " (KITTYMUX_E2E=require)")
		}
		t.Skip(msg)
	}
	lockHost(t, key)
	ssh, err := exec.LookPath("ssh")
	if err != nil {
		t.Fatal(err)
	}
	return sshTo{t: t, dest: user + "@127.0.0.1", base: []string{ssh, "-p", port, "-i", key, "-o", "IdentitiesOnly=yes",
		"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"}}
}

// run runs argv (an ssh command) with stdin, and returns what it printed.
func (h sshTo) run(argv []string, stdin []byte) string {
	h.t.Helper()
	c := exec.Command(argv[0], argv[1:]...)
	c.Stdin = bytes.NewReader(stdin)
	out, err := c.CombinedOutput()
	if err != nil {
		h.t.Logf("%q: %v", argv, err)
	}
	return string(out)
}

// sh runs a shell command of the test's own on the host.
func (h sshTo) sh(cmd string, stdin []byte) string {
	return h.run(append(append([]string{}, h.base...), h.dest, cmd), stdin)
}

// lockHost holds the host for the test: every test that uses it (here and
// in pkg/e2e) resets the same user's files, and go test runs packages at once.
func lockHost(t *testing.T, key string) {
	t.Helper()
	f, err := os.OpenFile(key+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
}

func build(t *testing.T, pkg string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(pkg))
	c := exec.Command("go", "build", "-o", out, "github.com/kittymux/kittymux/"+pkg)
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRealSSHHost: on a real host reached by a real ssh, `kittymux setup
// --remote` installs claude's hooks; the hook, run in an ssh session with
// a terminal, records the session in the host's journal and prints the
// hint to that terminal; the command a restore sends back resumes that
// conversation there, and nothing else: a forged id gets a shell and a
// line saying why, a directory holding shell text runs none of it.
func TestRealSSHHost(t *testing.T) {
	if testing.Short() && os.Getenv("KITTYMUX_E2E") != "require" {
		t.Skip("real ssh: not with -short")
	}
	h := realHost(t)
	h.sh(`rm -rf ~/.local/state/kittymux ~/.claude/settings.json ~/claude.log ~/work ~/pwned; mkdir -p ~/.local/bin ~/work ~/.claude`, nil)
	for _, bin := range []string{"cmd/kittymux", "cmd/kittymux-resume"} {
		h.sh(`cat > ~/.local/bin/`+filepath.Base(bin)+` && chmod 755 ~/.local/bin/`+filepath.Base(bin), build(t, bin))
	}
	// claude on the host: a stand-in that logs how it was run, and where.
	h.sh(`cat > ~/.local/bin/claude && chmod 755 ~/.local/bin/claude`,
		[]byte("#!/bin/sh\necho \"$(pwd) $*\" >> \"$HOME/claude.log\"\n"))
	out := h.sh(`PATH=$HOME/.local/bin:$PATH kittymux setup --remote --integrations=yes`, nil)
	if settings := h.sh(`cat ~/.claude/settings.json`, nil); !strings.Contains(settings, "kittymux hook claude SessionStart") {
		t.Fatalf("setup --remote did not install claude's hooks:\n%s\n%s", out, settings)
	}

	// The hook as claude runs it, in a session with a terminal (-tt).
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	home := strings.TrimSpace(h.sh(`echo $HOME`, nil))
	dir := home + "/work"
	event := `{"session_id":"` + id + `","cwd":"` + dir + `","hook_event_name":"SessionStart","source":"startup"}`
	tty := h.run(append(append([]string{}, h.base...), "-tt", h.dest,
		`cd ~/work && printf '%s' '`+event+`' | ~/.local/bin/kittymux hook claude SessionStart`), nil)
	m := regexp.MustCompile("\x1b]1337;SetUserVar=" + remote.Var + "=([A-Za-z0-9+/=]+)\a").FindStringSubmatch(tty)
	if m == nil {
		t.Fatalf("no hint on the terminal: %q\nhook.log: %s", tty, h.sh(`cat ~/.local/state/kittymux/hook.log`, nil))
	}
	v, _ := base64.StdEncoding.DecodeString(m[1])
	hint, err := remote.ParseHint(string(v))
	if err != nil || hint.Agent != "claude" || hint.ID != id || hint.Dir != dir || hint.Host == "" {
		t.Fatalf("hint %+v %v", hint, err)
	}
	if j := h.sh(`cat ~/.local/state/kittymux/agent-sessions.json`, nil); !strings.Contains(j, `"key":"ssh|0|0|`) || !strings.Contains(j, id) {
		t.Fatalf("the host's journal:\n%s", j)
	}

	// What a restore runs: the ssh command as seen, and kittymux's remote command.
	s, ok := remote.ParseSSH(append(append([]string{}, h.base...), h.dest))
	if !ok {
		t.Fatal("the test's ssh command does not parse")
	}
	restore := func(hint remote.Hint, do string) string {
		cmd, err := remote.CheckCommand(hint, do)
		if err != nil {
			t.Fatal(err)
		}
		return h.run(s.Command(cmd), nil)
	}
	out = restore(hint, remote.DoResume)
	if log := h.sh(`cat ~/claude.log`, nil); log != dir+" --resume "+id+"\n" {
		t.Fatalf("claude on the host ran as %q, want in %s with --resume %s\n%s", log, dir, id, out)
	}

	// Forged: another id, the right one elsewhere, a directory of shell text.
	forged := hint
	forged.ID = "0a1b2c3d-0000-4000-8000-000000000001"
	out = restore(forged, remote.DoResume)
	if !strings.Contains(out, "holds no claude session "+strconv.Quote(forged.ID)) {
		t.Errorf("forged id: %q", out)
	}
	elsewhere := hint
	elsewhere.Dir = home
	restore(elsewhere, remote.DoResume)
	shellText := hint
	shellText.Dir = "/tmp/x'; touch " + home + "/pwned; '"
	restore(shellText, remote.DoResume)
	if log := h.sh(`cat ~/claude.log; ls ~/pwned 2>&1`, nil); !strings.HasPrefix(log, dir+" --resume "+id+"\n") || strings.Count(log, "--resume") != 1 || !strings.Contains(log, "No such file") {
		t.Errorf("after the forged restores: %q", log)
	}
	// n: a new conversation there.
	restore(hint, remote.DoNew)
	if log := h.sh(`tail -n 1 ~/claude.log`, nil); log != dir+" \n" {
		t.Errorf("new conversation: %q", log)
	}

	// A claude that fails as it starts: what it said stays, and a shell in
	// its directory runs under it (here it reads its commands from stdin).
	h.sh(`cat > ~/.local/bin/claude && chmod 755 ~/.local/bin/claude`,
		[]byte("#!/bin/sh\necho \"No conversation found with session ID: $2\" >&2\nexit 1\n"))
	cmd, err := remote.CheckCommand(hint, remote.DoResume)
	if err != nil {
		t.Fatal(err)
	}
	out = h.run(s.Command(cmd), []byte("echo still here in \"$(pwd)\".\n"))
	if !strings.Contains(out, "No conversation found with session ID: "+id) || !strings.Contains(out, "claude exited at once (status 1)") ||
		!strings.Contains(out, "still here in "+dir+".") {
		t.Errorf("a claude that fails at once: %q", out)
	}
}
