package prompt_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/prompt"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// The test binary doubles as kittymux-resume: a link to it under that name
// runs the real prompt.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "kittymux-resume" {
		os.Exit(prompt.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

const (
	// The prompt tests' own conversation id: their real kitties wait on it,
	// and `sessions recover` in another test asks every kitty of the user.
	uuid  = "3e8b5c17-9d2f-4a6e-b0c4-7f1a2d9e6b38"
	codex = "0199a213-81c0-7800-8aa1-bbab2a035a53"
)

type world struct {
	t        *testing.T
	bin      string // kittymux-resume
	agents   string // fake agents' dir
	log      *kittytest.AgentLog
	home     string
	cwd      string
	state    string
	dir      string // the world's root
	key      []byte // the sealing key in state
	pathPre  string // a directory before the fake agents on PATH
	extraEnv []string
	// until, when set, must also hold before a run in a pty counts as
	// done (the agent is stopped then): what the agent does after it
	// starts.
	until func() bool
}

func newWorld(t *testing.T) *world {
	t.Helper()
	binDir, log := kittytest.FakeAgents(t, "claude", "codex", "opencode", "gemini", "fakesh", "node", "python3")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	d := t.TempDir()
	w := &world{t: t, dir: d, agents: binDir, log: log, home: filepath.Join(d, "home"), cwd: filepath.Join(d, "work")}
	w.state = filepath.Join(w.home, ".local", "state", "kittymux")
	for _, p := range []string{w.home, w.cwd, filepath.Join(d, "bin")} {
		os.MkdirAll(p, 0o755)
	}
	w.bin = filepath.Join(d, "bin", "kittymux-resume")
	if err := os.Symlink(self, w.bin); err != nil {
		t.Fatal(err)
	}
	w.key, err = resumerecord.LoadOrCreateKey(paths.Paths{StateDir: w.state})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// seal seals a record's arguments as kittymux writes them.
func (w *world) seal(args []string) []string {
	w.t.Helper()
	r, err := resumerecord.ParseArgs(args)
	if err != nil {
		w.t.Fatalf("seal %q: %v", args, err)
	}
	// Where the prompt runs: the seal holds only there. A directory with
	// control characters is never one a record names (the save writes its
	// safe parent): such a record is not sealed for it.
	if r.Dir == "" && !strings.ContainsFunc(w.cwd, unicode.IsControl) {
		r.Dir = w.cwd
	}
	return r.Sealed(w.key).Args()
}

func (w *world) env() []string {
	path := w.agents + ":/usr/bin:/bin"
	if w.pathPre != "" {
		path = w.pathPre + ":" + path
	}
	return append([]string{
		"PATH=" + path,
		"HOME=" + w.home,
		"SHELL=" + filepath.Join(w.agents, "fakesh"),
		"FAKEAGENT_LOG=" + w.log.Path,
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"TERM=xterm-256color",
		// Plain text to compare; TestEmphasis checks the emphasis.
		"NO_COLOR=1",
		// Starts without asking are not spaced here; TestStaggeredStarts
		// spaces them.
		"KITTYMUX_RESUME_INTERVAL=0",
	}, w.extraEnv...)
}

type run struct {
	out     string
	records []kittytest.AgentRecord
	exited  bool
	code    int
}

// runPTY starts the prompt in a pseudo-terminal, waits for its question
// (unless wantPrompt is false), types keys, and waits until something was
// exec'd (a record in the fake agents' log) or the prompt exited.
func (w *world) runPTY(args []string, keys string, wantPrompt bool) run {
	w.t.Helper()
	var shown func()
	if wantPrompt {
		shown = func() {}
	}
	return w.runPTYShown(args, keys, shown)
}

// runPTYShown is runPTY waiting for the prompt, running shown once it is
// there (nil: not waiting for it).
func (w *world) runPTYShown(args []string, keys string, shown func()) run {
	w.t.Helper()
	before := len(w.log.Records())
	o := kittytest.PTYOptions{Path: w.bin, Args: args, Env: w.env(), Dir: w.cwd, Keys: kittytest.Keys(keys),
		Done: func() bool { return len(w.log.Records()) > before && (w.until == nil || w.until()) }}
	if shown != nil {
		o.WaitFor, o.Shown = "i commands", shown
	}
	p := kittytest.RunPTY(w.t, o)
	return run{out: p.Out, exited: p.Exited, code: p.Code, records: w.log.Records()[before:]}
}

func argvOf(r run) []string {
	if len(r.records) != 1 {
		return []string{"<" + string(rune('0'+len(r.records))) + " records>"}
	}
	return append([]string{r.records[0].Name}, r.records[0].Args...)
}

func claudeRecord(extra ...string) []string {
	a := []string{"--agent", "claude", "--mode", "exact", "--id", uuid, "--tab", "api work"}
	a = append(a, extra...)
	return append(a, "--", "claude", "--model", "sonnet", "--resume", uuid)
}

func TestKeys(t *testing.T) {
	w := newWorld(t)
	resume := []string{"claude", "--model", "sonnet", "--resume", uuid}
	fresh := []string{"claude", "--model", "sonnet"}
	shell := []string{"-fakesh"}
	for _, c := range []struct {
		name string
		keys string
		want []string
	}{
		{"enter resumes", "\r", resume},
		{"n starts a new conversation", "n", fresh},
		{"s opens a shell", "s", shell},
		{"lone esc opens a shell", "\x1b", shell},
		{"arrow key is ignored", "\x1b[A\r", resume},
		{"ctrl-c opens a shell", "\x03", shell},
		{"i shows the commands and waits", "i\r", resume},
		{"other keys are ignored", "xq\r", resume},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := w.runPTY(w.seal(claudeRecord()), c.keys, true)
			if diff := cmp.Diff(c.want, argvOf(r)); diff != "" {
				t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
			}
			if c.name == "i shows the commands and waits" && !strings.Contains(r.out, "claude --model sonnet --resume "+uuid) {
				t.Errorf("i did not show the resume argv:\n%s", r.out)
			}
		})
	}
}

