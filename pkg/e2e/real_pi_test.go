//go:build linux

package e2e_test

import (
	"bytes"
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

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// TestRealPiTypedModel: the real pi sets its process title, so the OS shows
// its command line as `pi` alone. Typed at a shell with --model, its window
// is saved with the value (from the line kitty's shell integration
// reported), unsealed: the restored prompt shows the whole command and
// asks. Its flags are never dropped in silence.
func TestRealPiTypedModel(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	e2etest.NeedCLI(t, "pi")
	stub := modelstub.Start(t)
	r := newCLIRig(t, kittyBin, stub, (*modelstub.Server).PiHome, "pi")
	model := modelstub.OpenAIProvider + "/" + modelstub.OpenAIModel
	typed := "pi --model " + model
	id := shellWindow(t, r.k, r.dirs[0], nil, typed)
	// pi has set its title: kitty lists its process as `pi` alone.
	r.k.WaitFor(func(ls []kitty.OSWindow) bool {
		w := windowOf(ls, id)
		return w != nil && w.LastReportedCmdline == typed && slices.ContainsFunc(w.ForegroundProcesses, func(p kitty.Process) bool {
			return slices.Equal(p.Cmdline, []string{"pi"})
		})
	}, 90*time.Second)

	env := realEnv(t, r.k)
	env["KITTYMUX_RESUME_BIN"] = resumeBin(t)
	env["KITTY_LISTEN_ON"] = r.k.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(r.k.PID)
	env["XDG_STATE_HOME"] = filepath.Join(env["HOME"], "xdg-state")
	if err := statefile.EnsureState(testPaths(env)); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := kittymux(t, env, "sessions", "save", "pi", "--json")
	if code != 0 {
		t.Fatalf("save: exit %d\n%s\n%s", code, out, errOut)
	}
	var saved shared.SaveResult
	if err := json.Unmarshal([]byte(out), &saved); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rec := piRecord(t, env, saved.Path)
	if i := slices.Index(rec.Argv, "--model"); i < 0 || i+1 >= len(rec.Argv) || rec.Argv[i+1] != model {
		t.Errorf("pi's record runs %q, want --model %s", rec.Argv, model)
	}
	if !rec.Confirm {
		t.Errorf("pi's record does not ask first: %+v", rec)
	}

	// Restored, the prompt shows the whole command and waits.
	r.k.Stop()
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Session: saved.Path,
		Env: []string{"HOME=" + r.home, "XDG_STATE_HOME=" + env["XDG_STATE_HOME"]}})
	var win int
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, ref := range kitty.Windows(ls) {
			if ref.Window.Cwd == r.dirs[0] {
				win = ref.Window.ID
			}
		}
		return win != 0
	}, 30*time.Second)
	k2.WaitForText(winMatch(win), func(s string) bool {
		// The command may wrap at the window's edge.
		whole := "--model " + model
		return strings.Contains(s, "i commands") && (strings.Contains(flatText(s), whole) || strings.Contains(strings.ReplaceAll(s, "\n", ""), whole))
	}, 30*time.Second)
}

// piRecord is the restore record of the one window running pi in the
// session file at path.
func piRecord(t *testing.T, env map[string]string, path string) resumerecord.Record {
	t.Helper()
	recs := piRecords(t, env, path)
	if len(recs) == 1 {
		for _, rec := range recs {
			return rec
		}
	}
	t.Fatalf("%d records of pi in the save, want 1", len(recs))
	return resumerecord.Record{}
}

