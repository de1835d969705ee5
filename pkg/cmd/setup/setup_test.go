package setup_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	cmdsetup "github.com/kittymux/kittymux/pkg/cmd/setup"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/screenhist"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// noSystemd is a machine without a user manager.
type noSystemd struct{}

func (noSystemd) Running(context.Context) bool         { return false }
func (noSystemd) Enabled(context.Context, string) bool { return false }
func (noSystemd) Active(context.Context, string) bool  { return false }
func (noSystemd) Run(context.Context, ...string) error { return nil }

// testFactory is a factory over a throw-away home holding a copy of
// pkg/setup's testdata/<conf>/kitty as ~/.config/kitty.
func testFactory(t *testing.T, conf string) (*factory.Factory, *kittytest.Buffer, string) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	kittyDir := filepath.Join(home, ".config", "kitty")
	if err := os.MkdirAll(kittyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if conf != "" {
		if err := os.CopyFS(kittyDir, os.DirFS(filepath.Join("..", "..", "setup", "testdata", conf, "kitty"))); err != nil {
			t.Fatal(err)
		}
	}
	// The user's runtime directory, private and short (a socket's path
	// must be: the temp directory, named after the test, may not be).
	run, err := os.MkdirTemp("", "kmrun")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME": filepath.Join(home, ".local", "state"), "XDG_RUNTIME_DIR": run}
	f, out, _ := factorytest.New(t)
	f.IO.ErrOut = out
	f.Paths = paths.Paths{StateDir: filepath.Join(home, ".local", "state", "kittymux"), ConfigDir: filepath.Join(home, ".config", "kittymux")}
	f.Getenv = func(k string) string { return env[k] }
	f.Executable = "/opt/kittymux/bin/kittymux"
	return f, out, root
}

func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		b, _ := os.ReadFile(p)
		out[p] = fi.Mode().String() + " " + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// --dry-run lists the changes and writes nothing, for setup and --undo.
func TestDryRunWritesNothing(t *testing.T) {
	for _, conf := range []string{"plain", "includes", "password", ""} {
		t.Run("conf="+conf, func(t *testing.T) {
			f, out, root := testFactory(t, conf)
			before := tree(t, root)
			if err := cmdsetup.Run(t.Context(), cmdsetup.Options{DryRun: true, Systemd: noSystemd{}}.From(f)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, tree(t, root)); diff != "" {
				t.Errorf("--dry-run wrote (-before +after):\n%s", diff)
			}
			for _, want := range []string{"dry run", "+ include ~/.config/kittymux/kitty.conf", "create  " + filepath.Join(root, "home", ".config", "kittymux", "kitty_watcher.py")} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("listing lacks %q:\n%s", want, out)
				}
			}

			if err := cmdsetup.Run(t.Context(), cmdsetup.Options{Systemd: noSystemd{}}.From(f)); err != nil {
				t.Fatal(err)
			}
			applied := tree(t, root)
			out.Reset()
			if err := cmdsetup.Run(t.Context(), cmdsetup.Options{Undo: true, DryRun: true, Systemd: noSystemd{}}.From(f)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(applied, tree(t, root)); diff != "" {
				t.Errorf("--undo --dry-run wrote (-before +after):\n%s", diff)
			}
			if !strings.Contains(out.String(), "- include ~/.config/kittymux/kitty.conf") {
				t.Errorf("--undo listing lacks the include line:\n%s", out)
			}
		})
	}
}

