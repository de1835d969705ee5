package root_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestNewAsksOnATerminal drives `sessions new NAME` in a pseudo-terminal:
// it asks for the template, the agent among the installed ones and the
// directory (the current one offered), and never queries the terminal;
// ctrl+c leaves with exit 2 and nothing written.
func TestNewAsksOnATerminal(t *testing.T) {
	t.Parallel()
	km, err := exec.LookPath("kittymux")
	if err != nil {
		t.Fatalf("kittymux is not on PATH; testscript.Main puts it there: %v", err)
	}
	tmp := t.TempDir()
	bin, home, proj := filepath.Join(tmp, "bin"), filepath.Join(tmp, "home"), filepath.Join(tmp, "proj")
	for _, d := range []string{bin, home, proj} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	kittyArgs := filepath.Join(tmp, "kitty-args")
	for name, script := range map[string]string{
		"claude": "#!/bin/sh\nexit 0\n",
		"codex":  "#!/bin/sh\nexit 0\n",
		// The new kitty: what it was asked to open.
		"kitty": "#!/bin/sh\necho \"$@\" > " + kittyArgs + "\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + bin + ":/usr/bin:/bin", "TERM=xterm-256color"}
	state := paths.Paths{StateDir: filepath.Join(home, ".local", "state", "kittymux")}
	session := state.Session("work")

	const down, enter = "\x1b[B", "\r"
	run := kittytest.RunPTY(t, kittytest.PTYOptions{Path: km, Args: []string{"sessions", "new", "work"}, Env: env, Dir: proj,
		WaitFor: "Template", Timeout: 40 * time.Second,
		// duo (the second template), codex (the second agent), the
		// directory as offered.
		Steps: []kittytest.PTYStep{{Keys: down, Then: "> 2 duo"}, {Keys: enter, Then: "Agent"},
			{Keys: down, Then: "> 2 codex"}, {Keys: enter, Then: "Directory"}, {Keys: enter}}})
	if !run.Exited || run.Code != 0 {
		t.Fatalf("exit %d (exited %v); output:\n%s", run.Code, run.Exited, run.Out)
	}
	noQueries(t, run.Out)
	got, err := os.ReadFile(session)
	if err != nil {
		t.Fatalf("%v; output:\n%s", err, run.Out)
	}
	want := `# kittymux template "duo": two agents side by side, a shell below.
new_tab work
layout fat
cd ` + proj + `
launch --title codex codex
launch --title codex codex
launch --title shell
`
	if string(got) != want {
		t.Errorf("session:\n%s\nwant:\n%s\noutput:\n%s", got, want, run.Out)
	}
	if b, _ := os.ReadFile(kittyArgs); string(b) != "--session "+session+"\n" {
		t.Errorf("kitty started with %q", b)
	}

	// plain runs no agent: the form asks no agent. ctrl+c at the directory
	// leaves it.
	run = kittytest.RunPTY(t, kittytest.PTYOptions{Path: km, Args: []string{"sessions", "new", "other", "--template", "plain"},
		Env: env, Dir: proj, WaitFor: "Directory", Timeout: 40 * time.Second, Keys: []string{"\x03"}})
	if !run.Exited || run.Code != 2 {
		t.Fatalf("ctrl+c: exit %d (exited %v); output:\n%s", run.Code, run.Exited, run.Out)
	}
	if _, err := os.Stat(state.Session("other")); err == nil {
		t.Error("a session was written after ctrl+c")
	}
}

// noQueries fails t when out asks the terminal a question: its answer
// would arrive among the keys typed.
func noQueries(t *testing.T, out string) {
	t.Helper()
	if q := termQueries.FindAllString(out, -1); q != nil {
		t.Errorf("the terminal was asked %q; output:\n%q", q, out)
	}
}
