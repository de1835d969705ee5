//go:build linux

package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealHooks: a fake claude launched without an id in a real kitty runs
// `kittymux hook` as claude runs its hooks (session start, then a prompt
// and a stop). The scanner's record of the window gets the hook's id, and
// its state, runs and working time come from the hook, not the title;
// `sessions list` shows the window exact with the hook as the id's source;
// on a kitty with save_as_session, a save resumes that id.
func TestRealHooks(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	const hookID = "5b2e9c1d-7a3f-4e6b-9c8d-1f2a3b4c5d6e"
	bin := filepath.Join(t.TempDir(), "kittymux")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/kittymux/kittymux/cmd/kittymux").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	home := t.TempDir()
	xdgState := filepath.Join(home, ".local", "state")
	binDir, log := kittytest.FakeAgents(t, "claude")
	kittyBin := os.Getenv("KITTYMUX_KITTY")
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Env: append(log.Env(),
		"XDG_STATE_HOME="+xdgState, "FAKEAGENT_HOOK="+bin, "FAKEAGENT_HOOK_ID="+hookID,
		// The title claims work all along: the hook's word wins.
		"FAKEAGENT_TITLE=\u2802 busy")})
	claude := filepath.Join(binDir, "claude")
	win := k.LaunchWith(kitty.LaunchOptions{Args: []string{claude, "--model", "opus"}, Cwd: k.Home})
	agent := log.WaitFor(t, 1, 20*time.Second)[0]

	errOut := &kittytest.Buffer{}
	f := factorytest.Writing(t, &bytes.Buffer{}, errOut)
	env := map[string]string{"HOME": home, "PATH": binDir + ":" + os.Getenv("PATH"), "XDG_STATE_HOME": xdgState,
		"KITTY_LISTEN_ON": k.Addr.String(), "KITTY_PID": fmt.Sprint(k.PID)}
	f.Getenv = func(n string) string { return env[n] }
	f.Paths = paths.Paths{StateDir: filepath.Join(xdgState, "kittymux"), ConfigDir: filepath.Join(home, ".config", "kittymux")}
	inst := kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version, Source: "KITTY_LISTEN_ON"}
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil }
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(ctx, cmdscanner.RunOptions{Interval: 200 * time.Millisecond, Rescan: time.Second}.From(f))
	}()
	t.Cleanup(func() { cancel(); <-done })

	j := journal.New(f.Paths.Journal(), false)
	waitFor := func(what string, cond func(journal.Record) bool) journal.Record {
		t.Helper()
		bound := kittytest.NewBound(t, what, 30*time.Second)
		for {
			var recs []journal.Record
			if jf, err := j.Read(); err == nil {
				for _, r := range jf.Records {
					if r.KittyPID == k.PID && r.WindowID == win {
						recs = append(recs, r)
					}
				}
			}
			if len(recs) == 1 && cond(recs[0]) {
				return recs[0]
			}
			if bound.Over() {
				hl, _ := os.ReadFile(filepath.Join(f.Paths.StateDir, "hook.log"))
				t.Fatalf("%v; records %+v\nscanner log:\n%s\nhook log:\n%s", bound, recs, errOut, hl)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	r := waitFor("the hook's id in the scanner's record", func(r journal.Record) bool {
		return r.ID == hookID && r.Argv != nil && len(r.Argv) > 0
	})
	if r.IDFrom != "hook" || r.State != agents.StateIdle || r.StateFrom != "hook" || r.PID != agent.PID {
		t.Errorf("after session start: %+v", r)
	}
	// A prompt, a second of work, the turn ends.
	if err := syscall.Kill(agent.PID, syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	waitFor("working", func(r journal.Record) bool { return r.State == agents.StateWorking })
	time.Sleep(time.Second)
	if err := syscall.Kill(agent.PID, syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	r = waitFor("a run finished", func(r journal.Record) bool { return r.RunsFinished == 1 })
	// At least the second between the two signals; at most that and two
	// hook runs, however busy the machine.
	if r.State != agents.StateIdle || r.WorkingSeconds < 0.9 || r.WorkingSeconds > kittytest.Scaled(10*time.Second).Seconds() {
		t.Errorf("after the turn: state %s, working %.2fs", r.State, r.WorkingSeconds)
	}
	// The title kept saying busy: nothing more was counted.
	time.Sleep(kittytest.Scaled(time.Second))
	if r2 := waitFor("still idle", func(journal.Record) bool { return true }); r2.State != agents.StateIdle || r2.RunsFinished != 1 {
		t.Errorf("the title overrode the hook: %+v", r2)
	}

	// kittymux in-process with this test's state directory (the hooks'
	// XDG_STATE_HOME).
	run := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		g := factorytest.Writing(t, &out, &errs)
		g.Getenv, g.Paths = f.Getenv, f.Paths
		code := root.Main(g, args)
		return code, out.String(), errs.String()
	}
	code, out, errs := run("sessions", "list", "--json")
	if code != 0 {
		t.Fatalf("sessions list: exit %d\n%s", code, errs)
	}
	var listed struct {
		Windows []struct {
			WindowID int    `json:"window_id"`
			Mode     string `json:"mode"`
			ID       string `json:"id"`
			IDSource string `json:"id_source"`
			State    string `json:"state"`
		}
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(listed.Windows) != 1 || listed.Windows[0].Mode != "exact" || listed.Windows[0].ID != hookID ||
		listed.Windows[0].IDSource != "hook" || listed.Windows[0].State != "idle" {
		t.Errorf("sessions list: %+v", listed.Windows)
	}

	if !k.Version.AtLeast(kitty.VersionSaveAsSession) {
		t.Logf("kitty %s cannot save a session: the save is checked on kitty ≥ %s (KITTYMUX_KITTY)", k.Version, kitty.VersionSaveAsSession)
		return
	}
	env["KITTYMUX_RESUME_BIN"] = "/opt/kittymux/bin/kittymux-resume"
	code, out, errs = run("sessions", "save", "hooked", "--all")
	if code != 0 {
		t.Fatalf("save: exit %d\n%s%s", code, out, errs)
	}
	saved, err := os.ReadFile(f.Paths.Session("hooked"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), "--resume "+hookID) {
		t.Errorf("the save does not resume the hook's id:\n%s", saved)
	}
}