// The second run says there is nothing to change.
func TestSecondRunSaysNothing(t *testing.T) {
	f, out, _ := testFactory(t, "plain")
	for range 2 {
		out.Reset()
		if err := cmdsetup.Run(t.Context(), cmdsetup.Options{Systemd: noSystemd{}}.From(f)); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.HasPrefix(out.String(), "kittymux setup: nothing to change\n") {
		t.Errorf("second run:\n%s", out)
	}
	// Setup says whether a kitty that starts offers an ended session.
	if !strings.Contains(out.String(), "offer: on: a kitty that starts offers") {
		t.Errorf("setup does not say the offer is on:\n%s", out)
	}
	env := f.Getenv
	f.Getenv = func(k string) string {
		if k == "KITTYMUX_OFFER" {
			return "0"
		}
		return env(k)
	}
	out.Reset()
	if err := cmdsetup.Run(t.Context(), cmdsetup.Options{Systemd: noSystemd{}}.From(f)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "offer: off (KITTYMUX_OFFER=0)") {
		t.Errorf("setup does not say the offer is off:\n%s", out)
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		dryRun, undo bool
		wantErr      bool
	}{
		{nil, false, false, false},
		{[]string{"--dry-run"}, true, false, false},
		{[]string{"--undo", "--dry-run"}, true, true, false},
		{[]string{"extra"}, false, false, true},
		{[]string{"--integrations", "yes"}, false, false, false},
		{[]string{"--integrations", "maybe"}, false, false, true},
	} {
		f, _, _ := testFactory(t, "")
		var got *cmdsetup.Options
		cmd := cmdsetup.NewCmdSetup(f, func(o *cmdsetup.Options) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if (err != nil) != tc.wantErr {
			t.Errorf("%v: error %v, want error %v", tc.args, err, tc.wantErr)
			continue
		}
		if err == nil && (got.DryRun != tc.dryRun || got.Undo != tc.undo) {
			t.Errorf("%v: dry-run %v undo %v", tc.args, got.DryRun, got.Undo)
		}
	}
}

// TestOffersHooks: setup offers the agents' hooks for the agents found
// (here claude, by its settings directory): asked on a terminal, installed
// with --integrations=yes, only named without a terminal; --undo offers to
// remove them.
func TestOffersHooks(t *testing.T) {
	settings := func(f *factory.Factory) string {
		b, _ := os.ReadFile(filepath.Join(f.Getenv("HOME"), ".claude", "settings.json"))
		return string(b)
	}
	newF := func(t *testing.T) (*factory.Factory, *kittytest.Buffer) {
		f, out, _ := testFactory(t, "plain")
		if err := os.MkdirAll(filepath.Join(f.Getenv("HOME"), ".claude"), 0o700); err != nil {
			t.Fatal(err)
		}
		return f, out
	}
	run := func(t *testing.T, o *cmdsetup.Options) {
		t.Helper()
		o.Systemd = noSystemd{}
		if err := cmdsetup.Run(t.Context(), o); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("no terminal: named, not installed", func(t *testing.T) {
		f, out := newF(t)
		run(t, cmdsetup.Options{Integrations: "ask"}.From(f))
		if !strings.Contains(out.String(), "not asked (no terminal)") || !strings.Contains(out.String(), "claude") {
			t.Errorf("output:\n%s", out)
		}
		if settings(f) != "" {
			t.Errorf("settings written:\n%s", settings(f))
		}
	})
	t.Run("dry run: says what it would ask", func(t *testing.T) {
		f, out := newF(t)
		run(t, cmdsetup.Options{Integrations: "yes", DryRun: true}.From(f))
		if !strings.Contains(out.String(), "would ask: install kittymux's hooks in the settings of claude?") || settings(f) != "" {
			t.Errorf("output:\n%s\nsettings: %s", out, settings(f))
		}
	})
	t.Run("asked, yes; undo asked, no; undo --integrations=yes", func(t *testing.T) {
		f, out := newF(t)
		var asked []string
		yes := true
		confirm := func(q string) (bool, error) { asked = append(asked, q); return yes, nil }
		run(t, cmdsetup.Options{Integrations: "ask", Confirm: confirm}.From(f))
		if !strings.Contains(settings(f), "/opt/kittymux/bin/kittymux hook claude") {
			t.Fatalf("not installed:\n%s\n%s", out, settings(f))
		}
		yes = false
		run(t, cmdsetup.Options{Undo: true, Integrations: "ask", Confirm: confirm}.From(f))
		if !strings.Contains(settings(f), "kittymux hook claude") {
			t.Errorf("removed although the answer was no")
		}
		run(t, cmdsetup.Options{Undo: true, Integrations: "yes"}.From(f))
		if strings.Contains(settings(f), "kittymux") {
			t.Errorf("still there after --undo --integrations=yes:\n%s", settings(f))
		}
		want := []string{"install kittymux's hooks in the settings of claude?",
			"Keep what plain windows show with each save (screen history)?",
			"remove kittymux's hooks from the settings of claude?"}
		if diff := cmp.Diff(want, asked); diff != "" {
			t.Errorf("questions (-want +got):\n%s", diff)
		}
	})
	t.Run("no: nothing", func(t *testing.T) {
		f, _ := newF(t)
		run(t, cmdsetup.Options{Integrations: "no"}.From(f))
		if settings(f) != "" {
			t.Errorf("installed with --integrations=no")
		}
	})
}

// TestSetupNamesRunningKitty: outside kitty, setup describes the kitties
// running, with a socket or not (a line for each program), not the kitty
// on PATH, which may be another.
func TestSetupNamesRunningKitty(t *testing.T) {
	f, out, _ := testFactory(t, "plain")
	o := cmdsetup.Options{Systemd: noSystemd{}, DryRun: true}.From(f)
	o.Programs = func(context.Context) []kitty.Instance {
		return []kitty.Instance{
			{Socket: "/run/a", Exe: "/opt/kitty/bin/kitty", Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}},
			{Socket: "/run/b", Exe: "/opt/kitty/bin/kitty", Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}},
			{Socket: "/run/p", Exe: "/opt/kitty/bin/kitty", Utility: "panel", Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}},
			{Exe: "/usr/bin/kitty", Version: kitty.Version{Major: 0, Minor: 26, Patch: 5}},
		}
	}
	if err := cmdsetup.Run(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	want := "kitty      0.48.2 (running: /opt/kitty/bin/kitty): every part works (save, autosave and restore: 0.43.0; the quit capture: 0.46.2)\n" +
		"kitty      0.26.5 (running: /usr/bin/kitty): works: the scanner, recover, restart, hooks, the restore prompt; needs a newer kitty: save, autosave and restore (0.43.0 or newer), the quit capture (0.46.2 or newer)\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("no lines\n%s\nin\n%s", want, out)
	}
}

