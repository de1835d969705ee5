package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/setup"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

func testFactory(t *testing.T, insts []kitty.Instance) (*factory.Factory, *kittytest.Buffer) {
	f, out, _ := factorytest.New(t)
	f.IO.ErrOut = out
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return insts, nil }
	return f, out
}

func TestDoctorJSON(t *testing.T) {
	old := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.26.5-ls.json"), Version: kitty.Version{Major: 0, Minor: 26, Patch: 5}})
	newer := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	f, out := testFactory(t, []kitty.Instance{
		{Addr: old.Addr, Socket: old.Addr.String(), PID: 10, Version: kitty.Version{Major: 0, Minor: 26, Patch: 5}, Source: "kitty.conf listen_on"},
		{Addr: newer.Addr, Socket: newer.Addr.String(), PID: 11, Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}, Source: "KITTY_LISTEN_ON"},
		{Addr: kitty.Address{Path: "/nonexistent/k"}, Socket: "unix:/nonexistent/k", Source: "--to"},
	})
	if err := os.MkdirAll(f.Paths.StateDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Run(t.Context(), Options{JSON: true}.From(f)); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !r.OK || len(r.Kitties) != 3 {
		t.Fatalf("report: %+v", r)
	}
	k0, k1, k2 := r.Kitties[0], r.Kitties[1], r.Kitties[2]
	if k0.Version != "0.26.5" || !k0.Reachable || k0.Windows != 3 || k0.Features["save_as_session"].Available || k0.Features["save_as_session"].Needs != "0.43.0" {
		t.Errorf("0.26.5 kitty: %+v", k0)
	}
	if !k1.Features["save_as_session"].Available || !k1.Features["on_quit"].Available || k1.Windows != 6 {
		t.Errorf("0.48.2 kitty: %+v", k1)
	}
	if k2.Reachable || !strings.Contains(k2.Error, "no kitty socket") {
		t.Errorf("missing socket: %+v", k2)
	}
	if r.StateDir.OK || !strings.Contains(r.StateDir.Problem, "0755") {
		t.Errorf("a 0755 state dir is not flagged: %+v", r.StateDir)
	}
	if r.Scanner.Running {
		t.Errorf("scanner reported running")
	}
}

func TestDoctorNoKitty(t *testing.T) {
	f, out := testFactory(t, nil)
	err := Run(t.Context(), Options{}.From(f))
	if !errors.Is(err, factory.ErrNoKitty) {
		t.Fatalf("err = %v", err)
	}
	if code := factory.Report(out, err); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(out.String(), "allow_remote_control socket-only") || !strings.Contains(out.String(), "listen_on unix:") {
		t.Errorf("no kitty.conf hint:\n%s", out)
	}
	// --json: the report says it, and the exit code is still 1.
	f, out = testFactory(t, nil)
	err = Run(t.Context(), Options{JSON: true}.From(f))
	if code := factory.Report(out, err); code != 1 {
		t.Errorf("--json exit %d, want 1", code)
	}
	var r Report
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil || r.OK || !strings.Contains(r.Hint, "listen_on") {
		t.Errorf("json report: %+v %v", r, jerr)
	}
}

