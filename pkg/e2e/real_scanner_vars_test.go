//go:build linux

package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// TestRealScannerUserVarsSave, on a kitty with save_as_session (0.48.2 in
// CI): a fake claude started without an id writes its sessions/<pid>.json;
// the scanner marks its window with kittymux_agent, kittymux_session (that
// id) and kittymux_pid; `sessions save` then publishes the window with
// `--resume <that id>`, and kitty's own save carries the marks. With
// claude's record gone, the scanner's journal still gives the id (the marks
// are hints: any program can set them). A fake codex
// that holds its rollout open, as codex in process does, is marked and
// saved with that rollout's id.
func TestRealScannerUserVarsSave(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude", "codex")
	resume := resumeBin(t)
	claudeDir := filepath.Join(t.TempDir(), "claude-config")
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), "CLAUDE_CONFIG_DIR="+claudeDir), Kitty: kittyBin})
	api := filepath.Join(t.TempDir(), "api")
	if err := os.Mkdir(api, 0o755); err != nil {
		t.Fatal(err)
	}
	const recID = "0199a213-81c0-7800-8aa1-bbab2a035a53"
	win := k.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude"), "--model", "opus"}, Cwd: api,
		Env: []string{"FAKEAGENT_CLAUDE_SESSION=" + recID}})
	pid := waitRuns(t, log, 1, 30*time.Second)[0].PID
	// A codex that runs its thread in process keeps the rollout open.
	const rolloutID = "01a22f65-a912-7040-baf9-a9d5211cdd9e"
	codexWin := k.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "codex"), "-c", "model_verbosity=low"},
		Cwd: api, Env: []string{"CODEX_HOME=" + t.TempDir(), "FAKEAGENT_CODEX_ROLLOUT=" + rolloutID}})
	waitRuns(t, log, 2, 30*time.Second)
	record := filepath.Join(claudeDir, "sessions", strconv.Itoa(pid)+".json")

	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	env := realEnv(t, k)
	if err := statefile.EnsureState(paths.Under(env["HOME"])); err != nil {
		t.Fatal(err)
	}
	inst := kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version}
	sc := scanner.New(scanner.Options{Set: set,
		// The journal `sessions save` reads: kittymux's own.
		Journal:  journal.New(paths.Under(env["HOME"]).Journal(), false),
		Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil },
		Records:  live.Records{ProcRoot: "/proc", Getenv: func(string) string { return "" }},
		Logf:     t.Logf})
	want := map[string]string{uservars.Agent: "claude", uservars.Session: recID, uservars.PID: strconv.Itoa(pid)}
	bound := kittytest.NewBound(t, "the scanner's user vars on the windows", 30*time.Second)
	for {
		p, err := sc.Poll(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var vars, codexVars map[string]string
		for _, r := range kitty.Windows(k.LS()) {
			switch r.Window.ID {
			case win:
				vars = r.Window.UserVars
			case codexWin:
				codexVars = r.Window.UserVars
			}
		}
		if vars[uservars.Agent] == want[uservars.Agent] && vars[uservars.Session] == want[uservars.Session] &&
			vars[uservars.PID] == want[uservars.PID] && codexVars[uservars.Session] == rolloutID {
			from := map[string]string{}
			for _, s := range p.Sessions {
				from[s.Agent] = s.IDFrom
			}
			if from["claude"] != "claude sessions/"+strconv.Itoa(pid)+".json" || !strings.Contains(from["codex"], "held open") {
				t.Errorf("the scanner's sessions: %+v", p.Sessions)
			}
			break
		}
		if bound.Over() {
			t.Fatalf("%v: user vars of window %d: %v, want %v; of codex's: %v; pass %+v", bound, win, vars, want, codexVars, p)
		}
		time.Sleep(200 * time.Millisecond)
	}

	env["PATH"] = binDir + ":" + os.Getenv("PATH")
	env["KITTYMUX_RESUME_BIN"] = resume
	env["KITTY_LISTEN_ON"] = k.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k.PID)
	save := func(name string) shared.SaveResult {
		t.Helper()
		code, out, errOut := kittymux(t, env, "sessions", "save", name, "--all", "--json")
		if code != 0 {
			t.Fatalf("save %s: exit %d\n%s\n%s", name, code, out, errOut)
		}
		var saved shared.SaveResult
		if err := json.Unmarshal([]byte(out), &saved); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return saved
	}
	check := func(saved shared.SaveResult) {
		t.Helper()
		var got []string
		for _, w := range saved.Windows {
			if w.WindowID != win {
				continue
			}
			argv := append([]string{filepath.Base(w.Argv[0])}, w.Argv[1:]...)
			if w.Mode != plan.ModeExact || w.ID != recID || strings.Join(argv, " ") != "claude --model opus --resume "+recID {
				t.Errorf("window %d saved as %s %q %q: %s", win, w.Mode, w.ID, argv, w.Reason)
			}
			got = append(got, w.Reason)
		}
		if len(got) != 1 {
			t.Fatalf("window %d not in the save: %+v", win, saved)
		}
		for _, w := range saved.Windows {
			if w.WindowID == codexWin && (w.Mode != plan.ModeExact || w.ID != rolloutID) {
				t.Errorf("codex saved as %s %q %q: %s", w.Mode, w.ID, w.Argv, w.Reason)
			}
		}
		data, err := os.ReadFile(paths.Under(env["HOME"]).Session(saved.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "--var=kittymux_session="+recID) {
			t.Errorf("kitty's save does not carry the scanner's mark:\n%s", data)
		}
	}
	check(save("marked"))

	// claude's record gone (a crash leaves it, a clean exit removes it; here
	// it is removed while the process runs): the scanner's journal, for this
	// window and pid, still names the conversation.
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	check(save("marks-only"))
}
