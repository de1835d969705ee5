//go:build linux

package e2e_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealRemoteAgents: two windows of a real kitty reach a host (a second
// local user behind .ci/sshd's sshd) with `kitten ssh`; there claude's
// hook (run as claude runs it, for a stand-in claude that logs how it ran)
// records each conversation and tells its window. A save keeps each
// window's ssh command as seen, `sessions restore` brings them back, and
// Enter in each resumes its own conversation on the host. A local program
// printing a hint, and a program on the host printing a forged id, run
// nothing on the host: the forged id is refused there.
func TestRealRemoteAgents(t *testing.T) {
	h := needHost(t)
	user, sshOpts, dest, onHost := h.user, h.opts, h.dest, h.sh
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	kitten := filepath.Join(filepath.Dir(kittyBin), "kitten")
	onHost(`rm -rf ~/.local/state/kittymux ~/.claude/settings.json ~/claude.log ~/a ~/b; mkdir -p ~/.local/bin ~/a ~/b`, nil)
	h.installKittymux(t)
	onHost(`cat > ~/.local/bin/claude && chmod 755 ~/.local/bin/claude`, []byte("#!/bin/sh\necho \"$(pwd) $*\" >> \"$HOME/claude.log\"\n"))
	home := strings.TrimSpace(onHost(`echo $HOME`, nil))

	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin})
	ctx := t.Context()
	ssh := append(append([]string{kitten, "ssh"}, sshOpts...), dest)
	ids := map[string]string{"a": "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "b": "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"}
	wins := map[string]int{}
	for _, d := range []string{"a", "b"} {
		wins[d] = k.LaunchWith(kitty.LaunchOptions{Args: ssh})
	}
	// A local program printing a hint: no ssh runs in its window.
	forger := remote.Hint{Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000001", Dir: "/tmp", Host: "evil"}
	local := k.LaunchWith(kitty.LaunchOptions{Args: []string{"sh", "-c",
		`printf '\033]1337;SetUserVar=` + remote.Var + `=` + base64.StdEncoding.EncodeToString([]byte(forger.Encode())) + `\007'; exec sleep 600`}})
	for d, win := range wins {
		match := "id:" + strconv.Itoa(win)
		k.WaitForText(match, func(s string) bool { return strings.Contains(s, user+"@") }, 60*time.Second)
		event := fmt.Sprintf(`{"session_id":"%s","cwd":"%s/%s","hook_event_name":"SessionStart","source":"startup"}`, ids[d], home, d)
		// The hook's parent stands for claude: a process of its own per
		// window (the windows' shells share one sshd, the kitten's
		// connection).
		line := fmt.Sprintf("cd ~/%s && printf '%%s' '%s' | timeout 60 ~/.local/bin/kittymux hook claude SessionStart\r", d, event)
		if err := k.Client.SendText(ctx, match, line); err != nil {
			t.Fatal(err)
		}
	}
	// A program on the host printing a forged hint: an id the host's hooks
	// never recorded.
	forged := remote.Hint{Agent: "claude", ID: "0a1b2c3d-0000-4000-8000-000000000002", Dir: home + "/a", Host: "vm"}
	third := k.LaunchWith(kitty.LaunchOptions{Args: ssh})
	k.WaitForText("id:"+strconv.Itoa(third), func(s string) bool { return strings.Contains(s, user+"@") }, 60*time.Second)
	if err := k.Client.SendText(ctx, "id:"+strconv.Itoa(third), `printf '\033]1337;SetUserVar=`+remote.Var+`=`+
		base64.StdEncoding.EncodeToString([]byte(forged.Encode()))+`\007'`+"\r"); err != nil {
		t.Fatal(err)
	}
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		n := 0
		for _, r := range kitty.Windows(ls) {
			if r.Window.UserVars[remote.Var] != "" {
				n++
			}
		}
		return n == 4
	}, 60*time.Second)

	env := realEnv(t, k)
	env["KITTYMUX_RESUME_BIN"] = resumeBin(t)
	env["KITTY_LISTEN_ON"] = k.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k.PID)
	for _, name := range []string{"XDG_STATE_HOME", "HOME"} {
		if v := k.Getenv(name); v != "" {
			env[name] = v
		}
	}
	code, out, errOut := kittymux(t, env, "sessions", "save", "remote", "--all")
	if code != 0 {
		t.Fatalf("save: %d\n%s\n%s", code, out, errOut)
	}
	for d := range wins {
		if !strings.Contains(out, "claude on 127.0.0.1 (reported by") || !strings.Contains(out, ids[d]) {
			t.Fatalf("save:\n%s", out)
		}
	}
	if strings.Contains(out, "evil") {
		t.Errorf("a printed hint in a window without ssh was taken:\n%s", out)
	}
	_ = local
	code, out, errOut = kittymux(t, env, "sessions", "restore", "remote")
	if code != 0 {
		t.Fatalf("restore: %d\n%s\n%s", code, out, errOut)
	}
	// Enter in each restored prompt.
	asked := map[int]bool{}
	deadline := time.Now().Add(90 * time.Second)
	for len(asked) < 3 && time.Now().Before(deadline) {
		for _, r := range kitty.Windows(k.LS()) {
			w := r.Window
			if asked[w.ID] {
				continue
			}
			for _, p := range w.ForegroundProcesses {
				if len(p.Cmdline) > 0 && filepath.Base(p.Cmdline[0]) == "kittymux-resume" {
					text := k.WaitForText("id:"+strconv.Itoa(w.ID), func(s string) bool { return strings.Contains(s, "local shell") }, 30*time.Second)
					if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "claude on 127.0.0.1 was running here — resume session") {
						t.Errorf("prompt:\n%s", text)
					}
					k.Client.SendText(ctx, "id:"+strconv.Itoa(w.ID), "\r")
					asked[w.ID] = true
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	var log string
	for time.Now().Before(deadline.Add(60 * time.Second)) {
		if log = onHost(`cat ~/claude.log 2>/dev/null`, nil); strings.Count(log, "\n") >= 2 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, d := range []string{"a", "b"} {
		if !strings.Contains(log, home+"/"+d+" --resume "+ids[d]+"\n") {
			t.Errorf("claude on the host for %s: log %q", d, log)
		}
	}
	if t.Failed() {
		for id := range asked {
			text, _ := screenOf(t, k, id)
			t.Logf("window %d:\n%s", id, text)
		}
	}
	if strings.Contains(log, forger.ID) || strings.Contains(log, forged.ID) || strings.Count(log, "\n") != 2 {
		t.Errorf("a forged id ran: %q", log)
	}
	refused := false
	bound := kittytest.NewBound(t, "a restored window to say the host refused the forged id", 30*time.Second)
	for !refused && !bound.Over() {
		for _, r := range kitty.Windows(k.LS()) {
			// A resumed window closes with its stand-in claude (maybe
			// between ls and get-text); the refused one has a shell.
			if text, ok := screenOf(t, k, r.Window.ID); asked[r.Window.ID] && ok {
				refused = refused || strings.Contains(strings.Join(strings.Fields(text), " "), "holds no claude session "+strconv.Quote(forged.ID))
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !refused {
		t.Errorf("%v", bound)
	}
}

// screenOf is what window id of k shows, if it is still there.
func screenOf(t *testing.T, k *kittytest.Real, id int) (string, bool) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	text, err := k.Client.GetText(ctx, "id:"+strconv.Itoa(id), "screen")
	return text, err == nil
}

// sshHost is the host the remote tests reach: a second local user behind
// the sshd .ci/sshd starts, named by KITTYMUX_SSH_USER, _PORT and _KEY.
type sshHost struct {
	t    *testing.T
	user string
	// opts are ssh's options, up to the destination dest.
	opts []string
	dest string
}

// needHost is the host, held for the test: every test that uses it resets
// its user's files (see pkg/remote/host), one at a time.
func needHost(t *testing.T) sshHost {
	t.Helper()
	user, port, key := os.Getenv("KITTYMUX_SSH_USER"), os.Getenv("KITTYMUX_SSH_PORT"), os.Getenv("KITTYMUX_SSH_KEY")
	if user == "" || port == "" || key == "" {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatal("no sshd: run .ci/sshd DIR as root and export what it prints (KITTYMUX_E2E=require)")
		}
		t.Skip("no sshd: run .ci/sshd DIR as root and export what it prints")
	}
	lock, err := os.OpenFile(key+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	return sshHost{t: t, user: user, dest: user + "@127.0.0.1", opts: []string{"-p", port, "-i", key, "-o", "IdentitiesOnly=yes",
		"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"}}
}

// sh runs a shell command of the test's own on the host and returns what
// it printed.
func (h sshHost) sh(cmd string, stdin []byte) string {
	h.t.Helper()
	c := exec.Command("ssh", append(append(append([]string{}, h.opts...), h.dest), cmd)...)
	c.Stdin = bytes.NewReader(stdin)
	out, _ := c.CombinedOutput()
	return string(out)
}

// installKittymux puts this kittymux and kittymux-resume in the host's
// ~/.local/bin.
func (h sshHost) installKittymux(t *testing.T) {
	t.Helper()
	for _, pkg := range []string{"cmd/kittymux", "cmd/kittymux-resume"} {
		out := filepath.Join(t.TempDir(), filepath.Base(pkg))
		if b, err := exec.Command("go", "build", "-o", out, "github.com/kittymux/kittymux/"+pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, b)
		}
		data, _ := os.ReadFile(out)
		h.sh(`cat > ~/.local/bin/`+filepath.Base(pkg)+` && chmod 755 ~/.local/bin/`+filepath.Base(pkg), data)
	}
}
