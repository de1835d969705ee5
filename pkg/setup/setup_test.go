package setup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/paths"
)

// fakeSystemd is a user manager that records what it is asked.
type fakeSystemd struct {
	running, enabled, active bool
	calls                    [][]string
}

func (f *fakeSystemd) Running(context.Context) bool         { return f.running }
func (f *fakeSystemd) Enabled(context.Context, string) bool { return f.enabled }
func (f *fakeSystemd) Active(context.Context, string) bool  { return f.active }
func (f *fakeSystemd) Run(_ context.Context, args ...string) error {
	f.calls = append(f.calls, args)
	switch args[0] {
	case "enable":
		f.enabled, f.active = true, true
	case "disable":
		f.enabled, f.active = false, false
	}
	return nil
}

// testEnv copies testdata/<name>/kitty (a kitty configuration directory;
// "" for none) into a throw-away home and returns an Env rooted there.
func testEnv(t *testing.T, name string) (Env, string) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	confDir := filepath.Join(home, ".config", "kitty")
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if name != "" {
		if err := os.CopyFS(confDir, os.DirFS(filepath.Join("testdata", name, "kitty"))); err != nil {
			t.Fatal(err)
		}
		// CopyFS makes files 0644 whatever the source: give kitty.conf the
		// mode a careful user has, to see that it is kept.
		if err := os.Chmod(filepath.Join(confDir, "kitty.conf"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(root, "bin", "kittymux")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The runtime directory, as systemd makes it: the user's, 0700.
	if err := os.Mkdir(filepath.Join(root, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "XDG_RUNTIME_DIR": filepath.Join(root, "run")}
	return Env{
		Paths:        paths.Paths{StateDir: filepath.Join(home, ".local", "state", "kittymux"), ConfigDir: filepath.Join(home, ".config", "kittymux")},
		KittyConfDir: confDir,
		Home:         home,
		Getenv:       func(k string) string { return env[k] },
		Executable:   exe,
	}, root
}

// entry is one file of a snapshot: its mode and content (a link: its target).
type entry struct {
	Mode fs.FileMode
	Data string
}

func snapshot(t *testing.T, root string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		e := entry{Mode: fi.Mode()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Data, err = os.Readlink(p)
		case fi.Mode().IsRegular():
			var b []byte
			b, err = os.ReadFile(p)
			e.Data = string(b)
		}
		out[rel] = e
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func apply(t *testing.T, e Env, plan func(context.Context, Env) (Plan, error)) Plan {
	t.Helper()
	p, err := plan(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	return p
}

func listing(p Plan) string {
	var b bytes.Buffer
	p.Print(&b)
	return b.String()
}

var confCases = []string{"plain", "includes", "password", ""}

// Applied twice, setup changes kitty.conf once, by exactly one line (and
// the newline a last line lacked), and the second run has nothing to do.
func TestSetupTwiceIsOneChange(t *testing.T) {
	for _, name := range confCases {
		t.Run("conf="+name, func(t *testing.T) {
			e, _ := testEnv(t, name)
			orig, _ := os.ReadFile(e.KittyConf())
			first := apply(t, e, PlanSetup)
			if first.Empty() {
				t.Fatal("first setup changed nothing")
			}
			got, err := os.ReadFile(e.KittyConf())
			if err != nil {
				t.Fatal(err)
			}
			want := string(orig)
			if want != "" && !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			want += "include ~/.config/kittymux/kitty.conf\n"
			if diff := cmp.Diff(want, string(got)); diff != "" {
				t.Errorf("kitty.conf after setup (-want +got):\n%s", diff)
			}
			second, err := PlanSetup(context.Background(), e)
			if err != nil {
				t.Fatal(err)
			}
			if !second.Empty() {
				t.Errorf("second setup would change:\n%s", listing(second))
			}
		})
	}
}

// --undo gives kitty.conf back its original bytes and mode (no kitty.conf:
// none again) and removes every file setup wrote, the backup too.
func TestUndoRestoresOriginal(t *testing.T) {
	for _, name := range confCases {
		t.Run("conf="+name, func(t *testing.T) {
			e, root := testEnv(t, name)
			before := snapshot(t, root)
			apply(t, e, PlanSetup)
			if _, err := os.Stat(e.Watcher()); err != nil {
				t.Fatalf("setup wrote no watcher: %v", err)
			}
			apply(t, e, PlanUndo)
			after := snapshot(t, root)
			// Directories setup made may stay (kittymux's config and state
			// directories); no file may differ.
			for p, en := range after {
				if _, ok := before[p]; !ok && en.Mode.IsDir() {
					delete(after, p)
				}
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("after setup and --undo (-before +after):\n%s", diff)
			}
			again, err := PlanUndo(context.Background(), e)
			if err != nil {
				t.Fatal(err)
			}
			if !again.Empty() {
				t.Errorf("a second --undo would change:\n%s", listing(again))
			}
		})
	}
}

// kitty.conf that is a link (a dotfiles repository) stays a link: the file
// it leads to gets the line, and --undo gives it back.
func TestSetupThroughLink(t *testing.T) {
	e, root := testEnv(t, "")
	dot := filepath.Join(root, "dotfiles", "kitty.conf")
	if err := os.MkdirAll(filepath.Dir(dot), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := []byte("font_size 12\n")
	if err := os.WriteFile(dot, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../dotfiles/kitty.conf", e.KittyConf()); err != nil {
		t.Fatal(err)
	}
	apply(t, e, PlanSetup)
	if fi, err := os.Lstat(e.KittyConf()); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("kitty.conf is no longer a link: %v %v", fi, err)
	}
	got, _ := os.ReadFile(dot)
	if want := "font_size 12\ninclude ~/.config/kittymux/kitty.conf\n"; string(got) != want {
		t.Errorf("linked file = %q, want %q", got, want)
	}
	apply(t, e, PlanUndo)
	got, _ = os.ReadFile(dot)
	if !bytes.Equal(got, orig) {
		t.Errorf("after --undo linked file = %q, want %q", got, orig)
	}
}

// A kitty.conf edited after setup loses only the include line on --undo;
// the backup stays, as it is no longer what kitty.conf holds.
func TestUndoAfterEdit(t *testing.T) {
	e, _ := testEnv(t, "plain")
	orig, _ := os.ReadFile(e.KittyConf())
	apply(t, e, PlanSetup)
	f, err := os.OpenFile(e.KittyConf(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("font_size 14\n")
	f.Close()
	p := apply(t, e, PlanUndo)
	got, _ := os.ReadFile(e.KittyConf())
	if want := string(orig) + "font_size 14\n"; string(got) != want {
		t.Errorf("kitty.conf after --undo:\n%s", cmp.Diff(want, string(got)))
	}
	backup, err := os.ReadFile(e.KittyConf() + BackupSuffix)
	if err != nil || !bytes.Equal(backup, orig) {
		t.Errorf("backup = %q, %v; want the original kept", backup, err)
	}
	if !strings.Contains(listing(p), "changed since setup") {
		t.Errorf("--undo did not say kitty.conf changed:\n%s", listing(p))
	}
}

// The included file has remote control and listen_on only where the
// user's configuration lacks them, and always the watcher.
func TestIncludedFile(t *testing.T) {
	for _, tc := range []struct {
		name, conf string
		want       []string
	}{
		{"nothing set", "font_size 12\n", []string{"allow_remote_control socket-only", "listen_on unix:RUN/kitty", "watcher WATCHER"}},
		{"off and none", "allow_remote_control no\nlisten_on none\n", []string{"allow_remote_control socket-only", "listen_on unix:RUN/kitty", "watcher WATCHER"}},
		{"socket-only and a socket", "allow_remote_control socket-only\nlisten_on unix:/tmp/k\n", []string{"watcher WATCHER"}},
		{"yes kept", "allow_remote_control yes\n", []string{"listen_on unix:RUN/kitty", "watcher WATCHER"}},
		{"password kept", "allow_remote_control password\nlisten_on unix:/tmp/k\n", []string{"watcher WATCHER"}},
		{"commented out", "# allow_remote_control yes\n# listen_on unix:/tmp/k\n", []string{"allow_remote_control socket-only", "listen_on unix:RUN/kitty", "watcher WATCHER"}},
		{"last wins", "listen_on unix:/tmp/k\nlisten_on none\n", []string{"allow_remote_control socket-only", "listen_on unix:RUN/kitty", "watcher WATCHER"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, root := testEnv(t, "")
			if err := os.WriteFile(e.KittyConf(), []byte(tc.conf), 0o644); err != nil {
				t.Fatal(err)
			}
			apply(t, e, PlanSetup)
			data, err := os.ReadFile(e.Included())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if !strings.HasPrefix(l, "#") {
					l = strings.ReplaceAll(l, filepath.Join(root, "run"), "RUN")
					got = append(got, strings.ReplaceAll(l, e.Watcher(), "WATCHER"))
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("included file (-want +got):\n%s", diff)
			}
		})
	}
}

// Where a user systemd runs, setup installs and starts the scanner's unit
// (and the watcher does not start it); twice is once; --undo stops and
// removes it. Elsewhere the watcher starts the scanner.
func TestScannerStart(t *testing.T) {
	e, _ := testEnv(t, "plain")
	getenv := e.Getenv
	e.Getenv = func(k string) string {
		if k == "PATH" {
			return "/home/u/.npm-global/bin:/usr/bin"
		}
		return getenv(k)
	}
	sd := &fakeSystemd{running: true}
	e.Systemd = sd
	apply(t, e, PlanSetup)
	unit, err := os.ReadFile(e.Unit())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`ExecStart="` + e.Executable + `" scanner run`, `Environment="PATH=/home/u/.npm-global/bin:/usr/bin"`} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("unit lacks %s:\n%s", want, unit)
		}
	}
	want := [][]string{{"daemon-reload"}, {"enable", UnitName}, {"restart", UnitName}}
	if diff := cmp.Diff(want, sd.calls); diff != "" {
		t.Errorf("systemctl --user calls (-want +got):\n%s", diff)
	}
	if s := readSettings(t, e); s.StartScanner {
		t.Error("the watcher starts the scanner although systemd does")
	}
	if p := apply(t, e, PlanSetup); !p.Empty() {
		t.Errorf("second setup would change:\n%s", listing(p))
	}
	sd.active = false // stopped by the user: setup starts it again
	sd.calls = nil
	apply(t, e, PlanSetup)
	if diff := cmp.Diff([][]string{{"enable", "--now", UnitName}}, sd.calls); diff != "" {
		t.Errorf("systemctl calls for a stopped unit (-want +got):\n%s", diff)
	}
	sd.calls = nil
	apply(t, e, PlanUndo)
	if diff := cmp.Diff([][]string{{"disable", "--now", UnitName}, {"daemon-reload"}}, sd.calls); diff != "" {
		t.Errorf("systemctl calls of --undo (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(e.Unit()); err == nil {
		t.Error("--undo left the unit")
	}

	e2, _ := testEnv(t, "plain")
	e2.Systemd = &fakeSystemd{running: false}
	apply(t, e2, PlanSetup)
	if s := readSettings(t, e2); !s.StartScanner {
		t.Error("without systemd the watcher does not start the scanner")
	}
	if _, err := os.Stat(e2.Unit()); err == nil {
		t.Error("a unit was written without systemd")
	}
}

func readSettings(t *testing.T, e Env) WatcherSettings {
	t.Helper()
	data, err := os.ReadFile(e.Settings())
	if err != nil {
		t.Fatal(err)
	}
	var s WatcherSettings
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRemoveLine(t *testing.T) {
	const l = "include ~/.config/kittymux/kitty.conf"
	for _, tc := range []struct {
		name, in     string
		newlineAdded bool
		want         string
		found        bool
	}{
		{"last", "a\n" + l + "\n", false, "a\n", true},
		{"last, newline added", "a\n" + l + "\n", true, "a", true},
		{"middle keeps the rest", "a\n" + l + "\nb\n", true, "a\nb\n", true},
		{"only line", l + "\n", false, "", true},
		{"no newline after it", "a\n" + l, false, "a\n", true},
		{"crlf", "a\r\n" + l + "\r\n", false, "a\r\n", true},
		{"indented is not ours", "a\n  " + l + "\n", false, "a\n  " + l + "\n", false},
		{"absent", "a\n", false, "a\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, found := removeLine([]byte(tc.in), l, tc.newlineAdded)
			if string(got) != tc.want || found != tc.found {
				t.Errorf("removeLine(%q) = %q, %v; want %q, %v", tc.in, got, found, tc.want, tc.found)
			}
		})
	}
}

func TestDiffLines(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		want       []string
	}{
		{"append", "a\nb\n", "a\nb\nc\n", []string{"@@ line 3", "+ c"}},
		{"append without newline", "a\nb", "a\nb\nc\n", []string{"@@ line 3", "+ c", `\ a newline is added at the end of what was the last line`}},
		{"replace", "a\nb\nc\n", "a\nB\nc\n", []string{"@@ line 2", "+ B", "- b"}},
		{"two hunks", "a\nb\nc\nd\n", "x\nb\nc\ny\n", []string{"@@ line 1", "+ x", "- a", "@@ line 4", "+ y", "- d"}},
		{"new file", "", "a\n", []string{"@@ line 1", "+ a"}},
		{"same", "a\n", "a\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, diffLines([]byte(tc.a), []byte(tc.b))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// doctor's parts: before setup each says to run it; after it, include,
// remote control, socket and watcher are ok.
func TestCheck(t *testing.T) {
	e, _ := testEnv(t, "plain")
	names := func(ps []Part, ok bool) []string {
		var out []string
		for _, p := range ps {
			if p.OK == ok {
				out = append(out, p.Name)
			}
		}
		return out
	}
	before := Check(context.Background(), e, false)
	if diff := cmp.Diff([]string{"include", "remote_control", "socket", "watcher", "scanner", "autosave"}, names(before, false)); diff != "" {
		t.Errorf("parts not ok before setup (-want +got):\n%s", diff)
	}
	for _, p := range before[:4] {
		if !strings.Contains(p.Note, "kittymux setup") {
			t.Errorf("%s: %q does not say to run kittymux setup", p.Name, p.Note)
		}
	}
	apply(t, e, PlanSetup)
	after := Check(context.Background(), e, true)
	if diff := cmp.Diff([]string{"include", "remote_control", "socket", "watcher", "scanner", "autosave"}, names(after, true)); diff != "" {
		t.Errorf("parts ok after setup (-want +got):\n%s\n%+v", diff, after)
	}
	// A watcher from another version is named.
	if err := os.WriteFile(e.Watcher(), []byte("# old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(e.Paths.StateDir, "autosave-off"), nil, 0o600)
	got := Check(context.Background(), e, true)
	if i := slices.IndexFunc(got, func(p Part) bool { return p.Name == "watcher" }); got[i].OK || !strings.Contains(got[i].Note, "another version") {
		t.Errorf("changed watcher: %+v", got[i])
	}
	if i := slices.IndexFunc(got, func(p Part) bool { return p.Name == "autosave" }); got[i].OK || !strings.Contains(got[i].Note, "off") {
		t.Errorf("autosave-off: %+v", got[i])
	}
}

// returns fails the test when fn has not returned in a long while: a read
// that blocks on a FIFO never returns at all.
func returns(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still blocked after 20 s", what)
	}
}

// A FIFO (no writer: opening it for reading blocks) or a device where a
// file of the configuration or of kittymux's own is expected: setup,
// --undo and doctor's check say so, and none of them blocks.
func TestFIFOsAndDevicesRefused(t *testing.T) {
	mkfifo := func(t *testing.T, path string) {
		t.Helper()
		os.Remove(path)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		// prepare puts the FIFO (or device) in place, after setup when
		// setup runs first.
		setupFirst bool
		prepare    func(t *testing.T, e Env)
		// run returns what it said: an error or the check's notes.
		run func(e Env) string
	}{
		{"FIFO included by kitty.conf, setup --dry-run", false, func(t *testing.T, e Env) {
			mkfifo(t, filepath.Join(e.KittyConfDir, "fifo.conf"))
			appendTo(t, e.KittyConf(), "include fifo.conf\n")
		}, planError(PlanSetup)},
		{"device included by kitty.conf", false, func(t *testing.T, e Env) {
			appendTo(t, e.KittyConf(), "include "+os.DevNull+"\n")
		}, planError(PlanSetup)},
		{"kitty.conf a FIFO", false, func(t *testing.T, e Env) { mkfifo(t, e.KittyConf()) }, planError(PlanSetup)},
		{"kitty.conf a FIFO, --undo", true, func(t *testing.T, e Env) { mkfifo(t, e.KittyConf()) }, planError(PlanUndo)},
		{"setup's record a FIFO, --undo", true, func(t *testing.T, e Env) { mkfifo(t, e.record()) }, planError(PlanUndo)},
		{"watcher a FIFO, check", true, func(t *testing.T, e Env) { mkfifo(t, e.Watcher()) }, checkNotes},
		{"watcher settings a FIFO, check", true, func(t *testing.T, e Env) { mkfifo(t, e.Settings()) }, checkNotes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := testEnv(t, "plain")
			if tc.setupFirst {
				apply(t, e, PlanSetup)
			}
			tc.prepare(t, e)
			var said string
			returns(t, tc.name, func() { said = tc.run(e) })
			if !strings.Contains(said, "not a regular file") {
				t.Errorf("said %q, want it to name a file that is not a regular file", said)
			}
		})
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func planError(plan func(context.Context, Env) (Plan, error)) func(Env) string {
	return func(e Env) string {
		_, err := plan(context.Background(), e)
		if err == nil {
			return ""
		}
		return err.Error()
	}
}

func checkNotes(e Env) string {
	var notes []string
	for _, p := range Check(context.Background(), e, false) {
		notes = append(notes, p.Note)
	}
	return strings.Join(notes, "\n")
}

// The first backup is the user's kitty.conf from before kittymux: a later
// setup never replaces it, and the --undo of a later setup never removes
// it. Here kitty.conf is edited after the first setup, so the first --undo
// keeps the backup; the second setup keeps its own copy beside it, and the
// second --undo removes only that one.
func TestFirstBackupNeverReplacedOrRemoved(t *testing.T) {
	e, _ := testEnv(t, "plain")
	orig, _ := os.ReadFile(e.KittyConf())
	first := e.KittyConf() + BackupSuffix
	apply(t, e, PlanSetup)
	appendTo(t, e.KittyConf(), "font_size 14\n")
	apply(t, e, PlanUndo)
	edited, _ := os.ReadFile(e.KittyConf())
	second := apply(t, e, PlanSetup)
	if !strings.Contains(listing(second), first+".2") {
		t.Errorf("the second setup does not name its own backup:\n%s", listing(second))
	}
	apply(t, e, PlanUndo)
	if got, _ := os.ReadFile(e.KittyConf()); !bytes.Equal(got, edited) {
		t.Errorf("kitty.conf after the second --undo = %q, want %q", got, edited)
	}
	if got, err := os.ReadFile(first); err != nil || !bytes.Equal(got, orig) {
		t.Errorf("first backup = %q, %v; want the original %q", got, err, orig)
	}
	if _, err := os.Lstat(first + ".2"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the second setup's backup is still there: %v", err)
	}
	// Once more with kitty.conf as it was at the first setup: the first
	// backup already holds it, and no --undo removes it.
	if err := os.WriteFile(e.KittyConf(), orig, 0o600); err != nil {
		t.Fatal(err)
	}
	apply(t, e, PlanSetup)
	apply(t, e, PlanUndo)
	if got, err := os.ReadFile(first); err != nil || !bytes.Equal(got, orig) {
		t.Errorf("first backup after a third setup and --undo = %q, %v; want the original", got, err)
	}
	if m, _ := filepath.Glob(first + ".*"); len(m) > 0 {
		t.Errorf("backups left: %q", m)
	}
}