// TestRealPiReportedArgv: with kittymux's pi integration installed, the
// real pi reports from inside its process the argv it started with. Typed
// with --model and a prompt, its window is saved sealed, with pi's own
// flags and without the prompt, whatever the typed line shows; a pi
// that loads no extension (--no-extensions: a pi started before the
// integration may load it when it appears) is still saved from the typed
// line, unsealed. Restored with KITTYMUX_RESUME=auto, the sealed pi resumes its
// conversation without a key, and the other still asks.
func TestRealPiReportedArgv(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	e2etest.NeedCLI(t, "pi")
	stub := modelstub.Start(t)
	r := newCLIRig(t, kittyBin, stub, (*modelstub.Server).PiHome, "api", "web")
	model := modelstub.OpenAIProvider + "/" + modelstub.OpenAIModel
	titled := func(id int, typed string) {
		t.Helper()
		r.k.WaitFor(func(ls []kitty.OSWindow) bool {
			w := windowOf(ls, id)
			return w != nil && w.LastReportedCmdline == typed && slices.ContainsFunc(w.ForegroundProcesses, func(p kitty.Process) bool {
				return slices.Equal(p.Cmdline, []string{"pi"})
			})
		}, 90*time.Second)
	}
	before := "pi --no-extensions --model " + model
	titled(shellWindow(t, r.k, r.dirs[0], nil, before), before)

	// The state directory the hooks in the kitty use: its XDG_STATE_HOME.
	env := realEnv(t, r.k)
	env["HOME"] = r.home
	env["XDG_STATE_HOME"] = r.k.Getenv("XDG_STATE_HOME")
	if env["XDG_STATE_HOME"] == "" {
		t.Fatalf("the kitty's environment names no XDG_STATE_HOME: %q", r.k.Env)
	}
	env["KITTYMUX_RESUME_BIN"] = resumeBin(t)
	env["KITTY_LISTEN_ON"] = r.k.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(r.k.PID)
	var instOut, instErr bytes.Buffer
	f := factorytest.Writing(t, &instOut, &instErr)
	f.Getenv = func(k string) string { return env[k] }
	f.Paths = testPaths(env)
	f.Executable = e2etest.Bin(t, "kittymux")
	if code := root.Main(f, []string{"integration", "install", "pi"}); code != 0 {
		t.Fatalf("integration install pi: exit %d\n%s%s", code, &instOut, &instErr)
	}

	typed := "pi --model " + model + ` "Remember the word FERN"`
	after := shellWindow(t, r.k, r.dirs[1], nil, typed)
	titled(after, typed)
	stub.WaitCarrying(t, "FERN", 90*time.Second)
	var saved shared.SaveResult
	var recs map[string]resumerecord.Record
	kittytest.Eventually(t, "the save to seal the pi that reported its argv", 60*time.Second, func() (bool, string) {
		code, out, errOut := kittymux(t, env, "sessions", "save", "pi", "--json")
		if code != 0 {
			t.Fatalf("save: exit %d\n%s\n%s", code, out, errOut)
		}
		if err := json.Unmarshal([]byte(out), &saved); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		recs = piRecords(t, env, saved.Path)
		hookLog, _ := os.ReadFile(filepath.Join(f.Paths.StateDir, "hook.log"))
		return len(recs) == 2 && !recs[r.dirs[1]].Confirm, fmt.Sprintf("%+v\nintegration install:\n%s%s\nhook.log:\n%s", recs, &instOut, &instErr, hookLog)
	})
	old, rec := recs[r.dirs[0]], recs[r.dirs[1]]
	if !old.Confirm || !slices.Contains(old.Argv, model) {
		argv, _ := os.ReadDir(filepath.Join(f.Paths.StateDir, "proc-argv"))
		hookLog, _ := os.ReadFile(filepath.Join(f.Paths.StateDir, "hook.log"))
		t.Errorf("the pi without extensions: %+v, want --model %s from the typed line, unsealed; reports %v; hook.log:\n%s", old, model, argv, hookLog)
	}
	if i := slices.Index(rec.Argv, "--model"); i < 0 || i+1 >= len(rec.Argv) || rec.Argv[i+1] != model ||
		slices.ContainsFunc(rec.Argv, func(a string) bool { return strings.Contains(a, "FERN") }) || rec.ID == "" {
		t.Errorf("the pi that reported its argv runs %q (id %q), want --model %s, no prompt, an id", rec.Argv, rec.ID, model)
	}

	// Each pi ends with its kitty (its conversation is open while it runs:
	// a restore would not open it twice).
	var pis []int
	for _, ref := range kitty.Windows(r.k.LS()) {
		for _, p := range ref.Window.ForegroundProcesses {
			if slices.Equal(p.Cmdline, []string{"pi"}) {
				pis = append(pis, p.PID)
			}
		}
	}
	r.k.Stop()
	kittytest.Eventually(t, "the pis to end with their kitty", 30*time.Second, func() (bool, string) {
		for _, pid := range pis {
			if syscall.Kill(pid, 0) == nil {
				return false, fmt.Sprintf("pi %d runs", pid)
			}
		}
		return true, ""
	})
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Session: saved.Path,
		Env: []string{"HOME=" + r.home, "XDG_STATE_HOME=" + env["XDG_STATE_HOME"], "KITTYMUX_RESUME=auto"}})
	win := map[string]int{}
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, ref := range kitty.Windows(ls) {
			win[ref.Window.Cwd] = ref.Window.ID
		}
		return win[r.dirs[0]] != 0 && win[r.dirs[1]] != 0
	}, 30*time.Second)
	// The sealed one runs pi at once, in its conversation: the next turn
	// carries its word.
	k2.WaitForText(winMatch(win[r.dirs[1]]), func(s string) bool { return strings.Contains(s, "FERN") }, 60*time.Second)
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		w := windowOf(ls, win[r.dirs[1]])
		return w != nil && slices.ContainsFunc(w.ForegroundProcesses, func(p kitty.Process) bool { return slices.Equal(p.Cmdline, []string{"pi"}) })
	}, 60*time.Second)
	// The other asks, showing its whole command.
	k2.WaitForText(winMatch(win[r.dirs[0]]), func(s string) bool {
		return strings.Contains(s, "i commands") && strings.Contains(strings.ReplaceAll(s, "\n", ""), "--model "+model)
	}, 30*time.Second)
}

// piRecords are the restore records of the windows running pi in the
// session file at path, by directory.
func piRecords(t *testing.T, env map[string]string, path string) map[string]resumerecord.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("saved:\n%s", data)
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]resumerecord.Record{}
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		argv := l.Argv
		if c := l.Unserialize.CmdAtShellStartup; c.Set && c.IsList {
			argv = c.List
		}
		if len(argv) > 0 && argv[0] == env["KITTYMUX_RESUME_BIN"] {
			rec, err := resumerecord.ParseArgs(argv[1:])
			if err != nil {
				t.Fatal(err)
			}
			if rec.Agent == "pi" {
				out[rec.Dir] = rec
			}
		}
	}
	return out
}
