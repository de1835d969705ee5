package hookinstall

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const exe = "/opt/kitty mux/bin/kittymux"

// place copies the real-looking settings file of agent a into a fresh home
// and returns the env and the file's path.
func place(t *testing.T, a Agent, fixture string) (Env, string) {
	t.Helper()
	home := t.TempDir()
	env := Env{Getenv: func(string) string { return "" }, Home: home, Exe: exe}
	path := a.Settings(env.Getenv, home)
	if fixture != "" {
		data, err := os.ReadFile(filepath.Join("testdata", fixture))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return env, path
}

func decode(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

var fixtures = map[string]string{
	"claude": "claude-settings.json", "codex": "codex-hooks.json", "gemini": "gemini-settings.json",
	"qodercli": "qodercli-settings.json", "droid": "droid-settings.json",
}

func TestInstallMergesKeepsAndUninstallRemovesExactly(t *testing.T) {
	for _, a := range Agents() {
		if a.Extension != nil {
			continue // a file of kittymux's own: TestExtension
		}
		t.Run(a.Name, func(t *testing.T) {
			env, path := place(t, a, fixtures[a.Name])
			before := decode(t, path)
			origText, _ := os.ReadFile(path)

			if st := StatusOf(a, env); st.State != Missing {
				t.Fatalf("before install: %+v", st)
			}
			ch, err := Install(a, env)
			if err != nil || !ch.Changed {
				t.Fatalf("install: %+v %v", ch, err)
			}
			if b, _ := os.ReadFile(ch.Backup); string(b) != string(origText) {
				t.Errorf("backup %s does not hold the file as it was", ch.Backup)
			}
			fi, _ := os.Stat(path)
			if fi.Mode().Perm() != 0o644 {
				t.Errorf("mode changed to %v", fi.Mode().Perm())
			}
			after := decode(t, path)

			// Every setting but "hooks" is as it was, and every hook group the
			// user had is still there, first, unchanged.
			for k, v := range before {
				if k == "hooks" {
					continue
				}
				if diff := cmp.Diff(v, after[k]); diff != "" {
					t.Errorf("setting %s changed:\n%s", k, diff)
				}
			}
			userHooks, _ := before["hooks"].(map[string]any)
			gotHooks := after["hooks"].(map[string]any)
			for ev, groups := range userHooks {
				got := gotHooks[ev].([]any)
				if diff := cmp.Diff(groups, got[:len(groups.([]any))]); diff != "" {
					t.Errorf("user's %s hooks changed:\n%s", ev, diff)
				}
			}
			for _, ev := range a.Events() {
				groups := gotHooks[ev].([]any)
				last := groups[len(groups)-1].(map[string]any)["hooks"].([]any)[0].(map[string]any)
				want := "'/opt/kitty mux/bin/kittymux' hook " + a.Name + " " + ev + " --integration=1"
				if last["command"] != want || last["type"] != "command" {
					t.Errorf("%s: kittymux's hook is %v, want command %q", ev, last, want)
				}
			}
			if st := StatusOf(a, env); st.State != Installed || st.Version != Version {
				t.Errorf("after install: %+v", st)
			}

			// Twice is once.
			installed, _ := os.ReadFile(path)
			ch, err = Install(a, env)
			if err != nil || ch.Changed {
				t.Errorf("second install: %+v %v", ch, err)
			}
			if again, _ := os.ReadFile(path); string(again) != string(installed) {
				t.Error("second install changed the file")
			}

			// Uninstall leaves the settings as they were.
			if ch, err := Uninstall(a, env); err != nil || !ch.Changed {
				t.Fatalf("uninstall: %+v %v", ch, err)
			}
			if diff := cmp.Diff(before, decode(t, path)); diff != "" {
				t.Errorf("after uninstall (-before +after):\n%s", diff)
			}
			if st := StatusOf(a, env); st.State != Missing {
				t.Errorf("after uninstall: %+v", st)
			}
			if ch, err := Uninstall(a, env); err != nil || ch.Changed {
				t.Errorf("second uninstall: %+v %v", ch, err)
			}
		})
	}
}

func TestKeyOrderAndUntouchedTextKept(t *testing.T) {
	a, _ := Find("claude")
	env, path := place(t, a, "claude-settings.json")
	if _, err := Install(a, env); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var keys []string
	for _, k := range []string{`"$schema"`, `"model"`, `"permissions"`, `"env"`, `"hooks"`, `"statusLine"`} {
		keys = append(keys, k)
		if !strings.Contains(string(data), k) {
			t.Fatalf("%s missing", k)
		}
	}
	last := -1
	for _, k := range keys {
		i := strings.Index(string(data), k)
		if i < last {
			t.Errorf("%s moved: keys are not in the user's order\n%s", k, data)
		}
		last = i
	}
	if !strings.Contains(string(data), `jq -r '.tool_input.command' >> ~/.claude/bash-log.txt`) {
		t.Errorf("the user's hook command was re-encoded:\n%s", data)
	}
}

func TestOutdatedIsReportedAndReplaced(t *testing.T) {
	a, _ := Find("claude")
	for _, tc := range []struct {
		name, settings, why string
	}{
		{"older version", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"'/opt/kitty mux/bin/kittymux' hook claude SessionStart"}]}],
			"UserPromptSubmit":[{"hooks":[{"type":"command","command":"'/opt/kitty mux/bin/kittymux' hook claude UserPromptSubmit"}]}],
			"Stop":[{"hooks":[{"type":"command","command":"'/opt/kitty mux/bin/kittymux' hook claude Stop"}]}],
			"StopFailure":[{"hooks":[{"type":"command","command":"'/opt/kitty mux/bin/kittymux' hook claude StopFailure"}]}]}}`,
			"SessionStart hook is version 0"},
		{"an event missing", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"'/opt/kitty mux/bin/kittymux' hook claude SessionStart --integration=1"}]}]}}`,
			"no Stop hook"},
		{"another binary", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"/usr/local/bin/kittymux hook claude SessionStart --integration=1"}]}]}}`,
			"SessionStart hook runs /usr/local/bin/kittymux, not this kittymux"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, path := place(t, a, "")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.settings), 0o600); err != nil {
				t.Fatal(err)
			}
			st := StatusOf(a, env)
			if st.State != Outdated || !strings.Contains(st.Why, tc.why) {
				t.Fatalf("status %+v, want outdated because %q", st, tc.why)
			}
			if _, err := Install(a, env); err != nil {
				t.Fatal(err)
			}
			if st := StatusOf(a, env); st.State != Installed {
				t.Fatalf("after install: %+v", st)
			}
			// One kittymux group per event: the old ones were replaced.
			for ev, groups := range decode(t, path)["hooks"].(map[string]any) {
				if n := len(groups.([]any)); n != 1 {
					t.Errorf("%s has %d groups", ev, n)
				}
			}
		})
	}
}

func TestRefusesWhatItCannotReadBack(t *testing.T) {
	a, _ := Find("gemini")
	for name, text := range map[string]string{
		"comments":        "{\n  // my settings\n  \"ui\": {}\n}\n",
		"duplicate key":   `{"hooks": {}, "hooks": {"Stop": []}}`,
		"hooks not array": `{"hooks": {"SessionStart": {"hooks": []}}}`,
		"not an object":   `[1]`,
	} {
		t.Run(name, func(t *testing.T) {
			env, path := place(t, a, "")
			_ = os.MkdirAll(filepath.Dir(path), 0o700)
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := Install(a, env); err == nil {
				t.Error("install succeeded")
			}
			if b, _ := os.ReadFile(path); string(b) != text {
				t.Errorf("file changed to %s", b)
			}
		})
	}
}

func TestInstallIntoNoFile(t *testing.T) {
	a, _ := Find("droid")
	env, path := place(t, a, "")
	ch, err := Install(a, env)
	if err != nil || !ch.Changed || ch.Backup != "" {
		t.Fatalf("%+v %v", ch, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", fi, err)
	}
	if st := StatusOf(a, env); st.State != Installed {
		t.Errorf("%+v", st)
	}
}

func TestSettingsPaths(t *testing.T) {
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "CODEX_HOME": "/cfg/codex", "GEMINI_CLI_HOME": "/cfg/g",
		"PI_CODING_AGENT_DIR": "/cfg/pi"}
	getenv := func(k string) string { return env[k] }
	got := map[string]string{}
	for _, a := range Agents() {
		got[a.Name] = a.Settings(getenv, "/home/u")
	}
	want := map[string]string{
		"claude": "/cfg/claude/settings.json", "codex": "/cfg/codex/hooks.json", "gemini": "/cfg/g/.gemini/settings.json",
		"qodercli": "/home/u/.qoder/settings.json", "droid": "/home/u/.factory/settings.json",
		"pi": "/cfg/pi/extensions/kittymux.ts", "opencode": "/home/u/.config/opencode/plugins/kittymux.js",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

// The backup keeps the user's own bytes, whatever kittymux does after, and
// uninstall after install gives the file back byte for byte; a settings
// file that is a link (a dotfiles repository) stays one, and the file it
// leads to is what changes.
func TestBackupAndLinkKeepTheUsersFile(t *testing.T) {
	for _, linked := range []bool{false, true} {
		t.Run(map[bool]string{false: "file", true: "link"}[linked], func(t *testing.T) {
			a, _ := Find("claude")
			env, path := place(t, a, "claude-settings.json")
			orig, _ := os.ReadFile(path)
			real := path
			if linked {
				real = filepath.Join(env.Home, "dotfiles", "claude.json")
				if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(path, real); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("../dotfiles/claude.json", path); err != nil {
					t.Fatal(err)
				}
			}
			backup := path + BackupSuffix
			check := func(t *testing.T, when string, wantInstalled bool) {
				t.Helper()
				if linked {
					if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
						t.Fatalf("%s: %s is no longer a link: %v", when, path, err)
					}
				}
				got, _ := os.ReadFile(real)
				if installed := strings.Contains(string(got), "kittymux"); installed != wantInstalled {
					t.Errorf("%s: hooks in %s: %v, want %v", when, real, installed, wantInstalled)
				}
				if !wantInstalled && string(got) != string(orig) {
					t.Errorf("%s: %s is not the user's bytes:\n%s", when, real, cmp.Diff(string(orig), string(got)))
				}
				if b, err := os.ReadFile(backup); err != nil || string(b) != string(orig) {
					t.Errorf("%s: backup = %q, %v; want the user's bytes", when, b, err)
				}
				if m, _ := filepath.Glob(backup + ".*"); len(m) > 0 {
					t.Errorf("%s: more backups: %q", when, m)
				}
			}
			for round := range 2 {
				if ch, err := Install(a, env); err != nil || !ch.Changed || ch.Backup != backup {
					t.Fatalf("install %d: %+v %v", round, ch, err)
				}
				check(t, fmt.Sprintf("install %d", round), true)
				if ch, err := Uninstall(a, env); err != nil || !ch.Changed {
					t.Fatalf("uninstall %d: %+v %v", round, ch, err)
				}
				check(t, fmt.Sprintf("uninstall %d", round), false)
			}
		})
	}
}

// A FIFO where the settings file is: refused at once, not waited on.
func TestSettingsFIFORefused(t *testing.T) {
	a, _ := Find("claude")
	env, path := place(t, a, "")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Install(a, env)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("err = %v, want the FIFO refused", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("still blocked on the FIFO after 20 s")
	}
}
