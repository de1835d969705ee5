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

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/uservars"
)

const danger = "--dangerously-skip-permissions"

// identityRig is TestRealForgedIdentity's first kitty, its windows and the
// scanner that journals them.
type identityRig struct {
	t        *testing.T
	k        *kittytest.Real
	log      *kittytest.AgentLog
	binDir   string
	dirs     map[string]string
	win      map[string]int
	env      map[string]string
	sc       *scanner.Scanner
	marker   string // the lines the node "gemini" script was run with
	geminiJS string // a #! node script named gemini, on the python window's PATH
	firstPID int    // the pid window's first claude, with danger
	kittyEnv map[string]string
	kittyBin string
}

// TestRealForgedIdentity does, on a real kitty 0.48.2, what printed text
// and a renamed process can do to which record a window gets, then saves
// (`sessions save`, and the quit capture's `sessions publish` on kitty's raw
// save, with the scanner's journal), stops kitty, restores the published
// file and presses Enter in each agent window:
//
//   - pid: the window's shell ran `claude --dangerously-skip-permissions`,
//     then plain `claude`; a printed SetUserVar names the first one's pid
//     (kittymux_pid). Its journal record is closed: it never gives the
//     window its flags.
//   - env: `FAKEAGENT_TYPED=1 claude --model opus` typed at a shell, then a
//     printed OSC 133;C;cmdline_url naming the window's own KITTY_WINDOW_ID,
//     KITTY_PID and KITTY_LISTEN_ON (the process holds them, inherited):
//     the restored agent has its new window's, and what was typed.
//   - python: `exec -a gemini python3 evil.py --yolo`, with a #! node
//     script named gemini first on PATH: not gemini, so no record of
//     kittymux's, and nothing kittymux wrote runs with --yolo.
func TestRealForgedIdentity(t *testing.T) {
	t.Parallel()
	r := newIdentityRig(t)
	r.journalAll()
	r.forge()

	// The save: nothing forged.
	code, out, errOut := kittymux(t, r.env, "sessions", "save", "work", "--all", "--json")
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
	r.checkRecords("sessions save", data)

	// The quit capture: kitty's raw save published offline against the
	// journal, as the quit watcher does.
	raw := filepath.Join(t.TempDir(), "raw.kitty-session")
	if err := r.k.Client.Action(t.Context(), "save_as_session --save-only --use-foreground-process "+raw); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = kittymux(t, r.env, "sessions", "publish", raw, "--stdout", "--kitty-pid", strconv.Itoa(r.k.PID))
	if code != 0 {
		t.Fatalf("publish: exit %d\n%s\n%s", code, out, errOut)
	}
	r.checkRecords("sessions publish", []byte(out))
	published := filepath.Join(t.TempDir(), "quit.kitty-session")
	if err := os.WriteFile(published, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	r.restore(published)
}

func newIdentityRig(t *testing.T) *identityRig {
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude")
	d := e2etest.WorkDirs(t, "pid", "env", "python")
	r := &identityRig{t: t, log: log, binDir: binDir, dirs: map[string]string{"pid": d[0], "env": d[1], "python": d[2]},
		win: map[string]int{}, kittyBin: kittyBin, marker: filepath.Join(t.TempDir(), "gemini-ran")}
	// A node agent's #! script, as npm installs one: whatever runs it
	// leaves a line.
	npm := filepath.Join(t.TempDir(), "npm-bin")
	r.geminiJS = filepath.Join(npm, "gemini")
	js := "#!/usr/bin/env node\nrequire('fs').appendFileSync(" + strconv.Quote(r.marker) +
		", JSON.stringify(process.argv.slice(2)) + '\\n');\nsetInterval(() => {}, 1 << 30);\n"
	if err := os.MkdirAll(npm, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.geminiJS, []byte(js), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dirs["python"], "evil.py"), []byte("import time\ntime.sleep(100000)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.k = kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env(), Kitty: kittyBin})
	r.win["pid"] = r.k.LaunchWith(kitty.LaunchOptions{Cwd: r.dirs["pid"]})
	r.win["env"] = r.k.LaunchWith(kitty.LaunchOptions{Cwd: r.dirs["env"]})
	r.typeAt("pid", "claude "+danger)
	r.typeAt("env", "FAKEAGENT_TYPED=1 claude --model opus")
	r.win["python"] = r.k.LaunchWith(kitty.LaunchOptions{Cwd: r.dirs["python"],
		Env:  []string{"PATH=" + npm + ":" + os.Getenv("PATH")},
		Args: []string{"bash", "-c", "exec -a gemini /usr/bin/python3 evil.py --yolo"}})
	r.k.WaitFor(func(ls []kitty.OSWindow) bool {
		w := windowOf(ls, r.win["python"])
		return w != nil && slices.ContainsFunc(w.ForegroundProcesses, func(p kitty.Process) bool {
			return slices.Equal(p.Cmdline, []string{"gemini", "evil.py", "--yolo"})
		})
	}, 30*time.Second)
	r.setupState()
	return r
}

// typeAt types line at the shell prompt of the window named name.
func (r *identityRig) typeAt(name, line string) {
	r.t.Helper()
	r.k.WaitFor(func(ls []kitty.OSWindow) bool { w := windowOf(ls, r.win[name]); return w != nil && atPrompt(w) }, 30*time.Second)
	if err := r.k.Client.SendText(r.t.Context(), "id:"+strconv.Itoa(r.win[name]), line+"\r"); err != nil {
		r.t.Fatal(err)
	}
}

func windowOf(ls []kitty.OSWindow, id int) *kitty.Window {
	for _, ref := range kitty.Windows(ls) {
		if ref.Window.ID == id {
			return ref.Window
		}
	}
	return nil
}

// setupState is kittymux's environment and state for the commands, and the
// scanner.
func (r *identityRig) setupState() {
	t := r.t
	env := realEnv(t, r.k)
	env["PATH"] = r.binDir + ":" + os.Getenv("PATH")
	env["KITTYMUX_RESUME_BIN"] = resumeBin(t)
	env["KITTY_LISTEN_ON"] = r.k.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(r.k.PID)
	// kittymux's state is where the restored kitty's prompts find it.
	env["XDG_STATE_HOME"] = filepath.Join(env["HOME"], "xdg-state")
	r.env = env
	state := testPaths(env)
	if err := statefile.EnsureState(state); err != nil {
		t.Fatal(err)
	}
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	inst := kitty.Instance{Addr: r.k.Addr, Socket: r.k.Addr.String(), PID: r.k.PID, Version: r.k.Version}
	r.sc = scanner.New(scanner.Options{Set: set, Journal: journal.New(state.Journal(), false),
		Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil },
		Records:  live.Records{ProcRoot: "/proc", Getenv: func(k string) string { return env[k] }},
		Logf:     t.Logf})
}

// runIn waits for a fake agent run in the window named name that want
// accepts.
func (r *identityRig) runIn(name string, want func(kittytest.AgentRecord) bool) kittytest.AgentRecord {
	r.t.Helper()
	bound := kittytest.NewBound(r.t, "a claude run in "+name, 30*time.Second)
	for {
		for _, run := range agentRuns(r.log) {
			if run.Cwd == r.dirs[name] && want(run) {
				return run
			}
		}
		if bound.Over() {
			r.t.Fatalf("%v: %+v", bound, agentRuns(r.log))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pollUntil runs scanner passes until done accepts one.
func (r *identityRig) pollUntil(what string, done func(scanner.Pass) bool) {
	r.t.Helper()
	bound := kittytest.NewBound(r.t, what, 30*time.Second)
	for {
		p, err := r.sc.Poll(r.t.Context())
		if err != nil {
			r.t.Fatal(err)
		}
		if done(p) {
			return
		}
		if bound.Over() {
			r.t.Fatalf("%v; the scanner's pass: %+v", bound, p)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// journalAll has the scanner journal the first claude of the pid window,
// then, once it ended, the plain one, and the env window's claude.
func (r *identityRig) journalAll() {
	isDanger := func(run kittytest.AgentRecord) bool { return slices.Contains(run.Args, danger) }
	first := r.runIn("pid", isDanger)
	r.runIn("env", func(kittytest.AgentRecord) bool { return true })
	r.pollUntil("the scanner to journal the first claude", func(p scanner.Pass) bool {
		return slices.ContainsFunc(p.Sessions, func(s journal.Record) bool {
			return s.WindowID == r.win["pid"] && s.PID == first.PID && slices.Contains(s.Argv, danger) && s.Start != ""
		}) && slices.ContainsFunc(p.Sessions, func(s journal.Record) bool { return s.WindowID == r.win["env"] })
	})
	if err := syscall.Kill(first.PID, syscall.SIGTERM); err != nil {
		r.t.Fatal(err)
	}
	r.typeAt("pid", "claude")
	r.runIn("pid", func(run kittytest.AgentRecord) bool { return !isDanger(run) })
	r.pollUntil("the scanner to close the first claude's record and open the plain one's", func(p scanner.Pass) bool {
		closed := slices.ContainsFunc(p.Closed, func(s journal.Record) bool { return s.PID == first.PID })
		open := slices.ContainsFunc(p.Sessions, func(s journal.Record) bool {
			return s.WindowID == r.win["pid"] && s.PID != first.PID && !slices.Contains(s.Argv, danger)
		})
		return closed && open
	})
	r.firstPID = first.PID
}

// forge prints into the windows what any program there can print.
func (r *identityRig) forge() {
	t := r.t
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	plain := r.runIn("pid", func(run kittytest.AgentRecord) bool { return !slices.Contains(run.Args, danger) })
	for k, v := range map[string]string{uservars.Agent: "claude", uservars.PID: strconv.Itoa(r.firstPID)} {
		writeTTY(t, plain.PID, "\x1b]1337;SetUserVar="+k+"="+b64(v)+"\a")
	}
	envRun := r.runIn("env", func(kittytest.AgentRecord) bool { return true })
	r.kittyEnv = envRun.Env
	line := "FAKEAGENT_TYPED=1 KITTY_WINDOW_ID=" + envRun.Env["KITTY_WINDOW_ID"] + " KITTY_PID=" + envRun.Env["KITTY_PID"] +
		" KITTY_LISTEN_ON=" + envRun.Env["KITTY_LISTEN_ON"] + " claude --model opus"
	writeTTY(t, envRun.PID, "\x1b]133;C;cmdline_url="+urlEncode(line)+"\a")
	r.k.WaitFor(func(ls []kitty.OSWindow) bool {
		p, e := windowOf(ls, r.win["pid"]), windowOf(ls, r.win["env"])
		return p != nil && p.UserVars[uservars.PID] == strconv.Itoa(r.firstPID) && e != nil && e.LastReportedCmdline == line
	}, 30*time.Second)
	// The scanner reads the windows as they are now: the python window is
	// no agent's, and no inherited variable is journalled.
	r.pollUntil("a pass after the printing", func(p scanner.Pass) bool {
		for _, s := range p.Sessions {
			if s.WindowID == r.win["python"] {
				t.Errorf("the scanner journals the python window as %s %q (exe %q)", s.Agent, s.Argv, s.Exe)
			}
			if s.WindowID == r.win["env"] && !slices.Equal(s.Env, []string{"FAKEAGENT_TYPED=1"}) {
				t.Errorf("the env window's record keeps %q, want only what was typed", s.Env)
			}
		}
		return true
	})
}

// urlEncode encodes s as a cmdline_url: every byte but letters, digits and
// -_./ as %XX.
func urlEncode(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_./", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
	}
	return b.String()
}

// checkRecords checks the restore records of a published session file: the
// pid and env windows are sealed, with no forged flag or variable; the
// python window has none.
func (r *identityRig) checkRecords(what string, data []byte) {
	t := r.t
	t.Logf("%s:\n%s", what, data)
	key, err := resumerecord.ReadKey(testPaths(r.env).ResumeKey())
	if err != nil {
		t.Fatal(err)
	}
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	found := map[string]bool{}
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		argv := l.Argv
		if c := l.Unserialize.CmdAtShellStartup; c.Set && c.IsList {
			argv = c.List
		}
		if len(argv) == 0 || argv[0] != r.env["KITTYMUX_RESUME_BIN"] {
			continue
		}
		rec, err := resumerecord.ParseArgs(argv[1:])
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for name, dir := range r.dirs {
			if ref.Cwd == dir {
				found[name] = true
			}
		}
		switch {
		case slices.Contains(rec.Argv, danger) || slices.Contains(rec.Argv, "--yolo") || rec.Agent == "gemini":
			t.Errorf("%s wrote a forged command: %+v", what, rec)
		case slices.ContainsFunc(rec.Env, func(kv string) bool { return strings.HasPrefix(kv, "KITTY") }):
			t.Errorf("%s sealed the window's own variables: %+v", what, rec)
		case ref.Cwd == r.dirs["python"]:
			t.Errorf("%s wrote a record for the python window: %+v", what, rec)
		case rec.Verify(key) != nil:
			t.Errorf("%s: the record in %s is not sealed: %+v", what, ref.Cwd, rec)
		case ref.Cwd == r.dirs["env"] && !slices.Equal(rec.Env, []string{"FAKEAGENT_TYPED=1"}):
			t.Errorf("%s: the env window's record sets %q, want what was typed", what, rec.Env)
		}
	}
	if !found["pid"] || !found["env"] {
		t.Errorf("%s: records for %v, want the pid and env windows", what, found)
	}
}

// restore stops the first kitty, starts a new one on published, presses
// Enter at the pid and env windows' prompts, and checks what ran.
func (r *identityRig) restore(published string) {
	t := r.t
	firstRuns := agentRuns(r.log)
	r.k.Stop()
	for _, run := range firstRuns {
		for gone := kittytest.NewBound(t, "the first kitty's agents to end", 10*time.Second); syscall.Kill(run.PID, 0) == nil && !gone.Over(); {
			time.Sleep(50 * time.Millisecond)
		}
	}
	before := len(firstRuns)
	path := filepath.Dir(r.geminiJS) + ":" + r.binDir + ":" + os.Getenv("PATH")
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Env: append(r.log.Env(), "XDG_STATE_HOME="+r.env["XDG_STATE_HOME"], "PATH="+path),
		Kitty: r.kittyBin, Session: published})
	inDir := map[string]int{}
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		clear(inDir)
		for _, ref := range kitty.Windows(ls) {
			for _, name := range []string{"pid", "env"} {
				if ref.Window.Cwd == r.dirs[name] {
					inDir[name] = ref.Window.ID
				}
			}
		}
		return len(inDir) == 2
	}, 30*time.Second)
	for name, id := range inDir {
		text := k2.WaitForText("id:"+strconv.Itoa(id), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
		if strings.Contains(text, "edited") || strings.Contains(text, "unconfirmed") {
			t.Errorf("the prompt in %s shows its record as not sealed:\n%s", name, text)
		}
		if err := k2.Client.SendText(t.Context(), "id:"+strconv.Itoa(id), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	waitRuns(t, r.log, before+2, 30*time.Second)
	time.Sleep(time.Second) // anything that would run twice has had time to
	r.checkRuns(agentRuns(r.log)[before:], inDir, k2)
}

// checkRuns checks the agents the restored kitty ran.
func (r *identityRig) checkRuns(runs []kittytest.AgentRecord, inDir map[string]int, k2 *kittytest.Real) {
	t := r.t
	if len(runs) != 2 {
		t.Errorf("%d runs after Enter, want 2: %+v", len(runs), runs)
	}
	for _, run := range runs {
		if slices.Contains(run.Args, danger) {
			t.Errorf("%s ran %q", run.Cwd, argvOf(run))
		}
		if run.Cwd != r.dirs["env"] {
			continue
		}
		if !slices.Contains(run.Args, "opus") || run.Env["FAKEAGENT_TYPED"] != "1" {
			t.Errorf("the env window ran %q with FAKEAGENT_TYPED=%q, want --model opus and what was typed", argvOf(run), run.Env["FAKEAGENT_TYPED"])
		}
		want := map[string]string{"KITTY_WINDOW_ID": strconv.Itoa(inDir["env"]), "KITTY_PID": strconv.Itoa(k2.PID)}
		for k, v := range want {
			if run.Env[k] != v {
				t.Errorf("the env window's agent ran with %s=%s, want its new window's %s (the first kitty's was %s)", k, run.Env[k], v, r.kittyEnv[k])
			}
		}
		if run.Env["KITTY_LISTEN_ON"] == r.kittyEnv["KITTY_LISTEN_ON"] {
			t.Errorf("the env window's agent ran with the first kitty's socket %s", run.Env["KITTY_LISTEN_ON"])
		}
	}
	// kitty's own line for the python window runs what its process showed
	// (evil.py with it); nothing kittymux wrote runs gemini.
	b, _ := os.ReadFile(r.marker)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l != "" && !strings.Contains(l, "evil.py") {
			t.Errorf("gemini ran as kittymux wrote it: %s", l)
		}
	}
}