func TestDoctorAgents(t *testing.T) {
	bin := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// claude whose help lacks --continue; cline, an agent CLI with no definition.
	write("claude", "echo 'Usage: claude [options]'; echo '  -r, --resume [value]  Resume'; echo '  --session-id <uuid>'\n")
	write("cline", "exit 0\n")
	t.Setenv("PATH", bin)
	f, out := testFactory(t, nil)
	f.Getenv = os.Getenv
	_ = Run(t.Context(), Options{JSON: true}.From(f))
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(r.Agents.Installed) != 1 || r.Agents.Installed[0].Agent != "claude" {
		t.Fatalf("installed: %+v", r.Agents.Installed)
	}
	if !cmp.Equal(r.Agents.Failing, []string{"claude"}) || !slices.Contains(r.Agents.Installed[0].Missing, "--continue") {
		t.Errorf("failing: %v, missing %v", r.Agents.Failing, r.Agents.Installed[0].Missing)
	}
	if !cmp.Equal(r.Agents.Undefined, []string{"cline"}) {
		t.Errorf("undefined: %v", r.Agents.Undefined)
	}
	// The text report names both.
	f, out = testFactory(t, nil)
	f.Getenv = os.Getenv
	_ = Run(t.Context(), Options{}.From(f))
	for _, want := range []string{"cline", "no definition", "claude", "--continue", "(probed "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// Hung kitties are asked at once (one deadline for all), and kitty's error
// text reaches the report without its escape sequences.
func TestDoctorHostileKitties(t *testing.T) {
	release := make(chan struct{})
	var insts []kitty.Instance
	for range 4 {
		k := kittytest.StartFake(t, kittytest.FakeOptions{})
		k.Hook(func(kittytest.Request) ([]byte, bool) { <-release; return nil, true })
		insts = append(insts, kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), Source: "kitty.conf listen_on"})
	}
	t.Cleanup(func() { close(release) }) // before the fakes stop
	evil := kittytest.StartFake(t, kittytest.FakeOptions{})
	evil.Hook(func(kittytest.Request) ([]byte, bool) {
		return []byte("\x1bP@kitty-cmd{\"ok\": false, \"error\": \"bad\\u001b]0;pwned\\u0007\\u009b2J\"}\x1b\\"), true
	})
	insts = append(insts, kitty.Instance{Addr: evil.Addr, Socket: evil.Addr.String(), Source: "kitty.conf listen_on"})

	const deadline = 500 * time.Millisecond
	f, out := testFactory(t, insts)
	f.AskTimeout = deadline
	start := time.Now()
	err := Run(t.Context(), Options{}.From(f))
	if took := time.Since(start); took >= 2*deadline {
		t.Errorf("four hung kitties took %v, want about one deadline (%v)", took, deadline)
	}
	factory.Report(out, err)
	if got := strings.Count(out.String(), "NOT reachable: kitty @ ls at "); got != 5 {
		t.Errorf("%d kitties reported unreachable, want 5:\n%s", got, out)
	}
	if !strings.Contains(out.String(), "]0;pwned") || strings.ContainsAny(out.String(), "\x1b\x07\u009b") {
		t.Errorf("escape sequences printed: %q", out)
	}
}

// TestDoctorIntegrations: doctor shows each agent's hooks as `integration
// status` does, naming an older install.
func TestDoctorIntegrations(t *testing.T) {
	k := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	f, out := testFactory(t, []kitty.Instance{{Addr: k.Addr, Socket: k.Addr.String(), Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}, Source: "--to"}})
	home := t.TempDir()
	f.Getenv = func(n string) string {
		if n == "HOME" {
			return home
		}
		return ""
	}
	f.Executable = "/usr/local/bin/kittymux"
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	old := `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"/usr/local/bin/kittymux hook claude SessionStart"}]}]}}`
	if err := os.WriteFile(settings, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Run(t.Context(), Options{}.From(f)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "hooks      claude       outdated v0  "+settings+": ") ||
		!strings.Contains(out.String(), "this kittymux installs v1 (`kittymux integration install claude`)") {
		t.Errorf("doctor does not name the outdated hooks:\n%s", out)
	}
	out.Reset()
	if err := Run(t.Context(), Options{JSON: true}.From(f)); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Integrations) != 1 || r.Integrations[0].Agent != "claude" || r.Integrations[0].State != "outdated" || r.Integrations[0].Current != 1 {
		t.Errorf("integrations: %+v", r.Integrations)
	}
}

