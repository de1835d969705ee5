//go:build linux

package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// agentRuns are the fake agents' runs that are not help or version probes.
func agentRuns(log *kittytest.AgentLog) []kittytest.AgentRecord {
	var out []kittytest.AgentRecord
	for _, r := range log.Records() {
		if !slices.Contains(r.Args, "--help") && !slices.Contains(r.Args, "--version") {
			out = append(out, r)
		}
	}
	return out
}

// waitRuns waits until the fake agents logged n such runs, and returns them.
func waitRuns(t *testing.T, log *kittytest.AgentLog, n int, timeout time.Duration) []kittytest.AgentRecord {
	t.Helper()
	bound := kittytest.NewBound(t, fmt.Sprintf("%d fake agent runs", n), timeout)
	for {
		runs := agentRuns(log)
		if len(runs) >= n {
			return runs
		}
		if bound.Over() {
			b, _ := os.ReadFile(log.Path)
			t.Fatalf("%v: %d runs; log:\n%s", bound, len(runs), b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func argvOf(r kittytest.AgentRecord) []string { return append([]string{r.Name}, r.Args...) }

func atPrompt(w *kitty.Window) bool { return w.AtPrompt != nil && *w.AtPrompt }

// TestRealSaveRestore runs the whole save path against a real kitty 0.43 or
// newer ($KITTYMUX_KITTY, else kitty on PATH; skipped on an older one, failed
// under KITTYMUX_E2E=require): fake agents in windows
// (claude launched on an id in api and in rev, claude typed at a shell in web
// after an earlier claude --resume there was saved and quit, codex launched
// without an id in cli, a plain shell in docs), `sessions save --all`,
// `sessions restore` inside that kitty (goto_session), a save without --all
// (the focused OS window only), then a new kitty on the published file: each
// agent window waits at the restore prompt with nothing run; Enter (n in rev)
// execs each fake agent with the argv the rules give, once. The shell comes
// back as a shell, a typed agent that exits leaves its shell at the prompt,
// and saving the restored kitty again gives what runs now.
func TestRealSaveRestore(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude", "codex")
	// TestMain (testscript.Main) put a copy of this test binary on PATH as
	// kittymux-resume: it runs prompt.Main.
	resume := resumeBin(t)

	d := e2etest.WorkDirs(t, "api", "web", "cli", "rev", "docs")
	api, web, cli, rev, docs := d[0], d[1], d[2], d[3], d[4]
	const (
		uuid    = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73" // api's claude
		revUUID = "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f" // rev's claude
		oldUUID = "0a1b2c3d-0000-4000-8000-000000000000" // the claude typed first in web, since quit
	)

	k1 := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env(), Kitty: kittyBin})
	ctx := t.Context()
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude"), "--resume", uuid, "--model", "sonnet"}, Cwd: api})
	// web opens a second tab (cli, rev and docs follow it there) whose title
	// neither kitty nor the shell may read as code.
	const webTab = `it's "web" $HOME ` + "`true`" + ` \ & ; end`
	typedWin := k1.LaunchWith(kitty.LaunchOptions{Type: "tab", TabTitle: webTab, Cwd: web})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "codex")}, Cwd: cli})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude"), "--resume", revUUID}, Cwd: rev})
	shellWin := k1.LaunchWith(kitty.LaunchOptions{Cwd: docs})
	byID := func(ls []kitty.OSWindow, id int) *kitty.Window {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == id {
				return r.Window
			}
		}
		return nil
	}
	typeAt := func(k *kittytest.Real, win int, line string) {
		t.Helper()
		// Once shell integration says the shell is at its prompt.
		k.WaitFor(func(ls []kitty.OSWindow) bool {
			w := byID(ls, win)
			return w != nil && atPrompt(w)
		}, 30*time.Second)
		if err := k.Client.SendText(ctx, "id:"+strconv.Itoa(win), line+"\r"); err != nil {
			t.Fatal(err)
		}
		// kitty saves a typed command from what shell integration reported.
		k.WaitFor(func(ls []kitty.OSWindow) bool {
			w := byID(ls, win)
			return w != nil && !atPrompt(w) && w.LastReportedCmdline == line
		}, 30*time.Second)
	}

	env := realEnv(t, k1)
	env["PATH"] = binDir + ":" + os.Getenv("PATH") // the probes read the fakes' --help
	env["KITTYMUX_RESUME_BIN"] = resume
	env["KITTY_LISTEN_ON"] = k1.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k1.PID)
	// kittymux's state is where the restored kitty's prompts find it
	// ($XDG_STATE_HOME/kittymux), so they find the key each record was
	// sealed with.
	xdgState := filepath.Join(env["HOME"], "xdg-state")
	env["XDG_STATE_HOME"] = xdgState
	type row struct {
		Mode plan.Mode
		Argv []string
	}
	// save runs `sessions save NAME --all --json` and returns each agent
	// window's mode and argv (program by base name), by directory.
	save := func(name string) (shared.SaveResult, map[string]row) {
		t.Helper()
		code, out, errOut := kittymux(t, env, "sessions", "save", name, "--all", "--json")
		if code != 0 {
			t.Fatalf("save %s: exit %d\n%s\n%s", name, code, out, errOut)
		}
		var saved shared.SaveResult
		if err := json.Unmarshal([]byte(out), &saved); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		rows := map[string]row{}
		for _, w := range saved.Windows {
			argv := slices.Clone(w.Argv)
			if len(argv) > 0 {
				argv[0] = filepath.Base(argv[0])
			}
			rows[filepath.Base(w.Cwd)] = row{w.Mode, argv}
		}
		return saved, rows
	}

	// A conversation typed in web and saved, then quit: its id must not
	// stick to the window (kittymux_session is set by that save).
	typeAt(k1, typedWin, "claude --resume "+oldUUID)
	first := waitRuns(t, log, 4, 30*time.Second)
	if _, rows := save("before"); rows["web"].Mode != plan.ModeExact {
		t.Errorf("web with claude --resume: %+v", rows["web"])
	}
	for _, r := range first {
		if slices.Contains(r.Args, oldUUID) {
			if err := syscall.Kill(r.PID, syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
		}
	}
	typeAt(k1, typedWin, "claude --model opus")
	waitRuns(t, log, 5, 30*time.Second)
	k1.WaitFor(func(ls []kitty.OSWindow) bool {
		w := byID(ls, shellWin)
		return w != nil && atPrompt(w)
	}, 30*time.Second)

	saved, rows := save("work")
	wantRows := map[string]row{
		"api": {plan.ModeExact, []string{"claude", "--model", "sonnet", "--resume", uuid}},
		"web": {plan.ModeLatest, []string{"claude", "--model", "opus", "--continue"}},
		"cli": {plan.ModeLatest, []string{"codex", "resume", "--last"}},
		"rev": {plan.ModeExact, []string{"claude", "--resume", revUUID}},
	}
	if diff := cmp.Diff(wantRows, rows); diff != "" {
		t.Errorf("save work --json windows (-want +got):\n%s\n%+v", diff, saved)
	}
	published := testPaths(env).Session("work")
	if saved.Path != published {
		t.Errorf("published at %q, want %q", saved.Path, published)
	}
	data, err := os.ReadFile(published)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("published session:\n%s", data)
	file, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	savedWindows := len(file.Windows())
	if want := len(kitty.Windows(k1.LS())); savedWindows != want {
		t.Errorf("the file holds %d windows, kitty has %d", savedWindows, want)
	}
	for _, ref := range file.Windows() {
		c := ref.Line.Launch.Unserialize.CmdAtShellStartup
		if c.Set && !c.IsList {
			t.Errorf("window %d: the typed line survived the rewrite: %q", ref.Line.Launch.Unserialize.ID(), c.String)
		}
	}

	// Inside the running kitty, restore loads the file with goto_session: a
	// session named work with as many windows as the file, each agent window
	// waiting at the prompt, nothing run.
	before := len(agentRuns(log))
	code, out, errOut := kittymux(t, env, "sessions", "restore", "work")
	if code != 0 || !strings.Contains(out, "restored work in "+k1.Addr.String()) {
		t.Fatalf("restore inside kitty: exit %d\n%s\n%s", code, out, errOut)
	}
	ls := k1.WaitFor(func(ls []kitty.OSWindow) bool {
		n := 0
		for _, r := range kitty.Windows(ls) {
			if r.Window.SessionName == "work" {
				n++
			}
		}
		return n == savedWindows
	}, 30*time.Second)
	for _, r := range kitty.Windows(ls) {
		w := r.Window
		if w.SessionName != "work" || !slices.Contains([]string{api, web, cli, rev}, w.Cwd) {
			continue
		}
		k1.WaitForText("id:"+strconv.Itoa(w.ID), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
	}
	time.Sleep(kittytest.Scaled(500 * time.Millisecond)) // a key-less agent run would show by now
	if n := len(agentRuns(log)); n != before {
		t.Errorf("goto_session ran %d agents before any key was pressed: %+v", n-before, agentRuns(log)[before:])
	}

	// Without --all only the focused OS window is saved (kitty's
	// --match=state:focused_os_window): a new one, focused as it opens.
	osWin := k1.LaunchWith(kitty.LaunchOptions{Type: "os-window", Cwd: docs})
	k1.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, o := range ls {
			for _, tab := range o.Tabs {
				for _, w := range tab.Windows {
					if w.ID == osWin {
						return o.IsFocused && atPrompt(&w)
					}
				}
			}
		}
		return false
	}, 30*time.Second)
	code, out, errOut = kittymux(t, env, "sessions", "save", "focused", "--json")
	if code != 0 {
		t.Fatalf("save focused: exit %d\n%s\n%s", code, out, errOut)
	}
	data, err = os.ReadFile(testPaths(env).Session("focused"))
	if err != nil {
		t.Fatal(err)
	}
	if file, err = sessionfile.Parse(data); err != nil {
		t.Fatal(err)
	}
	if ws := file.Windows(); len(ws) != 1 || ws[0].Line.Launch.Unserialize.ID() != osWin || ws[0].Cwd != docs {
		t.Errorf("save without --all: want only window %d in %s:\n%s", osWin, docs, data)
	}
	k1.Stop()

	// A new kitty on the published file.
	before = len(agentRuns(log))
	k2Env := append(log.Env(), "XDG_STATE_HOME="+xdgState)
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Env: k2Env, Kitty: kittyBin, Session: published})
	inDir := map[string]int{}
	ls = k2.WaitFor(func(ls []kitty.OSWindow) bool {
		clear(inDir)
		for _, r := range kitty.Windows(ls) {
			inDir[filepath.Base(r.Window.Cwd)] = r.Window.ID
		}
		return len(kitty.Windows(ls)) == savedWindows && inDir["api"] != 0 && inDir["web"] != 0 && inDir["cli"] != 0 &&
			inDir["rev"] != 0 && inDir["docs"] != 0
	}, 30*time.Second)
	agentDirs := []string{"api", "web", "cli", "rev"}
	for _, d := range agentDirs {
		text := k2.WaitForText("id:"+strconv.Itoa(inDir[d]), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
		if strings.Contains(text, "edited") {
			t.Errorf("the prompt in %s shows the record the save sealed as edited:\n%s", d, text)
		}
		// The title went through kitty's quoting and the shell's eval intact.
		if tab := "tab " + strconv.Quote(webTab); d == "web" && !strings.Contains(text, tab) {
			t.Errorf("the prompt in web does not show %s:\n%s", tab, text)
		}
	}
	if n := len(agentRuns(log)); n != before {
		t.Fatalf("the restored kitty ran %d agents before any key was pressed: %+v", n-before, agentRuns(log)[before:])
	}
	// Enter in each, but n (new conversation) in rev.
	for _, d := range agentDirs {
		key := "\r"
		if d == "rev" {
			key = "n"
		}
		if err := k2.Client.SendText(ctx, "id:"+strconv.Itoa(inDir[d]), key); err != nil {
			t.Fatal(err)
		}
	}
	waitRuns(t, log, before+len(agentDirs), 30*time.Second)
	time.Sleep(kittytest.Scaled(time.Second)) // anything that would run twice has had time to
	runs := agentRuns(log)[before:]
	got := map[string][]string{}
	for _, r := range runs {
		var d string
		for name, id := range inDir {
			if strconv.Itoa(id) == r.Env["KITTY_WINDOW_ID"] {
				d = name
			}
		}
		if _, dup := got[d]; dup {
			t.Errorf("window in %q ran a second agent: %q", d, argvOf(r))
		}
		got[d] = argvOf(r)
	}
	want := map[string][]string{
		"api": {"claude", "--model", "sonnet", "--resume", uuid},
		"web": {"claude", "--model", "opus", "--continue"},
		"cli": {"codex", "resume", "--last"},
		"rev": {"claude"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after the key (-want +got):\n%s\nruns: %+v", diff, runs)
	}

	// The plain shell came back as a shell, at its prompt.
	shell := byID(ls, inDir["docs"])
	if len(shell.Cmdline) == 0 || filepath.Base(shell.Cmdline[0]) != "bash" {
		t.Errorf("the shell window runs %q, want bash", shell.Cmdline)
	}
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		w := byID(ls, inDir["docs"])
		return w != nil && atPrompt(w)
	}, 30*time.Second)

	// Saved again, the restored windows are what runs now: kitty saves the
	// prompt as their command, and rev is in a new conversation, not the one
	// it was restored from.
	env["KITTY_LISTEN_ON"] = k2.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k2.PID)
	saved, rows = save("again")
	wantRows["rev"] = row{plan.ModeLatest, []string{"claude", "--continue"}}
	if diff := cmp.Diff(wantRows, rows); diff != "" {
		t.Errorf("save again --json windows (-want +got):\n%s\n%+v", diff, saved)
	}

	// The typed claude ran from the shell's startup: when it exits, the
	// window is back at that shell's prompt.
	var typed kittytest.AgentRecord
	for _, r := range runs {
		if r.Env["KITTY_WINDOW_ID"] == strconv.Itoa(inDir["web"]) {
			typed = r
		}
	}
	if typed.PID == 0 {
		t.Fatalf("no run in web: %+v", runs)
	}
	if err := syscall.Kill(typed.PID, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		w := byID(ls, inDir["web"])
		return w != nil && atPrompt(w) && len(w.Cmdline) > 0 && filepath.Base(w.Cmdline[0]) == "bash"
	}, 30*time.Second)
	if n := len(agentRuns(log)); n != before+len(agentDirs) {
		t.Errorf("%d agent runs after the restore, want %d: %+v", n-before, len(agentDirs), agentRuns(log)[before:])
	}
}
