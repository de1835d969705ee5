//go:build linux

package e2e_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/doctor"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/list"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// kittymux runs the command in-process with the environment env, as if
// started in a shell with it, and returns its exit code and output.
func kittymux(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := factorytest.Writing(t, &out, &errOut)
	f.Getenv = func(k string) string { return env[k] }
	f.Paths = testPaths(env)
	code := root.Main(f, args)
	return code, out.String(), errOut.String()
}

// testPaths is where kittymux keeps its state in a test: paths.Under(HOME),
// or, when env sets XDG_STATE_HOME, $XDG_STATE_HOME/kittymux, the directory
// a kitty given that environment lets its restore prompts find (a link
// between two would be refused: state directories are never followed
// through one).
func testPaths(env map[string]string) paths.Paths {
	p := paths.Under(env["HOME"])
	if x := env["XDG_STATE_HOME"]; x != "" {
		p.StateDir = filepath.Join(x, "kittymux")
	}
	return p
}

// resumeBin is the kittymux-resume the restored windows run: the test
// binary itself, which testscript.Main puts on PATH under that name.
func resumeBin(t *testing.T) string {
	t.Helper()
	resume, err := exec.LookPath("kittymux-resume")
	if err != nil {
		t.Fatalf("kittymux-resume is not on PATH; testscript.Main puts it there: %v", err)
	}
	return resume
}

func realEnv(t *testing.T, k *kittytest.Real) map[string]string {
	env := map[string]string{"HOME": t.TempDir(), "PATH": os.Getenv("PATH")}
	if v := k.Getenv("KITTY_CONFIG_DIRECTORY"); v != "" {
		env["KITTY_CONFIG_DIRECTORY"] = v
	}
	return env
}

// TestRealDoctor: doctor finds a real kitty through its kitty.conf
// listen_on and the -<pid> rule, names its version, and says what it lacks:
// Debian's kitty on PATH, and a kitty with save_as_session ($KITTYMUX_KITTY),
// found through /proc as any installed kitty.
func TestRealDoctor(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	for _, tc := range []struct {
		name string
		need kitty.Version // NeedKitty's kitty when set, else kitty on PATH
	}{
		{name: "kitty on PATH"},
		{name: "kitty with save_as_session", need: kitty.VersionSaveAsSession},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var bin string
			if !tc.need.IsZero() {
				bin = kittytest.NeedKitty(t, tc.need)
			}
			k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: bin})
			env := realEnv(t, k)
			// doctor with another HOME and state directory than kitty's: the
			// kitty is another kittymux's, which its scanner leaves alone.
			if code, out, errOut := kittymux(t, env, "doctor", "--json"); code != 0 {
				t.Fatalf("doctor exit %d\n%s\n%s", code, out, errOut)
			} else if k.Version.AtLeast(kitty.VersionSaveAsSession) && !strings.Contains(out, "another kittymux's: started with another HOME") {
				t.Errorf("kitty of another HOME and state not named another kittymux's:\n%s", out)
			}
			// The kitty's own state directory: this kittymux's kitty.
			env["XDG_STATE_HOME"] = k.Getenv("XDG_STATE_HOME")
			code, out, errOut := kittymux(t, env, "doctor", "--json")
			if code != 0 {
				t.Fatalf("doctor exit %d\n%s\n%s", code, out, errOut)
			}
			var r doctor.Report
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var mine *doctor.KittyReport
			for i := range r.Kitties {
				if r.Kitties[i].Socket == k.Addr.String() {
					mine = &r.Kitties[i]
				}
			}
			if mine == nil {
				t.Fatalf("doctor did not find %s:\n%s", k.Addr, out)
			}
			if mine.Version != k.Version.String() || mine.PID != k.PID || !mine.Reachable || mine.Source != "kitty.conf listen_on" {
				t.Errorf("kitty %s: report %+v", k.Version, *mine)
			}
			want := map[string]doctor.FeatureReport{}
			for _, f := range k.Version.Features() {
				want[f.Name] = doctor.FeatureReport{Available: k.Version.AtLeast(f.Since), Needs: f.Since.String()}
			}
			if diff := cmp.Diff(want, mine.Features); diff != "" {
				t.Errorf("kitty %s: features (-want +got):\n%s", k.Version, diff)
			}
			// Autosave is off for a kitty that cannot save, and says why.
			wantNote := "not seen by the scanner yet"
			if !k.Version.AtLeast(kitty.VersionSaveAsSession) {
				wantNote = "off: kitty " + k.Version.String() + " cannot save its layout (save_as_session needs 0.43.0)"
			}
			if got := r.Scanner.Autosave.Kitties; !slices.Contains(got, doctor.AutosaveKitty{Socket: k.Addr.String(), Note: wantNote}) {
				t.Errorf("autosave of kitty %s: %+v, want %q", k.Version, got, wantNote)
			}
			if !r.OK {
				t.Errorf("report not ok: %s", out)
			}
		})
	}
}