// TestDoctorKittyVersion: doctor says what works on the kitty found and
// what needs a newer one, and never reports autosave on where no kitty
// found can save: with a kitty 0.26.5 alone it is off and says why; with
// 0.48.2 it is on.
func TestDoctorKittyVersion(t *testing.T) {
	for _, tc := range []struct {
		version kitty.Version
		ls      string
		want    []string
		not     string
	}{
		{kitty.Version{Major: 0, Minor: 26, Patch: 5}, "0.26.5-ls.json", []string{
			"  kitty 0.26.5: works: the scanner, recover, restart, hooks, the restore prompt; needs a newer kitty: save, autosave and restore (0.43.0 or newer), the quit capture (0.46.2 or newer)\n",
			"autosave   off: kitty 0.26.5 cannot save its layout (save, autosave and restore need kitty 0.43.0 or newer); `kittymux sessions recover` rebuilds from the journal\n",
			"(save_as_session needs 0.43.0)\n",
		}, "autosave   on"},
		{kitty.Version{Major: 0, Minor: 48, Patch: 2}, "0.48.2/ls.json", []string{
			"  kitty 0.48.2: every part works (save, autosave and restore: 0.43.0; the quit capture: 0.46.2)\n",
			"autosave   on: settle 20s",
		}, "autosave   off"},
	} {
		fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, tc.ls), Version: tc.version})
		f, out := testFactory(t, []kitty.Instance{
			{Addr: fake.Addr, Socket: fake.Addr.String(), PID: 10, Version: tc.version, Source: "kitty.conf listen_on"},
		})
		if err := Run(t.Context(), Options{}.From(f)); err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("kitty %s: no %q in\n%s", tc.version, want, out)
			}
		}
		if strings.Contains(out.String(), tc.not) {
			t.Errorf("kitty %s: %q in\n%s", tc.version, tc.not, out)
		}
		out.Reset()
		if err := Run(t.Context(), Options{JSON: true}.From(f)); err != nil {
			t.Fatal(err)
		}
		var r Report
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		canSave := tc.version.AtLeast(kitty.VersionSaveAsSession)
		if r.Scanner.Autosave.On != canSave || r.Kitties[0].Works != tc.version.WhatWorks() {
			t.Errorf("kitty %s: autosave on %v, works %q", tc.version, r.Scanner.Autosave.On, r.Kitties[0].Works)
		}
	}
}

// TestDoctorHintIsSetups: with no kitty, doctor's advice quotes the
// listen_on line `kittymux setup` writes for this user.
func TestDoctorHintIsSetups(t *testing.T) {
	f, out := testFactory(t, nil)
	run := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	f.Getenv = func(k string) string {
		if k == "XDG_RUNTIME_DIR" {
			return run
		}
		return ""
	}
	_ = Run(t.Context(), Options{JSON: true}.From(f))
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	listen, err := setup.ListenOn(f.Paths, f.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Hint, "\n    listen_on "+listen+"\n") || !strings.Contains(r.Hint, "allow_remote_control socket-only") {
		t.Errorf("hint %q does not quote setup's listen_on %s", r.Hint, listen)
	}
}

// TestDoctorInstalledKitty: with no kitty running, doctor tells what works
// on the kitty installed on PATH, and autosave is off where that kitty
// cannot save.
func TestDoctorInstalledKitty(t *testing.T) {
	for _, tc := range []struct {
		version, works string
		autosave       bool
	}{
		{"0, 26, 5", "installed: kitty 0.26.5 (", false},
		{"0, 48, 2", "installed: kitty 0.48.2 (", true},
	} {
		f, out := testFactory(t, nil)
		root := t.TempDir()
		for name, text := range map[string]string{
			"bin/kitty":                    "#!/bin/sh\nexit 1\n",
			"lib/kitty/kitty/constants.py": "version: Version = Version(" + tc.version + ")\n",
		} {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		f.Getenv = func(k string) string {
			if k == "PATH" {
				return filepath.Join(root, "bin")
			}
			return ""
		}
		_ = Run(t.Context(), Options{}.From(f))
		if !strings.Contains(out.String(), tc.works) {
			t.Errorf("kitty %s: no %q in\n%s", tc.version, tc.works, out)
		}
		if on := strings.Contains(out.String(), "\nautosave   on:"); on != tc.autosave {
			t.Errorf("kitty %s: autosave on %v, want %v:\n%s", tc.version, on, tc.autosave, out)
		}
	}
}
