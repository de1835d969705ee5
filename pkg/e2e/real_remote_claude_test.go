//go:build linux

package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// TestRealRemoteClaude is the journey of an agent on another machine with
// the real claude: on the host (a second local user behind .ci/sshd's
// sshd) claude 2.1.197 is installed for that user, talks to the model
// stand-in (its settings.json env block, as a user sets it), and
// `kittymux setup --remote` installs kittymux's hooks there. In a real
// kitty two windows reach the host with `kitten ssh`, claude in each is
// told a word; the scanner autosaves the kitty, which is killed with
// SIGKILL; `sessions restore last` in a new kitty brings both windows back
// and Enter in each resumes its own conversation on the host: the
// stand-in's next request from each carries its word, not the other's.
func TestRealRemoteClaude(t *testing.T) {
	h := needHost(t)
	e2etest.NeedCLI(t, "claude")
	r := newLastRig(t)
	kitten := filepath.Join(filepath.Dir(r.kittyBin), "kitten")

	// The real claude, for the host's user: the binary the npm package
	// installs, copied there (the user cannot read this one's home).
	local, err := exec.LookPath("claude")
	if err != nil {
		t.Fatal(err)
	}
	if local, err = filepath.EvalSymlinks(local); err != nil {
		t.Fatal(err)
	}
	h.sh(`rm -rf ~/.local/state/kittymux ~/.claude ~/.claude.json ~/claude.log ~/a ~/b; mkdir -p ~/.local/bin ~/.claude ~/a ~/b`, nil)
	h.installKittymux(t)
	claudeBin, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	if v := h.sh(`cat > ~/.local/bin/claude.new && chmod 755 ~/.local/bin/claude.new && mv ~/.local/bin/claude.new ~/.local/bin/claude && ~/.local/bin/claude --version`, claudeBin); !strings.Contains(v, "Claude Code") {
		t.Fatalf("claude on the host: %s", v)
	}
	home := strings.TrimSpace(h.sh(`echo $HOME`, nil))
	stub := modelstub.Start(t)
	conf := t.TempDir()
	env := map[string]string{}
	for _, kv := range stub.ClaudeHome(t, conf, home+"/a", home+"/b") {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	claudeJSON, err := os.ReadFile(filepath.Join(conf, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	settings, _ := json.Marshal(map[string]any{"env": env})
	h.sh(`cat > ~/.claude.json`, claudeJSON)
	h.sh(`cat > ~/.claude/settings.json`, settings)
	if out := h.sh(`PATH=$HOME/.local/bin:$PATH kittymux setup --remote --integrations=yes`, nil); !strings.Contains(h.sh(`cat ~/.claude/settings.json`, nil), "kittymux hook claude SessionStart") {
		t.Fatalf("setup --remote did not install claude's hooks:\n%s", out)
	}
	if s := h.sh(`cat ~/.claude/settings.json`, nil); !strings.Contains(s, stub.URL) {
		t.Fatalf("setup --remote dropped the settings' env:\n%s", s)
	}

	r.scanner(false)
	k1 := r.start()
	ssh := append(append([]string{kitten, "ssh"}, h.opts...), h.dest)
	words := map[string]string{"a": "ORCHID", "b": "TULIP"}
	wins := map[string]int{}
	for _, d := range []string{"a", "b"} {
		wins[d] = k1.LaunchWith(kitty.LaunchOptions{Args: ssh})
	}
	for _, d := range []string{"a", "b"} {
		match := "id:" + strconv.Itoa(wins[d])
		k1.WaitForText(match, func(s string) bool { return strings.Contains(s, h.user+"@") }, 60*time.Second)
		if err := k1.Client.SendText(t.Context(), match, "export PATH=$HOME/.local/bin:$PATH; cd ~/"+d+" && claude\r"); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"a", "b"} {
		k1.WaitForText("id:"+strconv.Itoa(wins[d]), e2etest.Claude.Ready, 90*time.Second)
	}
	for _, d := range []string{"a", "b"} {
		tellRemote(t, k1, stub, wins[d], "Remember the word "+words[d])
	}
	// Each window's hint, from the host's hook: its conversation there.
	convs := map[string]string{}
	bound := kittytest.NewBound(t, "the host's hook to tell each window its conversation", 60*time.Second)
	for len(convs) < 2 {
		for _, ref := range kitty.Windows(k1.LS()) {
			for d, id := range wins {
				if ref.Window.ID != id {
					continue
				}
				if hint, err := remote.ParseHint(ref.Window.UserVars[remote.Var]); err == nil && hint.Dir == home+"/"+d {
					convs[d] = hint.ID
				}
			}
		}
		if len(convs) < 2 && bound.Over() {
			t.Fatalf("%v: %v; host's journal:\n%s", bound, convs, h.sh(`cat ~/.local/state/kittymux/agent-sessions.json ~/.local/state/kittymux/agent-sessions.json.log`, nil))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("conversations on the host: %v", convs)
	crashed := r.waitSave(k1, "both remote conversations", func(s string) bool {
		return strings.Count(s, "--remote-dir") == 2 && strings.Contains(s, convs["a"]) && strings.Contains(s, convs["b"])
	})

	if err := syscall.Kill(k1.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, k1, 20*time.Second)
	// The connection dropped: each claude on the host ends on the hangup.
	kittytest.Eventually(t, "the claudes on the host to end with their connection", 60*time.Second, func() (bool, string) {
		// This test's claudes: those in its two directories (another
		// test may run claude on the host beside it).
		ps := h.sh(`n=0; for p in $(pgrep -u "$(id -u)" -f claude); do
  case "$(readlink /proc/$p/cwd 2>/dev/null)" in "$HOME/a"|"$HOME/b") n=$((n+1)); echo "$p $(tr '\0' ' ' </proc/$p/cmdline)";; esac
done; echo "count $n"`, nil)
		return strings.Contains(ps, "count 0\n") || strings.HasSuffix(strings.TrimSpace(ps), "count 0"), ps
	})

	// The scanner recorded both, with their host: history lists them,
	// ended once the scanner's next pass finds the kitty gone, and
	// recover would bring them back.
	kittytest.Eventually(t, "history to list both claudes on 127.0.0.1, ended", 30*time.Second, func() (bool, string) {
		code, out, errOut := r.run(nil, "sessions", "history", "--json")
		var hist struct {
			Sessions []struct {
				ID, Dir, Host string
				Running       bool
			}
		}
		if err := json.Unmarshal([]byte(out), &hist); code != 0 || err != nil {
			t.Fatalf("history: exit %d %v\n%s%s", code, err, out, errOut)
		}
		for _, d := range []string{"a", "b"} {
			found := false
			for _, e := range hist.Sessions {
				found = found || e.ID == convs[d] && e.Dir == home+"/"+d && e.Host == "127.0.0.1" && !e.Running
			}
			if !found {
				return false, "no " + d + " in:\n" + out
			}
		}
		return true, ""
	})
	code, out, errOut := r.run(nil, "sessions", "recover", "--dry-run", "--since", "1h")
	if flat := strings.Join(strings.Fields(errOut), " "); code != 0 || !strings.Contains(flat, "would recover 2 conversation(s)") ||
		!strings.Contains(flat, home+"/a on 127.0.0.1") || !strings.Contains(flat, home+"/b on 127.0.0.1") {
		t.Errorf("recover --dry-run: exit %d\n%s", code, errOut)
	}

	k2 := r.start()
	code, out, errOut = r.run(k2, "sessions", "restore", "last", "--wait", "1s")
	if code != 0 || !strings.Contains(out, "restored "+crashed) {
		t.Fatalf("restore last: exit %d\n%s%s", code, out, errOut)
	}
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "claude on 127.0.0.1") {
		t.Errorf("the restore report does not name the host:\n%s", out)
	}
	// Enter in each restored prompt: which conversation it asks about is
	// on its screen.
	restored := map[string]int{}
	bound = kittytest.NewBound(t, "a restore prompt for each conversation", 90*time.Second)
	for len(restored) < 2 {
		for _, ref := range kitty.Windows(k2.LS()) {
			w := ref.Window
			prompt := false
			for _, p := range w.ForegroundProcesses {
				prompt = prompt || len(p.Cmdline) > 0 && filepath.Base(p.Cmdline[0]) == "kittymux-resume"
			}
			if !prompt || slicesContainsValue(restored, w.ID) {
				continue
			}
			text := k2.WaitForText("id:"+strconv.Itoa(w.ID), func(s string) bool { return strings.Contains(s, "local shell") }, 30*time.Second)
			flat := strings.Join(strings.Fields(text), " ")
			for d, id := range convs {
				if strings.Contains(flat, "claude on 127.0.0.1 was running here — resume session "+ids.Short(id)) {
					restored[d] = w.ID
				}
			}
		}
		if len(restored) < 2 && bound.Over() {
			t.Fatalf("%v: %v", bound, restored)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, d := range []string{"a", "b"} {
		if err := k2.Client.SendText(t.Context(), "id:"+strconv.Itoa(restored[d]), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"a", "b"} {
		k2.WaitForText("id:"+strconv.Itoa(restored[d]), func(s string) bool {
			return e2etest.Claude.Ready(s) && strings.Contains(s, words[d])
		}, 90*time.Second)
	}
	for _, d := range []string{"a", "b"} {
		question := "Which word did I ask you to remember, window " + d + "?"
		reqs := tellRemote(t, k2, stub, restored[d], question)
		other := words["b"]
		if d == "b" {
			other = words["a"]
		}
		for _, req := range reqs {
			if !req.Carries(words[d]) || req.Carries(other) {
				t.Errorf("window %s resumed another conversation: its request carries %q: %v, %q: %v", d, words[d], req.Carries(words[d]), other, req.Carries(other))
			}
		}
	}
	if t.Failed() {
		t.Logf("requests:\n%s", stub.Summary())
	}
}

// tellRemote types line into window id, where claude runs on the host,
// and returns the stand-in's turns that carry it, once its answer shows.
func tellRemote(t *testing.T, k *kittytest.Real, stub *modelstub.Server, id int, line string) []modelstub.Request {
	t.Helper()
	match := "id:" + strconv.Itoa(id)
	if err := k.Client.SendText(t.Context(), match, line); err != nil {
		t.Fatal(err)
	}
	k.WaitForText(match, func(s string) bool {
		return strings.Contains(strings.Join(strings.Fields(s), ""), strings.Join(strings.Fields(line), ""))
	}, 30*time.Second)
	// An Enter a busy TUI dropped is pressed again.
	for range 3 {
		if err := k.Client.SendText(t.Context(), match, "\r"); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(kittytest.Scaled(20 * time.Second))
		for len(stub.Carrying(line)) == 0 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if len(stub.Carrying(line)) > 0 {
			break
		}
	}
	reqs := stub.WaitCarrying(t, line, 60*time.Second)
	k.WaitForText(match, func(s string) bool { return strings.Contains(strings.Join(strings.Fields(s), ""), "stubreplyto") }, 60*time.Second)
	return reqs
}

func slicesContainsValue(m map[string]int, v int) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}
