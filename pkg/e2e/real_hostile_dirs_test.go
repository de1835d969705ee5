//go:build linux

package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealHostileDirectories: directory names that end kitty 0.48.2's `cd`
// line early and add lines of their own (a newline and a launch line, a
// carriage return, a blank line and a whole new tab, a trailing backslash
// that made every save fail, '$' that kitty expands, a trailing blank that
// it strips). A window sits in each (a fake claude in the first), the
// scanner autosaves and `sessions save --all` saves: both succeed and warn;
// then kitty stops, a new kitty restores the save, Enter is pressed in every
// window: claude resumes its conversation, and nothing the names injected
// runs (no marker file appears).
func TestRealHostileDirectories(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude")
	resume := resumeBin(t)
	base := e2etest.WorkDirs(t, "base")[0]
	markers := filepath.Join(filepath.Dir(base), "markers")
	if err := os.Mkdir(markers, 0o700); err != nil {
		t.Fatal(err)
	}
	touch := func(name string) string { return "sh -c 'touch " + filepath.Join(markers, name) + "'" }
	const uuid = "5b7c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4"
	hostile := []string{
		base + "/x\nlaunch " + touch("newline"),
		base + "/y\rlaunch " + touch("cr"),
		base + "/z\n\nnew_tab\nlayout tall\ncd /\n\nlaunch 'kitty-unserialize-data={\"id\": 1}' " + touch("tab"),
		base + "/w\nlaunch y\\",
		base + "/$HOME",
		base + "/sp ",
	}
	for _, d := range hostile {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}

	k1 := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env(), Kitty: kittyBin})
	ctx := t.Context()
	// claude in the first, beside two shells in base: kitty writes the
	// tab's `cd` for base and claude's directory as --cwd, a quoted word
	// the newline splits.
	k1.LaunchWith(kitty.LaunchOptions{Type: "tab", Cwd: base})
	k1.LaunchWith(kitty.LaunchOptions{Cwd: base})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude"), "--resume", uuid}, Cwd: hostile[0]})
	for _, d := range hostile {
		if !strings.Contains(d, "$") {
			k1.LaunchWith(kitty.LaunchOptions{Type: "tab", Cwd: d})
			continue
		}
		// kitty expands $VAR in launch's --cwd: the shell goes there itself.
		win := k1.LaunchWith(kitty.LaunchOptions{Type: "tab", Cwd: base})
		k1.WaitFor(func(ls []kitty.OSWindow) bool {
			for _, r := range kitty.Windows(ls) {
				if r.Window.ID == win && atPrompt(r.Window) {
					return true
				}
			}
			return false
		}, 30*time.Second)
		if err := k1.Client.SendText(ctx, "id:"+strconv.Itoa(win), "cd './"+filepath.Base(d)+"'\r"); err != nil {
			t.Fatal(err)
		}
	}
	waitRuns(t, log, 1, 30*time.Second)
	// Each shell is in its directory and at its prompt (kitty saves the
	// directory the shell reported there).
	k1.WaitFor(func(ls []kitty.OSWindow) bool {
		in := map[string]bool{}
		for _, r := range kitty.Windows(ls) {
			if atPrompt(r.Window) {
				in[r.Window.Cwd] = true
			}
		}
		for _, d := range append(hostile, base) {
			if !in[d] {
				return false
			}
		}
		return true
	}, 30*time.Second)

	home := t.TempDir()
	xdgState := filepath.Join(home, "xdg-state")
	env := map[string]string{"HOME": home, "PATH": binDir + ":" + os.Getenv("PATH"), "KITTYMUX_RESUME_BIN": resume,
		"KITTY_LISTEN_ON": k1.Addr.String(), "KITTY_PID": strconv.Itoa(k1.PID), "XDG_STATE_HOME": xdgState,
		autosave.EnvSettle: "1s", autosave.EnvAtMostEvery: "2s", autosave.EnvAtLeastEvery: "10s"}
	p := testPaths(env)
	checkSaved := func(what string, data []byte) {
		t.Helper()
		file, err := sessionfile.Parse(data)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", what, err, data)
		}
		if bytes.Contains(data, []byte("touch")) || bytes.Contains(data, []byte("launch y")) {
			t.Errorf("%s holds an injected line:\n%s", what, data)
		}
		if n := len(file.Windows()); n != len(kitty.Windows(k1.LS())) {
			t.Errorf("%s holds %d windows, kitty has %d:\n%s", what, n, len(kitty.Windows(k1.LS())), data)
		}
	}

	// The scanner's autosave.
	scanLog := &kittytest.Buffer{}
	f := factorytest.Writing(t, scanLog, scanLog)
	f.Getenv = func(k string) string { return env[k] }
	f.Paths = p
	f.Discover = func(context.Context) ([]kitty.Instance, error) {
		return []kitty.Instance{{Addr: k1.Addr, Socket: k1.Addr.String(), PID: k1.PID, Version: k1.Version, Source: "kitty.conf listen_on"}}, nil
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(sctx, cmdscanner.RunOptions{Interval: 200 * time.Millisecond, Rescan: time.Second,
			Signals: []os.Signal{}}.From(f))
	}()
	store := autosave.Store{Paths: p}
	bound := kittytest.NewBound(t, "an autosave of the first kitty", 30*time.Second)
	var names []string
	for len(names) == 0 && !bound.Over() {
		time.Sleep(200 * time.Millisecond)
		names, _ = store.Names(strconv.Itoa(k1.PID))
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("scanner: %v", err)
	}
	if len(names) == 0 {
		t.Fatalf("no autosave in 30 s; scanner log:\n%s", scanLog)
	}
	data, err := os.ReadFile(p.Session(names[0]))
	if err != nil {
		t.Fatal(err)
	}
	checkSaved("the autosave", data)
	if !strings.Contains(scanLog.String(), "warning: kitty's save, line") {
		t.Errorf("the autosave warned of nothing; scanner log:\n%s", scanLog)
	}

	// sessions save --all.
	code, out, errOut := kittymux(t, env, "sessions", "save", "hostile", "--all", "--json")
	if code != 0 {
		t.Fatalf("save: exit %d\n%s\n%s", code, out, errOut)
	}
	var saved shared.SaveResult
	if err := json.Unmarshal([]byte(out), &saved); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(saved.Warnings) == 0 || !strings.Contains(errOut, "kittymux: warning: kitty's save") {
		t.Errorf("save warned of nothing: %+v\n%s", saved, errOut)
	}
	t.Logf("save's warnings:\n%s", errOut)
	data, err = os.ReadFile(saved.Path)
	if err != nil {
		t.Fatal(err)
	}
	checkSaved("sessions save", data)
	t.Logf("published:\n%s", data)
	windows := len(kitty.Windows(k1.LS()))
	k1.Stop()
	// The claude that ran there is gone before its conversation comes back
	// (the prompt would say it is open elsewhere).
	first := agentRuns(log)[0].PID
	kittytest.Eventually(t, "claude (pid "+strconv.Itoa(first)+") to exit after its kitty stopped", 30*time.Second,
		func() (bool, string) { return syscall.Kill(first, 0) != nil, "" })

	// Restored in a new kitty; Enter in every window.
	before := len(agentRuns(log))
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), "XDG_STATE_HOME="+xdgState), Kitty: kittyBin, Session: saved.Path})
	ls := k2.WaitFor(func(ls []kitty.OSWindow) bool { return len(kitty.Windows(ls)) == windows }, 30*time.Second)
	var prompt int
	for _, r := range kitty.Windows(ls) {
		if r.Window.Cwd != base && strings.HasPrefix(r.Window.Cwd, base) {
			t.Errorf("window %d restored in %q, want the safe parent %s", r.Window.ID, r.Window.Cwd, base)
		}
		for _, fp := range r.Window.ForegroundProcesses {
			if len(fp.Cmdline) > 0 && filepath.Base(fp.Cmdline[0]) == "kittymux-resume" {
				prompt = r.Window.ID
			}
		}
	}
	if prompt == 0 {
		t.Fatalf("no window waits at the restore prompt: %+v", kitty.Windows(ls))
	}
	text := k2.WaitForText("id:"+strconv.Itoa(prompt), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
	if strings.Contains(text, "edited") {
		t.Errorf("the sealed record shows as edited:\n%s", text)
	}
	for _, r := range kitty.Windows(ls) {
		if err := k2.Client.SendText(ctx, "id:"+strconv.Itoa(r.Window.ID), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	runs := waitRuns(t, log, before+1, 30*time.Second)[before:]
	time.Sleep(kittytest.Scaled(2 * time.Second)) // anything injected has had time to run
	if got := argvOf(runs[0]); strings.Join(got, " ") != "claude --resume "+uuid {
		t.Errorf("after Enter ran %q, want claude --resume %s", got, uuid)
	}
	if ents, _ := os.ReadDir(markers); len(ents) > 0 {
		t.Errorf("an injected command ran: %v", ents)
	}
}
