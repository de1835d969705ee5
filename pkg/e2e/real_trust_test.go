//go:build linux

package e2e_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/list"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// writeTTY writes text to the terminal of process pid, as any program
// running in (or printing into) that kitty window can: a `cat` of a file in
// a cloned repository is enough.
func writeTTY(t *testing.T, pid int, text string) {
	t.Helper()
	f, err := os.OpenFile("/proc/"+strconv.Itoa(pid)+"/fd/1", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestRealForgedText does, on a real kitty 0.48.2, what a hostile
// repository can do to a window running claude, then saves, stops kitty,
// restores and presses Enter in each window:
//
//   - url: a printed shell-integration code (OSC 133;C;cmdline_url=) makes
//     kitty report <repo>/node_modules/.bin/claude
//     --dangerously-skip-permissions as the window's command line;
//   - env: the same with NODE_OPTIONS=… BASH_ENV=… claude;
//   - child: a process whose argv reads /repo/tools/claude
//     --dangerously-skip-permissions --mcp-config x, started by the agent
//     (its child, as a tool it runs would be);
//   - beside: the same process started by the window's shell beside the agent;
//   - vars: forged user vars (OSC 1337 SetUserVar) naming another
//     conversation with the real claude's pid, checked through `sessions
//     list`, the quit capture's `sessions publish` on kitty's raw save (with
//     the scanner's journal), and `sessions save`.
//
// Every save succeeds; every record is sealed (no prompt shows "edited");
// after Enter each fake agent runs with the flags its process had, no
// forged flag, variable or id reaches it, and nothing from the repository
// runs.
func TestRealForgedText(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude")
	resumeProg := resumeBin(t)
	d := e2etest.WorkDirs(t, "url", "env", "child", "beside", "vars")
	dirs := map[string]string{"url": d[0], "env": d[1], "child": d[2], "beside": d[3], "vars": d[4]}
	const (
		realID   = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73" // the vars window's conversation
		forgedID = "0a1b2c3d-0000-4000-8000-000000000000" // the one its forged user vars name
		danger   = "--dangerously-skip-permissions"
	)
	// The repository's own programs: whatever runs one leaves a mark.
	marker := filepath.Join(t.TempDir(), "forged-ran")
	script := "#!/bin/sh\necho \"$0 $*\" >> " + marker + "\nexec sleep 1000\n"
	for _, dir := range d {
		for _, rel := range []string{"node_modules/.bin/claude", "tools/claude"} {
			p := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	claudeDir := filepath.Join(t.TempDir(), "claude-config")
	k1 := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), "CLAUDE_CONFIG_DIR="+claudeDir), Kitty: kittyBin})
	ctx := t.Context()
	byID := func(ls []kitty.OSWindow, id int) *kitty.Window {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == id {
				return r.Window
			}
		}
		return nil
	}
	win := map[string]int{}
	runIn := func(name string) kittytest.AgentRecord {
		t.Helper()
		bound := kittytest.NewBound(t, "a claude run in "+name, 30*time.Second)
		for {
			for _, r := range agentRuns(log) {
				if r.Cwd == dirs[name] {
					return r
				}
			}
			if bound.Over() {
				t.Fatalf("%v: %+v", bound, agentRuns(log))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// url and env: claude typed at a shell with shell integration.
	for _, name := range []string{"url", "env"} {
		win[name] = k1.LaunchWith(kitty.LaunchOptions{Cwd: dirs[name]})
		k1.WaitFor(func(ls []kitty.OSWindow) bool { w := byID(ls, win[name]); return w != nil && atPrompt(w) }, 30*time.Second)
		typed := map[string]string{"url": "claude --model opus", "env": "claude"}[name]
		if err := k1.Client.SendText(ctx, "id:"+strconv.Itoa(win[name]), typed+"\r"); err != nil {
			t.Fatal(err)
		}
	}
	// child: the agent started the forged process (sh execs into claude).
	forgedArgv := func(dir string) string {
		return "exec -a " + filepath.Join(dir, "tools", "claude") + " bash -c 'sleep 1000; :' x " + danger + " --mcp-config x"
	}
	win["child"] = k1.LaunchWith(kitty.LaunchOptions{Cwd: dirs["child"], Args: []string{"bash", "-c",
		"(" + forgedArgv(dirs["child"]) + ") & exec " + filepath.Join(binDir, "claude") + " --model opus"}})
	// beside: the window's shell started both.
	win["beside"] = k1.LaunchWith(kitty.LaunchOptions{Cwd: dirs["beside"], Args: []string{"bash", "-c",
		"(" + forgedArgv(dirs["beside"]) + ") & " + filepath.Join(binDir, "claude") + " --model opus; wait"}})
	// vars: a claude in its conversation, as its record says.
	win["vars"] = k1.LaunchWith(kitty.LaunchOptions{Cwd: dirs["vars"], Args: []string{filepath.Join(binDir, "claude"), "--model", "opus"},
		Env: []string{"FAKEAGENT_CLAUDE_SESSION=" + realID}})
	pids := map[string]int{}
	for name := range dirs {
		pids[name] = runIn(name).PID
	}

	// The escape codes, printed into the windows' terminals.
	forged := map[string]string{
		"url": filepath.Join(dirs["url"], "node_modules/.bin/claude") + " " + danger,
		"env": "NODE_OPTIONS=--require=" + filepath.Join(dirs["env"], "x.js") + " BASH_ENV=" + filepath.Join(dirs["env"], "x") + " claude",
	}
	for name, line := range forged {
		enc := strings.NewReplacer("%", "%25", " ", "%20", "=", "%3D").Replace(line)
		writeTTY(t, pids[name], "\x1b]133;C;cmdline_url="+enc+"\a")
	}
	k1.WaitFor(func(ls []kitty.OSWindow) bool {
		for name, line := range forged {
			if w := byID(ls, win[name]); w == nil || w.LastReportedCmdline != line {
				return false
			}
		}
		return true
	}, 30*time.Second)
	// The forged processes run in their windows' foreground.
	k1.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, name := range []string{"child", "beside"} {
			w := byID(ls, win[name])
			if w == nil || !slices.ContainsFunc(w.ForegroundProcesses, func(p kitty.Process) bool {
				return len(p.Cmdline) > 0 && strings.HasSuffix(p.Cmdline[0], "/tools/claude") && slices.Contains(p.Cmdline, danger)
			}) {
				return false
			}
		}
		return true
	}, 30*time.Second)

	env := realEnv(t, k1)
	env["PATH"] = binDir + ":" + os.Getenv("PATH")
	env["KITTYMUX_RESUME_BIN"] = resumeProg
	env["KITTY_LISTEN_ON"] = k1.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k1.PID)
	env["CLAUDE_CONFIG_DIR"] = claudeDir
	// kittymux's state is where the restored kitty's prompts find it
	// ($XDG_STATE_HOME/kittymux): a link between two would be refused.
	xdgState := filepath.Join(env["HOME"], "xdg-state")
	env["XDG_STATE_HOME"] = xdgState
	state := testPaths(env)
	if err := statefile.EnsureState(state); err != nil {
		t.Fatal(err)
	}

	// The scanner sees every agent window and journals it (and marks the
	// vars window with its real conversation).
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	inst := kitty.Instance{Addr: k1.Addr, Socket: k1.Addr.String(), PID: k1.PID, Version: k1.Version}
	sc := scanner.New(scanner.Options{Set: set, Journal: journal.New(state.Journal(), false),
		Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil },
		Records:  live.Records{ProcRoot: "/proc", Getenv: func(k string) string { return env[k] }},
		Logf:     t.Logf})
	bound := kittytest.NewBound(t, "the scanner's pass to hold every window's id", 30*time.Second)
	for {
		p, err := sc.Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int]string{}
		for _, s := range p.Sessions {
			ids[s.WindowID] = s.ID
		}
		if len(p.Sessions) == len(dirs) && ids[win["vars"]] == realID {
			for _, s := range p.Sessions {
				if slices.Contains(s.Argv, danger) || len(s.Exe) == 0 || len(s.Env) != 0 {
					t.Errorf("journal record of window %d: argv %q exe %q env %q", s.WindowID, s.Argv, s.Exe, s.Env)
				}
			}
			break
		}
		if bound.Over() {
			t.Fatalf("%v; the scanner's pass: %+v", bound, p)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// vars: another conversation, with the real claude's pid.
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for k, v := range map[string]string{uservars.Agent: "claude", uservars.Session: forgedID, uservars.PID: strconv.Itoa(pids["vars"])} {
		writeTTY(t, pids["vars"], "\x1b]1337;SetUserVar="+k+"="+b64(v)+"\a")
	}
	k1.WaitFor(func(ls []kitty.OSWindow) bool {
		w := byID(ls, win["vars"])
		return w != nil && w.UserVars[uservars.Session] == forgedID
	}, 30*time.Second)

	// sessions list never shows the forged id.
	code, out, errOut := kittymux(t, env, "sessions", "list", "--json")
	if code != 0 {
		t.Fatalf("list: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, forgedID) || strings.Contains(out, danger) || strings.Contains(out, "NODE_OPTIONS") {
		t.Errorf("sessions list shows what was forged:\n%s", out)
	}
	var listed struct{ Windows []list.ListedWindow }
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatal(err)
	}
	for _, w := range listed.Windows {
		if w.WindowID == win["vars"] && (w.Mode != plan.ModeExact || w.ID != realID) {
			t.Errorf("list: the vars window is %s %q from %q, want exact %s", w.Mode, w.ID, w.IDSource, realID)
		}
	}

	// The quit capture: kitty's raw save, published offline against the
	// journal (of that kitty's windows, as the quit watcher passes it).
	// Each record is the command the journal saw run, sealed; the forged id
	// is neither used nor carried.
	raw := filepath.Join(t.TempDir(), "raw.kitty-session")
	if err := k1.Client.Action(ctx, "save_as_session --save-only --use-foreground-process "+raw); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = kittymux(t, env, "sessions", "publish", raw, "--stdout", "--kitty-pid", strconv.Itoa(k1.PID))
	if code != 0 {
		t.Fatalf("publish: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, forgedID) {
		t.Errorf("publish carried the forged id:\n%s", out)
	}
	key, err := resumerecord.ReadKey(state.ResumeKey())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := sessionfile.Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range pub.Windows() {
		l := ref.Line.Launch
		argv := l.Argv
		if c := l.Unserialize.CmdAtShellStartup; c.Set && c.IsList {
			argv = c.List
		}
		if len(argv) == 0 || argv[0] != resumeProg {
			continue
		}
		rec, err := resumerecord.ParseArgs(argv[1:])
		if err != nil {
			t.Fatal(err)
		}
		named := slices.Contains(rec.Argv, danger) || slices.ContainsFunc(rec.Env, func(kv string) bool { return strings.Contains(kv, "x.js") }) ||
			slices.ContainsFunc(rec.Argv, func(w string) bool { return strings.Contains(w, "/tools/") || strings.Contains(w, "node_modules") })
		if named {
			t.Errorf("publish wrote a forged command: %+v", rec)
		}
		// Every window's record is the journal's, sealed.
		if rec.Verify(key) != nil {
			t.Errorf("publish: the record in %s is not sealed: %+v", ref.Cwd, rec)
		}
		// The journal names the command that ran; the var names another id
		// than the journal's, so no id is taken from it.
		if ref.Cwd == dirs["vars"] && (rec.Mode == "exact" || rec.Verify(key) != nil) {
			t.Errorf("publish: the vars window is %+v, want sealed and not exact", rec)
		}
	}

	// The save: every one succeeds, and holds nothing forged.
	code, out, errOut = kittymux(t, env, "sessions", "save", "work", "--all", "--json")
	if code != 0 {
		t.Fatalf("save: exit %d\n%s\n%s", code, out, errOut)
	}
	var saved shared.SaveResult
	if err := json.Unmarshal([]byte(out), &saved); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	data, err := os.ReadFile(saved.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("published session:\n%s", data)
	for _, bad := range []string{forgedID, "NODE_OPTIONS", "BASH_ENV", "/tools/claude", "node_modules"} {
		if strings.Contains(string(data), bad) {
			t.Errorf("the save holds %q", bad)
		}
	}
	if len(saved.Windows) != len(dirs) {
		t.Errorf("saved %d agent windows, want %d: %+v", len(saved.Windows), len(dirs), saved.Windows)
	}
	k1.Stop()
	// Its agents end on the hangup; until they have, each still holds its
	// conversation's lease, and a restored window rightly says it is open
	// elsewhere (on a loaded machine they can take seconds).
	for _, r := range agentRuns(log) {
		for gone := kittytest.NewBound(t, "the first kitty's agents to end", 10*time.Second); syscall.Kill(r.PID, 0) == nil && !gone.Over(); {
			time.Sleep(50 * time.Millisecond)
		}
	}

	// A new kitty on the published file, with the same state (the key).
	before := len(agentRuns(log))
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), "XDG_STATE_HOME="+xdgState, "CLAUDE_CONFIG_DIR="+claudeDir),
		Kitty: kittyBin, Session: saved.Path})
	inDir := map[string]int{}
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		clear(inDir)
		for _, r := range kitty.Windows(ls) {
			for name, dir := range dirs {
				if r.Window.Cwd == dir {
					inDir[name] = r.Window.ID
				}
			}
		}
		return len(inDir) == len(dirs)
	}, 30*time.Second)
	for name, id := range inDir {
		text := k2.WaitForText("id:"+strconv.Itoa(id), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
		if strings.Contains(text, "edited") {
			t.Errorf("the prompt in %s shows the record the save sealed as edited:\n%s", name, text)
		}
		if err := k2.Client.SendText(ctx, "id:"+strconv.Itoa(id), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	waitRuns(t, log, before+len(dirs), 30*time.Second)
	time.Sleep(time.Second) // anything that would run twice has had time to
	runs := agentRuns(log)[before:]
	got := map[string][]string{}
	for _, r := range runs {
		for name, id := range inDir {
			if strconv.Itoa(id) == r.Env["KITTY_WINDOW_ID"] {
				got[name] = argvOf(r)
			}
		}
		if v, ok := r.Env["NODE_OPTIONS"]; ok {
			t.Errorf("%s ran with NODE_OPTIONS=%s", r.Cwd, v)
		}
		if v, ok := r.Env["BASH_ENV"]; ok {
			t.Errorf("%s ran with BASH_ENV=%s", r.Cwd, v)
		}
	}
	want := map[string][]string{
		"url":    {"claude", "--model", "opus", "--continue"},
		"env":    {"claude", "--continue"},
		"child":  {"claude", "--model", "opus", "--continue"},
		"beside": {"claude", "--model", "opus", "--continue"},
		"vars":   {"claude", "--model", "opus", "--resume", realID},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s\nruns: %+v", diff, runs)
	}
	if len(runs) != len(dirs) {
		t.Errorf("%d runs after Enter, want %d: %+v", len(runs), len(dirs), runs)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("a program of the repository ran:\n%s", b)
	}
}
