//go:build linux

package e2e_test

import (
	"context"
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

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	recoverCmd "github.com/kittymux/kittymux/pkg/cmd/sessions/recover"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// sharedState is the XDG_STATE_HOME=... for a kitty whose windows' restore
// prompts share kittymux's state under home: sharedPaths(home).
func sharedState(t *testing.T, home string) string {
	t.Helper()
	xdgState := filepath.Join(home, "xdg-state")
	if err := os.MkdirAll(xdgState, 0o700); err != nil {
		t.Fatal(err)
	}
	return "XDG_STATE_HOME=" + xdgState
}

// sharedPaths is kittymux's state under home as sharedState's kitty finds
// it: $XDG_STATE_HOME/kittymux.
func sharedPaths(home string) paths.Paths {
	return testPaths(map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "xdg-state")})
}

// answerPrompts waits for the restore prompt in each window of k whose
// directory is in dirs, presses Enter in each, and returns what each fake
// agent then ran, by directory name.
func answerPrompts(t *testing.T, k *kittytest.Real, log *kittytest.AgentLog, dirs []string) map[string][]string {
	t.Helper()
	inDir := map[string]int{}
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		clear(inDir)
		for _, r := range kitty.Windows(ls) {
			if slices.Contains(dirs, r.Window.Cwd) {
				inDir[filepath.Base(r.Window.Cwd)] = r.Window.ID
			}
		}
		return len(inDir) == len(dirs)
	}, 30*time.Second)
	before := len(agentRuns(log))
	for _, id := range inDir {
		text := k.WaitForText("id:"+strconv.Itoa(id), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
		if strings.Contains(text, "edited") {
			t.Errorf("window %d shows its sealed record as edited:\n%s", id, text)
		}
	}
	if n := len(agentRuns(log)); n != before {
		t.Fatalf("%d agents ran before any key was pressed: %+v", n-before, agentRuns(log)[before:])
	}
	for _, id := range inDir {
		if err := k.Client.SendText(t.Context(), "id:"+strconv.Itoa(id), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	waitRuns(t, log, before+len(dirs), 30*time.Second)
	time.Sleep(kittytest.Scaled(500 * time.Millisecond)) // anything that would run twice has had time to
	got := map[string][]string{}
	for _, r := range agentRuns(log)[before:] {
		for name, id := range inDir {
			if strconv.Itoa(id) == r.Env["KITTY_WINDOW_ID"] {
				if _, dup := got[name]; dup {
					t.Errorf("window in %s ran a second agent: %q", name, argvOf(r))
				}
				got[name] = argvOf(r)
			}
		}
	}
	return got
}

// TestRealRecover runs recover where it matters most, on kitty 0.26.5 (kitty
// on PATH), which cannot save: fake agents on known ids in four windows of
// one kitty and one of another, the scanner running; one window closed by
// hand, then the first kitty killed. `sessions recover --since 1h` opens a
// new kitty with a tab per conversation that ended with its kitty, and
// Enter in each prompt makes the fake agents run exactly their resume argv.
// The conversation still open in the other kitty is not recovered; the one
// closed by hand only with --closed.
func TestRealRecover(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, log := kittytest.FakeAgents(t, "claude", "codex")
	resume := resumeBin(t)
	d := e2etest.WorkDirs(t, "api", "web", "cli", "docs", "other")
	api, web, cli, docs, other := d[0], d[1], d[2], d[3], d[4]
	// Ids no other test uses: recover asks every kitty of the user whether a
	// conversation still runs, and the real tests run in parallel.
	const (
		idAPI   = "3c6e1f0a-2b4d-4e8f-9a1c-5d7e3f2a1b0c"
		idWeb   = "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"
		idCLI   = "0199b000-81c0-7800-8aa1-bbab2a035a54"
		idDocs  = "0a1b2c3d-0000-4000-8000-000000000000"
		idOther = "7d3f1c2e-9a8b-4c5d-8e6f-0a1b2c3d4e5f"
	)
	claude, codex := filepath.Join(binDir, "claude"), filepath.Join(binDir, "codex")

	k1 := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env()})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{claude, "--resume", idAPI, "--model", "sonnet"}, Cwd: api})
	k1.LaunchWith(kitty.LaunchOptions{Type: "tab", TabTitle: "web work", Args: []string{claude, "--resume", idWeb}, Cwd: web})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{codex, "resume", idCLI}, Cwd: cli})
	docsWin := k1.LaunchWith(kitty.LaunchOptions{Args: []string{claude, "--resume", idDocs}, Cwd: docs})
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env()})
	k2.LaunchWith(kitty.LaunchOptions{Args: []string{claude, "--resume", idOther}, Cwd: other})
	waitRuns(t, log, 5, 30*time.Second)

	home := t.TempDir()
	env := map[string]string{"HOME": home, "PATH": binDir + ":" + os.Getenv("PATH"), "KITTYMUX_RESUME_BIN": resume}
	insts := []kitty.Instance{
		{Addr: k1.Addr, Socket: k1.Addr.String(), PID: k1.PID, Version: k1.Version, Source: "kitty.conf listen_on"},
		{Addr: k2.Addr, Socket: k2.Addr.String(), PID: k2.PID, Version: k2.Version, Source: "kitty.conf listen_on"},
	}
	newFactory := func(out, errOut *kittytest.Buffer) *factory.Factory {
		f := factorytest.Writing(t, out, errOut)
		f.Getenv = func(k string) string { return env[k] }
		f.Paths = sharedPaths(home)
		// Only this test's kitties: other tests' run beside it.
		f.Discover = func(context.Context) ([]kitty.Instance, error) { return slices.Clone(insts), nil }
		return f
	}
	scanLog := &kittytest.Buffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(ctx, cmdscanner.RunOptions{Interval: 200 * time.Millisecond,
			Rescan: time.Second, Signals: []os.Signal{syscall.SIGUSR2}}.From(newFactory(&kittytest.Buffer{}, scanLog)))
	}()
	stopped := false
	stopScanner := func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stopScanner)
	j := journal.New(sharedPaths(home).Journal(), false)
	waitJournal := func(what string, cond func(map[string]journal.Record) bool) {
		t.Helper()
		bound := kittytest.NewBound(t, what+" in the journal", 30*time.Second)
		for {
			byDir := map[string]journal.Record{}
			if jf, err := j.Read(); err == nil {
				for _, r := range jf.Records {
					byDir[filepath.Base(r.Dir)] = r
				}
			}
			if cond(byDir) {
				return
			}
			if bound.Over() {
				t.Fatalf("%v: %+v\nscanner log:\n%s", bound, byDir, scanLog)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitJournal("five conversations", func(r map[string]journal.Record) bool {
		return r["api"].ID == idAPI && r["web"].ID == idWeb && r["cli"].ID == idCLI && r["docs"].ID == idDocs && r["other"].ID == idOther
	})
	if err := k1.Client.CloseWindow(t.Context(), fmt.Sprintf("id:%d", docsWin)); err != nil {
		t.Fatal(err)
	}
	waitJournal("docs closed by hand", func(r map[string]journal.Record) bool { return r["docs"].CloseReason == journal.ClosedWindow })
	if err := syscall.Kill(k1.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	log.WaitExited(t, k1.PID, 20*time.Second)
	waitJournal("the first kitty gone", func(r map[string]journal.Record) bool {
		return r["api"].CloseReason == journal.ClosedKittyGone && r["web"].CloseReason == journal.ClosedKittyGone &&
			r["cli"].CloseReason == journal.ClosedKittyGone && r["other"].Open
	})
	stopScanner()

	// --dry-run --closed: docs too; other never.
	out, errOut := &kittytest.Buffer{}, &kittytest.Buffer{}
	if err := recoverCmd.Recover(t.Context(), recoverCmd.RecoverOptions{Since: time.Hour, DryRun: true,
		Closed: true, JSON: true, Name: "rec"}.From(newFactory(out, errOut))); err != nil {
		t.Fatalf("recover --dry-run --closed: %v\n%s", err, errOut)
	}
	var dry recoverCmd.RecoverResult
	if err := json.Unmarshal([]byte(out.String()), &dry); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var dryDirs []string
	for _, tab := range dry.Tabs {
		dryDirs = append(dryDirs, filepath.Base(tab.Dir))
	}
	if diff := cmp.Diff([]string{"api", "web", "cli", "docs"}, dryDirs); diff != "" {
		t.Errorf("recover --closed --dry-run tabs (-want +got):\n%s\n%s", diff, out)
	}
	if _, err := os.Stat(sharedPaths(home).Session("rec")); err == nil {
		t.Error("--dry-run wrote the session")
	}

	// The real thing: a new kitty 0.26.5 on the file.
	k3Env := append(log.Env(), sharedState(t, home))
	var k3 *kittytest.Real
	out, errOut = &kittytest.Buffer{}, &kittytest.Buffer{}
	err := recoverCmd.Recover(t.Context(), recoverCmd.RecoverOptions{Since: time.Hour, Name: "rec",
		StartKitty: func(kittyPath, session string) error {
			k3 = kittytest.StartReal(t, kittytest.RealOptions{Env: k3Env, Session: session})
			return nil
		}}.From(newFactory(out, errOut)))
	if err != nil || k3 == nil {
		t.Fatalf("recover: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("recover:\n%s", out)
	data, _ := os.ReadFile(sharedPaths(home).Session("rec"))
	t.Logf("recovered session:\n%s", data)
	if want := "not recovered: claude 7d3f1c2e in " + other + ": it runs in window"; !strings.Contains(out.String(), want) {
		t.Errorf("recover's output lacks %q:\n%s", want, out)
	}
	// A poll between the agent's hangup and its window's close (a busy
	// machine) records the agent exiting first: left out either way.
	closed := "not recovered: claude 0a1b2c3d in " + docs + ": "
	if !strings.Contains(out.String(), closed+"its window was closed (--closed recovers it)") &&
		!strings.Contains(out.String(), closed+"the agent exited (--closed recovers it)") {
		t.Errorf("recover's output lacks %q and the agent exited:\n%s", closed+"its window was closed", out)
	}
	got := answerPrompts(t, k3, log, []string{api, web, cli})
	want := map[string][]string{
		"api": {"claude", "--model", "sonnet", "--resume", idAPI},
		"web": {"claude", "--resume", idWeb},
		"cli": {"codex", "resume", idCLI},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
	// A tab each, named after the old tab or the directory, and nothing else.
	var tabs []string
	for _, o := range k3.LS() {
		for _, tab := range o.Tabs {
			tabs = append(tabs, tab.Title)
			if len(tab.Windows) != 1 {
				t.Errorf("tab %q has %d windows", tab.Title, len(tab.Windows))
			}
		}
	}
	// api's tab was never named: kitty showed its window's title, the
	// agent's name, so the directory names it now.
	slices.Sort(tabs)
	if diff := cmp.Diff([]string{"api", "web work", "web work"}, tabs); diff != "" {
		t.Errorf("tabs (-want +got):\n%s", diff)
	}
}

// TestRealRecoverGotoSession: inside a kitty 0.43 or newer ($KITTYMUX_KITTY),
// recover loads its file with goto_session: the windows join that kitty in
// a session named after the file, and Enter in each prompt resumes exactly.
func TestRealRecoverGotoSession(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude", "codex")
	resume := resumeBin(t)
	d := e2etest.WorkDirs(t, "api", "cli")
	api, cli, work := d[0], d[1], filepath.Dir(d[0])
	// An id no other test uses: recover asks every kitty of the user whether
	// a conversation still runs, and the real tests run in parallel.
	const idAPI = "6a2f0c1e-3d4b-4c5a-9e8f-7b6a5c4d3e2f"
	home := t.TempDir()
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), sharedState(t, home)), Kitty: kittyBin})

	// A kitty that went away left these in the journal, as the scanner
	// writes them: with the file each agent process ran.
	now := time.Now()
	gone := func(key, agent, id, dir string, argv ...string) journal.Record {
		closed := now.Add(-10 * time.Minute)
		return journal.Record{Key: key, Agent: agent, ID: id, Dir: dir, Argv: argv, Exe: argv[:1], FirstSeen: now.Add(-time.Hour),
			LastSeen: closed, State: agents.StateIdle, ClosedAt: &closed, CloseReason: journal.ClosedKittyGone,
			KittySocket: "unix:" + filepath.Join(work, "gone"), KittyPID: 1, WindowID: len(key)}
	}
	j := journal.New(sharedPaths(home).Journal(), false)
	if _, err := j.Update(func(f *journal.File) error {
		f.Records = []journal.Record{
			gone("a", "claude", idAPI, api, filepath.Join(binDir, "claude"), "--model", "opus"),
			gone("bb", "codex", "", cli, filepath.Join(binDir, "codex")),
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PATH": binDir + ":" + os.Getenv("PATH"), "KITTYMUX_RESUME_BIN": resume,
		"KITTY_LISTEN_ON": k.Addr.String(), "KITTY_PID": strconv.Itoa(k.PID), "XDG_STATE_HOME": filepath.Join(home, "xdg-state")}
	code, out, errOut := kittymux(t, env, "sessions", "recover", "--since", "1h", "--name", "rec")
	if code != 0 || !strings.Contains(out, "recovered 2 conversation(s) as rec") || !strings.Contains(out, "opened in the kitty at "+k.Addr.String()) {
		t.Fatalf("recover: exit %d\n%s\n%s", code, out, errOut)
	}
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		n := 0
		for _, r := range kitty.Windows(ls) {
			if r.Window.SessionName == "rec" {
				n++
			}
		}
		return n == 2
	}, 30*time.Second)
	got := answerPrompts(t, k, log, []string{api, cli})
	want := map[string][]string{
		"api": {"claude", "--model", "opus", "--resume", idAPI},
		"cli": {"codex", "resume", "--last"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
}

// TestRealRecoverQuoting: on Debian's kitty 0.26.5, whose Python shlex keeps
// the backslash that double quotes put before '`' and '$', recover writes
// only what it and 0.48.2 read alike. A tab titled with a quote, backticks,
// '$' and a backslash, in a directory with a backtick and a backslash,
// loads; its record is not edited there, and Enter resumes the
// conversation. A directory with '$' (kitty 0.43+ expands it) or with both
// a quote and a backtick is not recovered, and recover says why.
func TestRealRecoverQuoting(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, log := kittytest.FakeAgents(t, "claude")
	resume := resumeBin(t)
	d := e2etest.WorkDirs(t, "a`b\\c", "d$HOME", "it's `x`")
	odd, dollar, quoted := d[0], d[1], d[2]
	const (
		id       = "2e4f6a8c-1b3d-4f5e-9a7b-6c5d4e3f2a1b"
		idDollar = "3f5a7b9d-2c4e-4a6f-8b8c-7d6e5f4a3b2c"
		idQuoted = "4a6b8c0e-3d5f-4b7a-9c9d-8e7f6a5b4c3d"
	)
	home := t.TempDir()
	now := time.Now()
	gone := func(key, id, dir, title string) journal.Record {
		closed := now.Add(-10 * time.Minute)
		return journal.Record{Key: key, Agent: "claude", ID: id, Dir: dir, TabTitle: title,
			Argv: []string{filepath.Join(binDir, "claude"), "--model", "opus"}, Exe: []string{filepath.Join(binDir, "claude")}, FirstSeen: now.Add(-time.Hour),
			LastSeen: closed, State: agents.StateIdle, ClosedAt: &closed, CloseReason: journal.ClosedKittyGone,
			KittySocket: "unix:" + filepath.Join(home, "gone"), KittyPID: 1, WindowID: len(key)}
	}
	p := sharedPaths(home)
	if _, err := journal.New(p.Journal(), false).Update(func(f *journal.File) error {
		f.Records = []journal.Record{
			gone("a", id, odd, "it's `x` $y \\ \"z\""),
			gone("bb", idDollar, dollar, "dollar"),
			gone("ccc", idQuoted, quoted, "quoted"),
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PATH": binDir + ":" + os.Getenv("PATH"), "KITTYMUX_RESUME_BIN": resume}
	out, errOut := &kittytest.Buffer{}, &kittytest.Buffer{}
	f := factorytest.Writing(t, out, errOut)
	f.Getenv = func(k string) string { return env[k] }
	f.Paths = p
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return nil, nil }
	var k *kittytest.Real
	err := recoverCmd.Recover(t.Context(), recoverCmd.RecoverOptions{Since: time.Hour, Name: "rec",
		StartKitty: func(_, session string) error {
			k = kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), sharedState(t, home)), Session: session})
			return nil
		}}.From(f))
	if err != nil || k == nil {
		t.Fatalf("recover: %v\n%s\n%s", err, out, errOut)
	}
	data, _ := os.ReadFile(p.Session("rec"))
	t.Logf("recover:\n%s\nsession:\n%s", out, data)
	if k.Version.AtLeast(kitty.VersionSaveAsSession) {
		t.Errorf("kitty %s: this test is for the old kitty on PATH", k.Version)
	}
	for _, want := range []string{"not recovered: claude 3f5a7b9d in " + dollar + ": the directory",
		"not recovered: claude 4a6b8c0e in " + quoted + ": "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("recover's output lacks %q:\n%s", want, out)
		}
	}
	got := answerPrompts(t, k, log, []string{odd})
	if diff := cmp.Diff(map[string][]string{filepath.Base(odd): {"claude", "--model", "opus", "--resume", id}}, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
	var tabs []string
	for _, o := range k.LS() {
		for _, tab := range o.Tabs {
			tabs = append(tabs, tab.Title)
		}
	}
	if !slices.Contains(tabs, `it's x y \ "z"`) {
		t.Errorf("tabs %q", tabs)
	}
}