// TestPromptText: the question first and short, then the directory, the
// tab and the keys; while it waits the window's title names the agent and
// the tab, and once answered the agent's name, until the agent sets its
// own.
func TestPromptText(t *testing.T) {
	w := newWorld(t)
	r := w.runPTY(w.seal(claudeRecord()), "\r", true)
	for _, want := range []string{"claude · resume 3e8b5c17?\r\n", "  " + w.cwd + "\r\n", `tab "api work"`,
		"Enter resume", "n new conversation", "s shell", "a resume all", "i commands",
		"\x1b]2;claude ↻ api work\x1b\\", "\x1b]2;claude\x1b\\"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("prompt lacks %q:\n%q", want, r.out)
		}
	}
	if i, j := strings.Index(r.out, "↻"), strings.Index(r.out, "\x1b]2;claude\x1b"); j < i {
		t.Errorf("the agent's title came before the waiting one:\n%q", r.out)
	}
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet", "--resume", uuid}, argvOf(r)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLatestText: "in this directory" only for an agent whose latest is
// that of its directory; gemini's is per project, which kittymux treats as
// the whole machine.
func TestLatestText(t *testing.T) {
	for _, c := range []struct {
		rec  []string
		want string
	}{
		{[]string{"--agent", "claude", "--mode", "latest", "--", "claude", "--continue"},
			"claude · resume its latest conversation in this directory?"},
		{[]string{"--agent", "gemini", "--mode", "latest", "--", "gemini", "--resume", "latest"},
			"gemini · resume its latest conversation?"},
	} {
		w := newWorld(t)
		r := w.runPTY(w.seal(c.rec), "\r", true)
		if !strings.Contains(r.out, c.want+"\r\n") {
			t.Errorf("prompt lacks %q:\n%s", c.want, r.out)
		}
	}
}

func TestCodexSubcommand(t *testing.T) {
	w := newWorld(t)
	r := w.runPTY(w.seal([]string{"--agent", "codex", "--mode", "exact", "--id", codex, "--", "codex", "resume", codex}), "\r", true)
	if diff := cmp.Diff([]string{"codex", "resume", codex}, argvOf(r)); diff != "" {
		t.Errorf("(-want +got):\n%s\n%s", diff, r.out)
	}
}

