//go:build linux

package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/sessions/list"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealValueFlags: agents typed with value flags and a prompt into the
// shells of a real kitty (the real claude and codex from npm where they are
// installed, fake gemini, copilot, pi and qodercli) come back from
// `sessions list --json` with each flag beside its value and no prompt word;
// a flag no grammar knows keeps the word after it and says so.
func TestRealValueFlags(t *testing.T) {
	kittytest.NeedReal(t)
	binDir, log := kittytest.FakeAgents(t, "gemini", "copilot", "pi", "qodercli", "opencode")
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env()})
	// The probes of the real CLIs write under HOME: keep that in the test.
	t.Setenv("HOME", k.Home)

	const prompt = "fix the tests"
	type window struct {
		line string
		want []string
	}
	ws := []window{
		{`gemini -m gemini-2.5-pro "fix the tests"`, []string{"gemini", "-m", "gemini-2.5-pro", "--resume", "latest"}},
		{`copilot --model gpt-5 --add-dir=../lib -i "fix the tests"`, []string{"copilot", "--model", "gpt-5", "--add-dir=../lib", "--continue"}},
		{`pi --provider openai --model gpt-4o "fix the tests"`, []string{"pi", "--provider", "openai", "--model", "gpt-4o", "--continue"}},
		{`qodercli -m sonnet --permission-mode plan "fix the tests"`, []string{"qodercli", "-m", "sonnet", "--permission-mode", "plan", "--continue"}},
	}
	fakes := len(ws)
	for _, real := range []struct {
		name string
		args string
		want []string
	}{
		{"codex", `-m o3 -c model_reasoning_effort=high --sandbox=read-only "fix the tests"`,
			[]string{"codex", "resume", "--last", "-m", "o3", "-c", "model_reasoning_effort=high", "--sandbox=read-only"}},
		{"claude", `--model opus --permission-mode plan "fix the tests"`,
			[]string{"claude", "--model", "opus", "--permission-mode", "plan", "--continue"}},
	} {
		path, err := exec.LookPath(real.name)
		if err != nil {
			if os.Getenv("KITTYMUX_E2E") == "require" {
				t.Fatalf("%s is not on PATH; .ci/run installs it from npm", real.name)
			}
			t.Logf("%s is not on PATH: its window is left out", real.name)
			continue
		}
		ws = append(ws, window{path + " " + real.args, real.want})
	}
	unsure := window{`opencode --frobnicate loud`, []string{"opencode", "--frobnicate", "loud", "--continue"}}
	ws = append(ws, unsure)
	fakes++

	ids := map[int]window{}
	for i, w := range ws {
		d := filepath.Join(k.Home, "w"+strconv.Itoa(i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		id := k.LaunchWith(kitty.LaunchOptions{Cwd: d})
		match := "id:" + strconv.Itoa(id)
		k.WaitForText(match, func(s string) bool { return strings.TrimSpace(s) != "" }, 20*time.Second)
		if err := k.Client.SendText(t.Context(), match, w.line+"\r"); err != nil {
			t.Fatal(err)
		}
		ids[id] = w
	}
	log.WaitFor(t, fakes, 20*time.Second)

	env := realEnv(t, k)
	env["HOME"] = k.Home
	env["PATH"] = binDir + ":" + os.Getenv("PATH")
	env["KITTYMUX_PROBE_TIMEOUT"] = kittytest.Scaled(20 * time.Second).String() // a first run of a real CLI on a busy machine
	var got struct{ Windows []list.ListedWindow }
	var out string
	// The real CLIs take a moment to start: list until every window shows
	// its agent.
	bound := kittytest.NewBound(t, "every window to show its agent in sessions list", 30*time.Second)
	for {
		code, o, errOut := kittymux(t, env, "--to", k.Addr.String(), "sessions", "list", "--json")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, o, errOut)
		}
		out = o
		got.Windows = nil
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if len(got.Windows) >= len(ws) || bound.Over() {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	rows := map[int][]string{}
	for _, w := range got.Windows {
		argv := w.Argv
		if len(argv) > 1 && filepath.Base(argv[0]) == "node" {
			argv = argv[1:] // codex's node wrapper: node /…/bin/codex ARGS
		}
		if len(argv) > 0 {
			argv = append([]string{filepath.Base(argv[0])}, argv[1:]...)
		}
		rows[w.WindowID] = argv
		if strings.Contains(strings.Join(w.Argv, " "), prompt) {
			t.Errorf("window %d: the prompt is in %q", w.WindowID, w.Argv)
		}
		if want := ids[w.WindowID]; want.line == unsure.line {
			if w.Unsure == "" || !strings.Contains(w.Reason, "--frobnicate") {
				t.Errorf("window %d: %q is not said to be unsure: %+v", w.WindowID, want.line, w)
			}
		} else if w.Unsure != "" || w.Mode == plan.ModeAsSaved {
			t.Errorf("window %d: %s: %s", w.WindowID, w.Mode, w.Reason)
		}
	}
	want := map[int][]string{}
	for id, w := range ids {
		want[id] = w.want
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("sessions list (-want +got):\n%s\n%s", diff, out)
	}
}