// TestRealSessionsList: windows running fake agents in a real kitty, and
// what `sessions list --json` makes of them.
func TestRealSessionsList(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, log := kittytest.FakeAgents(t, "claude", "codex", "opencode")
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env()})
	dir := func(name string) string {
		d := filepath.Join(k.Home, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	const uuid = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	api, web, cli, docs := dir("api"), dir("web"), dir("cli"), dir("docs")
	exact := k.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude"), "--resume", uuid}, Cwd: api})
	new1 := k.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude")}, Cwd: web})
	new2 := k.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "claude")}, Cwd: web})
	latest := k.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(binDir, "codex")}, Cwd: cli})
	// opencode is typed at a shell, prompt argument and all.
	typed := k.LaunchWith(kitty.LaunchOptions{Cwd: docs})
	k.WaitForText("id:"+strconv.Itoa(typed), func(s string) bool { return strings.TrimSpace(s) != "" }, 20*time.Second)
	if err := k.Client.SendText(t.Context(), "id:"+strconv.Itoa(typed), `opencode -m x "fix the tests"`+"\r"); err != nil {
		t.Fatal(err)
	}
	log.WaitFor(t, 5, 20*time.Second)
	// kitty lists the typed opencode as its window's foreground process
	// (on a busy machine a moment after the fake logged its start).
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == typed && slices.ContainsFunc(r.Window.ForegroundProcesses, func(p kitty.Process) bool {
				return slices.ContainsFunc(p.Cmdline, func(a string) bool { return strings.HasSuffix(a, "opencode") })
			}) {
				return true
			}
		}
		return false
	}, 20*time.Second)

	env := realEnv(t, k)
	env["PATH"] = binDir + ":" + os.Getenv("PATH") // the probes read the fakes' --help
	code, out, errOut := kittymux(t, env, "--to", k.Addr.String(), "sessions", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var got struct{ Windows []list.ListedWindow }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	type row struct {
		Mode plan.Mode
		Argv []string
	}
	rows := map[int]row{}
	for _, w := range got.Windows {
		argv := w.Argv
		if len(argv) > 0 {
			argv = append([]string{filepath.Base(argv[0])}, argv[1:]...)
		}
		rows[w.WindowID] = row{w.Mode, argv}
	}
	want := map[int]row{
		exact:  {plan.ModeExact, []string{"claude", "--resume", uuid}},
		new1:   {plan.ModeChoose, []string{"claude"}},
		new2:   {plan.ModeChoose, []string{"claude"}},
		latest: {plan.ModeLatest, []string{"codex", "resume", "--last"}},
		typed:  {plan.ModeLatest, []string{"opencode", "-m", "x", "--continue"}},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("sessions list (-want +got):\n%s\n%s", diff, out)
	}
	for _, w := range got.Windows {
		if strings.Contains(w.Command, "fix the tests") || strings.Contains(strings.Join(w.Argv, " "), "fix the tests") {
			t.Errorf("window %d: the prompt argument is in the command: %q", w.WindowID, w.Command)
		}
	}
}

// TestRealSaveRefused: Debian's kitty has no save_as_session: save says
// which version it needs and writes nothing.
func TestRealSaveRefused(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	k := kittytest.StartReal(t, kittytest.RealOptions{})
	if k.Version.AtLeast(kitty.VersionSaveAsSession) {
		t.Skipf("kitty %s has save_as_session", k.Version)
	}
	env := realEnv(t, k)
	env["KITTY_LISTEN_ON"] = k.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k.PID)
	code, out, errOut := kittymux(t, env, "sessions", "save", "work")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	want := "sessions save (kitty's save_as_session) needs kitty 0.43.0 or newer; the kitty at " + k.Addr.String() + " is " + k.Version.String() + "; nothing was written"
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr %q lacks %q", errOut, want)
	}
	if _, err := os.Stat(filepath.Join(env["HOME"], "state")); err == nil {
		t.Errorf("a refused save created the state directory")
	}
	if code, _, errOut := kittymux(t, env, "sessions", "restore", "last"); code != 1 || !strings.Contains(errOut, "nothing saved yet") {
		t.Errorf("restore: %d %s", code, errOut)
	}
}

// TestRealCLIsSessionsCheck: `sessions check` on the real claude and codex
// from npm (CI installs them): both confirmed for exact and latest.
func TestRealCLIsSessionsCheck(t *testing.T) {
	e2etest.NeedCLI(t, "claude")
	e2etest.NeedCLI(t, "codex")
	home := t.TempDir()
	t.Setenv("HOME", home) // the CLIs write under HOME on --help
	env := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	code, out, errOut := kittymux(t, env, "sessions", "check", "--json", "--refresh")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var rep probe.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	set, _ := agents.Load("")
	for _, name := range []string{"claude", "codex"} {
		var c *probe.AgentCheck
		for i := range rep.Agents {
			if rep.Agents[i].Agent == name {
				c = &rep.Agents[i]
			}
		}
		if c == nil || !c.Installed || !c.OK || len(c.Missing) > 0 || c.Error != "" {
			t.Errorf("%s: %+v", name, c)
			continue
		}
		// exact and latest are both confirmed: Decide keeps them with these probes.
		cmd, _ := recognize.Argv(set, []string{name})
		const id = "0199a213-81c0-7800-8aa1-bbab2a035a53"
		ds := plan.Decide(set, []live.AgentWindow{
			{ID: 1, Cwd: "/a", Cmd: cmd, KnownID: id},
			{ID: 2, Cwd: "/b", Cmd: cmd},
		}, rep.Probes())
		if len(ds) != 2 || ds[0].Mode != plan.ModeExact || ds[1].Mode != plan.ModeLatest {
			t.Errorf("%s with its probe: %+v", name, ds)
		}
		t.Logf("%s %s: confirmed %s", name, c.Version, c.Path)
	}
	// The result is cached in the state dir, 0600.
	fi, err := os.Stat(filepath.Join(home, "state", "resume-check.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("cache: %v %v", fi, err)
	}
}