func TestEnvAssignments(t *testing.T) {
	w := newWorld(t)
	args := []string{"--agent", "claude", "--mode", "exact", "--id", uuid, "--env", "FAKEAGENT_TEST_X=a b", "--", "claude", "--resume", uuid}
	r := w.runPTY(w.seal(args), "\r", true)
	if diff := cmp.Diff([]string{"claude", "--resume", uuid}, argvOf(r)); diff != "" {
		t.Fatal(diff)
	}
	if got := r.records[0].Env["FAKEAGENT_TEST_X"]; got != "a b" {
		t.Errorf("env FAKEAGENT_TEST_X = %q, want %q", got, "a b")
	}
}

func TestResumeAll(t *testing.T) {
	w := newWorld(t)
	r := w.runPTY(w.seal(claudeRecord()), "a", true)
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet", "--resume", uuid}, argvOf(r)); diff != "" {
		t.Fatalf("a: (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(w.state, "resume-all-until")); err != nil {
		t.Fatalf("a wrote no resume-all-until: %v", err)
	}
	// Another window's prompt now resumes without asking.
	r = w.runPTY(w.seal([]string{"--agent", "codex", "--mode", "exact", "--id", codex, "--", "codex", "resume", codex}), "", false)
	if diff := cmp.Diff([]string{"codex", "resume", codex}, argvOf(r)); diff != "" {
		t.Errorf("second window: (-want +got):\n%s\n%s", diff, r.out)
	}
}

func TestWaitingPromptJoinsResumeAll(t *testing.T) {
	w := newWorld(t)
	// A prompt already waiting notices another window's `a`.
	r := w.runPTYShown(w.seal(claudeRecord()), "", func() {
		os.MkdirAll(w.state, 0o700)
		until := strconv.FormatInt(time.Now().Add(time.Minute).Unix(), 10)
		os.WriteFile(filepath.Join(w.state, "resume-all-until"), []byte(until), 0o600)
	})
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet", "--resume", uuid}, argvOf(r)); diff != "" {
		t.Errorf("(-want +got):\n%s\n%s", diff, r.out)
	}
}