// TestSetupNamesKitty: setup says which kitty it found and what works on
// it: on 0.26.5 saving, autosave and restore need 0.43 and the quit capture
// 0.46.2; on 0.48.2 every part works; with no kitty, what each part needs.
func TestSetupNamesKitty(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"0, 26, 5", "kitty      0.26.5 (the kitty this runs in): works: the scanner, recover, restart, hooks, the restore prompt; needs a newer kitty: save, autosave and restore (0.43.0 or newer), the quit capture (0.46.2 or newer)\n"},
		{"0, 48, 2", "kitty      0.48.2 (the kitty this runs in): every part works (save, autosave and restore: 0.43.0; the quit capture: 0.46.2)\n"},
		{"", "kitty      not found on PATH; works: the scanner, recover, restart, hooks, the restore prompt; needs a newer kitty: save, autosave and restore (0.43.0 or newer), the quit capture (0.46.2 or newer)\n"},
	} {
		f, out, root := testFactory(t, "plain")
		install := ""
		if tc.version != "" {
			install = filepath.Join(root, "kitty-install")
			if err := os.MkdirAll(filepath.Join(install, "kitty"), 0o755); err != nil {
				t.Fatal(err)
			}
			consts := "appname: str = 'kitty'\nversion: Version = Version(" + tc.version + ")\n"
			if err := os.WriteFile(filepath.Join(install, "kitty", "constants.py"), []byte(consts), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		env := f.Getenv
		f.Getenv = func(k string) string {
			if k == "KITTY_INSTALLATION_DIR" {
				return install
			}
			return env(k)
		}
		for _, dry := range []bool{true, false} {
			out.Reset()
			if err := cmdsetup.Run(t.Context(), cmdsetup.Options{Systemd: noSystemd{}, DryRun: dry}.From(f)); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tc.want) {
				t.Errorf("kitty %q, dry run %v: no line %q in\n%s", tc.version, dry, tc.want, out)
			}
		}
	}
}

// TestAsksScreenHistory: setup asks on a terminal whether to keep screen
// history; yes writes it into config.json beside what is there, no writes
// nothing, and without a terminal it stays off and says how to turn it on.
func TestAsksScreenHistory(t *testing.T) {
	run := func(t *testing.T, o *cmdsetup.Options) {
		t.Helper()
		o.Systemd = noSystemd{}
		if err := cmdsetup.Run(t.Context(), o); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("no terminal: off", func(t *testing.T) {
		f, out, _ := testFactory(t, "plain")
		run(t, cmdsetup.Options{Integrations: "no"}.From(f))
		if !strings.Contains(out.String(), "history    off (not asked: no terminal); {\"screen_history\": true} in ") {
			t.Errorf("output:\n%s", out)
		}
		if _, err := os.Stat(f.Paths.Config()); err == nil {
			t.Errorf("config.json written without an answer")
		}
	})
	for _, yes := range []bool{false, true} {
		t.Run(fmt.Sprintf("answer %v", yes), func(t *testing.T) {
			f, out, _ := testFactory(t, "plain")
			if err := os.MkdirAll(f.Paths.ConfigDir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.Paths.Config(), []byte(`{"autosave": {"keep": 3}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			var asked []string
			confirm := func(q string) (bool, error) { asked = append(asked, q); return yes, nil }
			run(t, cmdsetup.Options{Integrations: "no", Confirm: confirm}.From(f))
			data, _ := os.ReadFile(f.Paths.Config())
			on, err := screenhist.Load(f.Paths, f.Getenv)
			if len(asked) != 1 || on.On != yes || err != nil || !strings.Contains(string(data), `"keep": 3`) {
				t.Errorf("asked %q; on %v (%v); config.json:\n%s\noutput:\n%s", asked, on, err, data, out)
			}
		})
	}
}
