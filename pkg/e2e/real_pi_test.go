//go:build linux

package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("saved:\n%s", data)
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
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
				return rec
			}
		}
	}
	t.Fatalf("no record of pi in the save")
	return resumerecord.Record{}
}