func TestAutoModes(t *testing.T) {
	resume := []string{"claude", "--model", "sonnet", "--resume", uuid}
	t.Run("KITTYMUX_RESUME=auto", func(t *testing.T) {
		w := newWorld(t)
		w.extraEnv = []string{"KITTYMUX_RESUME=auto"}
		if diff := cmp.Diff(resume, argvOf(w.runPTY(w.seal(claudeRecord()), "", false))); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("resume-auto file", func(t *testing.T) {
		w := newWorld(t)
		os.MkdirAll(w.state, 0o700)
		os.WriteFile(filepath.Join(w.state, "resume-auto"), nil, 0o600)
		if diff := cmp.Diff(resume, argvOf(w.runPTY(w.seal(claudeRecord()), "", false))); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("--direct save", func(t *testing.T) {
		w := newWorld(t)
		if diff := cmp.Diff(resume, argvOf(w.runPTY(w.seal(claudeRecord("--direct")), "", false))); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("no terminal runs the record's command", func(t *testing.T) {
		w := newWorld(t)
		cmd := exec.Command(w.bin, w.seal(claudeRecord())...)
		cmd.Env, cmd.Dir, cmd.Stdin = w.env(), w.cwd, nil
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		recs := w.log.WaitFor(t, 1, 10*time.Second)
		if diff := cmp.Diff(resume, append([]string{recs[0].Name}, recs[0].Args...)); diff != "" {
			t.Error(diff)
		}
	})
}

func TestShellChoices(t *testing.T) {
	t.Run("from the shell's startup, s exits back to it", func(t *testing.T) {
		w := newWorld(t)
		r := w.runPTY(w.seal(claudeRecord("--from-shell")), "s", true)
		if !r.exited || r.code != 0 || len(r.records) != 0 {
			t.Errorf("exited %v code %d records %v", r.exited, r.code, r.records)
		}
	})
	t.Run("missing agent binary opens a shell and says so", func(t *testing.T) {
		w := newWorld(t)
		os.Remove(filepath.Join(w.agents, "gemini"))
		g := "8a7b6c5d-1111-4222-8333-944455556666"
		r := w.runPTY(w.seal([]string{"--agent", "gemini", "--mode", "exact", "--id", g, "--", "gemini", "--resume", g}), "", false)
		if diff := cmp.Diff([]string{"-fakesh"}, argvOf(r)); diff != "" {
			t.Error(diff)
		}
		if !strings.Contains(r.out, "gemini is not installed") {
			t.Errorf("no message:\n%s", r.out)
		}
	})
}

func TestUsage(t *testing.T) {
	w := newWorld(t)
	for _, args := range [][]string{nil, {"--help"}} {
		cmd := exec.Command(w.bin, args...)
		cmd.Env = w.env()
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "usage: kittymux-resume") {
			t.Errorf("%q: exit %d (%v)\n%s", args, code, err, out)
		}
		if recs := w.log.Records(); len(recs) != 0 {
			t.Errorf("%q ran %v", args, recs)
		}
	}
}

// TestConfirm: a record with a word kittymux could not place (--confirm)
// shows the whole command and runs only on a key, whatever the auto mode;
// with no terminal it opens a shell. The record is sealed: an edited one
// asks anyway.
func TestConfirm(t *testing.T) {
	argv := []string{"claude", "--frobnicate", "loud", "--resume", uuid}
	raw := append([]string{"--agent", "claude", "--mode", "exact", "--id", uuid, "--confirm", "--"}, argv...)
	t.Run("auto mode still asks", func(t *testing.T) {
		w := newWorld(t)
		rec := w.seal(raw)
		w.extraEnv = []string{"KITTYMUX_RESUME=auto"}
		r := w.runPTY(rec, "\r", true)
		if diff := cmp.Diff(argv, argvOf(r)); diff != "" {
			t.Errorf("(-want +got):\n%s\n%s", diff, r.out)
		}
		if !strings.Contains(r.out, "claude --frobnicate loud --resume "+uuid) {
			t.Errorf("the command is not shown:\n%s", r.out)
		}
	})
	t.Run("no terminal opens a shell", func(t *testing.T) {
		w := newWorld(t)
		rec := w.seal(raw)
		cmd := exec.Command(w.bin, rec...)
		cmd.Env, cmd.Dir, cmd.Stdin = w.env(), w.cwd, nil
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		recs := w.log.WaitFor(t, 1, 10*time.Second)
		if diff := cmp.Diff([]string{"-fakesh"}, append([]string{recs[0].Name}, recs[0].Args...)); diff != "" {
			t.Error(diff)
		}
	})
}

// TestHostileNames: a directory named with a title change and a
// clear-screen, and a tab title with the same, reach the terminal as plain
// text; the only title the prompt sets is its own.
func TestHostileNames(t *testing.T) {
	w := newWorld(t)
	w.cwd = filepath.Join(w.dir, "api\x1b]2;pwned\x07\x1b[2J\x1b[3J\u009b2Jwork")
	if err := os.Mkdir(w.cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"--agent", "claude", "--mode", "exact", "--id", uuid, "--tab", "x\x1b]0;owned\x1b\\\x1b[H\ny",
		"--", "claude", "--resume", uuid}
	r := w.runPTY(w.seal(args), "\r", true)
	for _, bad := range []string{"pwned", "owned", "\x1b[2J", "\x1b[3J", "\x1b[H", "\u009b", "\x07"} {
		if strings.Contains(r.out, bad) {
			t.Errorf("the prompt wrote %q:\n%q", bad, r.out)
		}
	}
	for _, want := range []string{"apiwork\r\n", `tab "x y"`, "\x1b]2;claude ↻ x y\x1b\\"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the prompt lacks %q:\n%q", want, r.out)
		}
	}
	if diff := cmp.Diff([]string{"claude", "--resume", uuid}, argvOf(r)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
