package save_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/save"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/prompt"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// The test binary doubles as kittymux-resume.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "kittymux-resume" {
		os.Exit(prompt.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

const (
	w4ID    = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	codexID = "0199a213-81c0-7800-8aa1-bbab2a035a53"
)

// TestSaveRestoreEndToEnd: save through a fake kitty that serves real
// kitty 0.48.2 output, its agent processes running for real (fake agents
// with the fixture's argv, so the save reads them from /proc), then bring
// each saved window back as kitty's loader would (the command of its launch
// line, in a terminal), press Enter in each prompt, and read what the fake
// agents were exec'd with.
func TestSaveRestoreEndToEnd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the save reads the agents' processes from /proc: Linux only")
	}
	binDir, log := kittytest.FakeAgents(t, "claude", "codex", "opencode", "fakesh")
	tmp := t.TempDir()
	self, _ := os.Executable()
	resume := filepath.Join(tmp, "kittymux-resume")
	if err := os.Symlink(self, resume); err != nil {
		t.Fatal(err)
	}
	// The save names codex by its absolute path: put the fake there.
	saved := kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	saved = bytes.ReplaceAll(saved, []byte("/home/u/.local/bin/codex"), []byte(filepath.Join(binDir, "codex")))
	ls := bytes.ReplaceAll(kittytest.Fixture(t, "0.48.2/ls.json"), []byte("/home/u/.local/bin/codex"), []byte(filepath.Join(binDir, "codex")))
	// The windows' directories are real ones: each record's seal holds in
	// its own directory only, where the prompt then runs.
	code := filepath.Join(tmp, "code")
	for _, d := range []string{"api", "web"} {
		if err := os.MkdirAll(filepath.Join(code, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	saved = bytes.ReplaceAll(saved, []byte("/home/u/code"), []byte(code))
	ls = bytes.ReplaceAll(ls, []byte("/home/u/code"), []byte(code))
	for pid, argv := range map[string][]string{
		"25378": {"claude", "--model", "opus", "--dangerously-skip-permissions"},
		"25379": {filepath.Join(binDir, "codex"), "resume", codexID},
		"25409": {"claude", "--resume", w4ID, "--model", "sonnet"},
		"25422": {"claude"},
		"25438": {"opencode", "-m", "anthropic/claude", "fix the tests"},
	} {
		cmd := exec.Command(filepath.Join(binDir, filepath.Base(argv[0])), argv[1:]...)
		cmd.Args = argv
		cmd.Env = append(log.Env(), "PATH="+binDir+":/usr/bin:/bin")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		ls = regexp.MustCompile(`\b`+pid+`\b`).ReplaceAll(ls, []byte(strconv.Itoa(cmd.Process.Pid)))
	}
	log.WaitFor(t, 5, 30*time.Second) // each agent has started
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: ls, Session: saved})

	home := filepath.Join(tmp, "home")
	os.MkdirAll(home, 0o755)
	t.Setenv("PATH", binDir+":/usr/bin:/bin") // the probes find the fake agents
	env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": home, "KITTYMUX_RESUME_BIN": resume}
	f, out, errOut := factorytest.New(t)
	// The prompt finds the state (and the sealing key) from XDG_STATE_HOME.
	f.Paths = paths.Paths{StateDir: filepath.Join(tmp, "state", "kittymux"), ConfigDir: filepath.Join(tmp, "config", "kittymux")}
	f.Getenv = func(k string) string { return env[k] }
	f.To = fake.Addr.String()
	if err := save.Save(t.Context(), save.SaveOptions{Name: "work"}.From(f)); err != nil {
		t.Fatalf("save: %v\n%s", err, errOut.String())
	}
	published, err := os.ReadFile(f.Paths.Session("work"))
	if err != nil {
		t.Fatal(err)
	}
	file, err := sessionfile.Parse(published)
	if err != nil {
		t.Fatal(err)
	}

	// kitty is gone; a new one loads the published file. Each agent window
	// runs its command: the prompt. Enter in each.
	got := map[int][]string{}
	for _, ref := range file.Windows() {
		l := ref.Line.Launch
		argv := l.Argv
		if c := l.Unserialize.CmdAtShellStartup; c.Set {
			if !c.IsList {
				t.Errorf("window %d: a typed string survived: %q", l.Unserialize.ID(), c.String)
				continue
			}
			argv = c.List
		}
		if len(argv) == 0 {
			continue // a shell at its prompt
		}
		if argv[0] != resume {
			t.Errorf("window %d runs %q, not the prompt", l.Unserialize.ID(), argv)
			continue
		}
		before := len(log.Records())
		run := kittytest.RunPTY(t, kittytest.PTYOptions{
			Path: argv[0], Args: argv[1:], Dir: ref.Cwd, Keys: []string{"\r"}, WaitFor: "i commands",
			Env:  append(log.Env(), "HOME="+home, "SHELL="+filepath.Join(binDir, "fakesh"), "XDG_STATE_HOME="+filepath.Join(tmp, "state")),
			Done: func() bool { return len(log.Records()) > before },
		})
		recs := log.Records()[before:]
		// The save sealed each record with this user's key: none is edited.
		if strings.Contains(run.Out, "edited") {
			t.Errorf("window %d: the record the save wrote shows as edited:\n%s", l.Unserialize.ID(), run.Out)
		}
		if len(recs) != 1 {
			t.Errorf("window %d: %d runs; output:\n%s", l.Unserialize.ID(), len(recs), run.Out)
			continue
		}
		got[l.Unserialize.ID()] = append([]string{recs[0].Name}, recs[0].Args...)
	}
	want := map[int][]string{
		1: {"claude", "--model", "opus", "--dangerously-skip-permissions", "--continue"},
		2: {"codex", "resume", codexID},
		4: {"claude", "--model", "sonnet", "--resume", w4ID},
		5: {"claude"}, // another claude shares ~/code/web and no id is known: new
		6: {"opencode", "-m", "anthropic/claude", "--continue"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s\nsave said:\n%s", diff, out.String())
	}
}
