package prompt_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/resumerecord"
)

const (
	pkgJSON   = `{"name": "@anthropic-ai/claude-code", "bin": {"claude": "cli.js"}}`
	claudePkg = "node_modules/@anthropic-ai/claude-code"
)

// hostileWorld is a world with the files hostile records point at: copies
// of the agent that are not the installed one ($X/claude, ./claude,
// ../d/claude), a fake npm package outside PATH ($X/node_modules/...), a
// symlink to the installed agent ($Y/claude) and, for npm cases, an npm
// install of claude whose bin is on PATH ($NPM).
func hostileWorld(t *testing.T, npm bool) *world {
	t.Helper()
	w := newWorld(t)
	agent, err := os.ReadFile(filepath.Join(w.agents, "claude"))
	if err != nil {
		t.Fatal(err)
	}
	file := func(p string, data []byte, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
	}
	x := filepath.Join(w.dir, "x")
	file(filepath.Join(x, "claude"), agent, 0o755)
	file(filepath.Join(x, "other", "claude"), agent, 0o755)
	file(filepath.Join(x, "node"), agent, 0o755)
	file(filepath.Join(w.cwd, "claude"), agent, 0o755)
	file(filepath.Join(w.dir, "d", "claude"), agent, 0o755)
	file(filepath.Join(x, claudePkg, "package.json"), []byte(pkgJSON), 0o644)
	file(filepath.Join(x, claudePkg, "cli.js"), agent, 0o755)
	file(filepath.Join(x, "node_modules/@openai/codex-linux-x64/vendor/bin/codex"), agent, 0o755)
	if err := os.MkdirAll(filepath.Join(w.dir, "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(w.agents, "claude"), filepath.Join(w.dir, "y", "claude")); err != nil {
		t.Fatal(err)
	}
	if npm {
		lib := filepath.Join(w.dir, "npm", "lib", claudePkg)
		file(filepath.Join(lib, "package.json"), []byte(pkgJSON), 0o644)
		file(filepath.Join(lib, "cli.js"), []byte("#!/usr/bin/env node\n"), 0o755)
		file(filepath.Join(lib, "other.js"), []byte("#!/usr/bin/env node\n"), 0o755)
		bin := filepath.Join(w.dir, "npm", "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join("..", "lib", claudePkg, "cli.js"), filepath.Join(bin, "claude")); err != nil {
			t.Fatal(err)
		}
		w.pathPre = bin
	}
	return w
}

// expand puts the world's directories into a case's words.
func (w *world) expand(words []string) []string {
	r := strings.NewReplacer("$X", filepath.Join(w.dir, "x"), "$Y", filepath.Join(w.dir, "y"), "$A", w.agents,
		"$NPM", filepath.Join(w.dir, "npm"), "$D", w.dir)
	out := make([]string, len(words))
	for i, s := range words {
		out[i] = r.Replace(s)
	}
	return out
}

// files lists the regular files under dirs, to see that a record wrote none.
// The journal (and its lock and turns) is left out: the prompt records there what
// the window became, whatever the record.
func files(dirs ...string) []string {
	var out []string
	for _, dir := range dirs {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			// So is its outcome queued for the journal (.restores).
			switch filepath.Base(p) {
			case "agent-sessions.json", "agent-sessions.json.log", "agent-sessions.json.lock", "agent-sessions.json.turn", "agent-sessions.json.restores":
				return nil
			}
			// A resume's lease (state/kittymux/leases) is the prompt's own.
			if d := filepath.Base(filepath.Dir(p)); err == nil && !info.IsDir() && d != "leases" {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

// runNoTerminal runs the prompt as kitty would with no terminal to ask: stdin
// not a tty. Agent and shell are fakes that log and exit at once.
func (w *world) runNoTerminal(args []string, env []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.bin, args...)
	cmd.Env = append(append(w.env(), "FAKEAGENT_EXIT=0"), env...)
	cmd.Dir = w.cwd
	out, err := cmd.CombinedOutput()
	return string(out), err
}

type trustCase struct {
	name string
	args []string // the record; $X, $Y, $A, $NPM, $D are the world's directories
	// seal: the record is sealed with this machine's key, as kittymux
	// writes it; tamper then edits the sealed words, as a person would.
	seal   bool
	tamper func([]string) []string
	npm    bool                         // claude installed from npm, its bin first on PATH
	setup  func(t *testing.T, w *world) // before the run
	env    []string                     // the prompt's environment, added
	want   []string                     // what ran: nil is the shell
	// wantEnv are variables the agent must have had.
	wantEnv map[string]string
	why     string // in the prompt's output
}

func rec(extra []string, argv ...string) []string {
	a := append([]string{"--agent", "claude", "--mode", "exact", "--id", uuid}, extra...)
	return append(append(a, "--"), argv...)
}

func claudeArgv(argv0 string) []string { return []string{argv0, "--resume", uuid} }

// replace swaps one word of a sealed record.
func replace(old, new string) func([]string) []string {
	return func(a []string) []string {
		out := slices.Clone(a)
		for i, w := range out {
			if w == old {
				out[i] = new
			}
		}
		return out
	}
}

// insert puts words before the record's "--".
func insert(words ...string) func([]string) []string {
	return func(a []string) []string {
		i := slices.Index(a, "--")
		return slices.Concat(a[:i], words, a[i:])
	}
}

func trustCases() []trustCase {
	resumed := []string{"claude", "--resume", uuid}
	cases := []trustCase{
		// The program: the agent as installed, nothing called claude.
		{name: "copy named claude outside PATH", args: rec(nil, claudeArgv("$X/claude")...), why: "not the claude found on PATH"},
		{name: "copy outside PATH, sealed without the file that ran", args: rec(nil, claudeArgv("$X/claude")...), seal: true, why: "not the claude found on PATH"},
		{name: "copy outside PATH, sealed as the file that ran", args: rec([]string{"--exe", "$X/claude"}, claudeArgv("$X/claude")...), seal: true, want: resumed},
		{name: "copy outside PATH, unsealed --exe is not believed", args: rec([]string{"--exe", "$X/claude"}, claudeArgv("$X/claude")...), why: "not the claude found on PATH"},
		{name: "sealed --exe names another file", args: rec([]string{"--exe", "$X/other/claude"}, claudeArgv("$X/claude")...), seal: true, why: "not the claude found on PATH"},
		{name: "./claude", args: rec(nil, claudeArgv("./claude")...), why: "relative"},
		{name: "./claude sealed", args: rec([]string{"--exe", "$D/work/claude"}, claudeArgv("./claude")...), seal: true, why: "relative"},
		{name: "../d/claude", args: rec(nil, claudeArgv("../d/claude")...), why: "relative"},
		{name: "../d/claude sealed", args: rec(nil, claudeArgv("../d/claude")...), seal: true, why: "relative"},
		{name: "d/claude", args: rec(nil, claudeArgv("d/claude")...), why: "relative"},
		{name: "claude.js is not a program name", args: rec(nil, claudeArgv("claude.js")...), seal: true, why: "program names"},
		{name: "python3 with a copy", args: rec(nil, "python3", "$X/claude", "--resume", uuid), why: "not the entry script"},
		{name: "python3 with a copy, sealed", args: rec(nil, "python3", "$X/claude", "--resume", uuid), seal: true, why: "not the entry script"},
		{name: "python3 relative script", args: rec(nil, "python3", "claude", "--resume", uuid), seal: true, why: "not an absolute path"},
		{name: "node with a package copy outside PATH", npm: true, args: rec(nil, "node", "$X/"+claudePkg+"/cli.js", "--resume", uuid), why: "not the entry script"},
		{name: "node with a package copy outside PATH, sealed", npm: true, args: rec(nil, "node", "$X/"+claudePkg+"/cli.js", "--resume", uuid), seal: true, why: "not the entry script"},
		{name: "node with another script of the installed package", npm: true, args: rec(nil, "node", "$NPM/lib/"+claudePkg+"/other.js", "--resume", uuid), seal: true, why: "not the entry script"},
		{name: "node --require before the entry", npm: true, args: rec(nil, "node", "--require", "/tmp/evil.js", "$NPM/lib/"+claudePkg+"/cli.js", "--resume", uuid), seal: true},
		{name: "node options before the entry", npm: true, args: rec(nil, "node", "--max-old-space-size=4096", "$NPM/lib/"+claudePkg+"/cli.js", "--resume", uuid), seal: true, why: "interpreter options"},
		{name: "an interpreter copy outside PATH", npm: true, args: rec(nil, "$X/node", "$NPM/lib/"+claudePkg+"/cli.js", "--resume", uuid), seal: true, why: "not the node found on PATH"},
		{name: "node with the installed entry, sealed", npm: true, args: rec(nil, "node", "$NPM/lib/"+claudePkg+"/cli.js", "--resume", uuid), seal: true,
			want: []string{"node", "$NPM/lib/" + claudePkg + "/cli.js", "--resume", uuid}},
		{name: "node with the installed entry, unsealed", npm: true, args: rec(nil, "node", "$NPM/lib/"+claudePkg+"/cli.js", "--resume", uuid), why: "edited"},
		{name: "codex's native child copied", args: []string{"--agent", "codex", "--mode", "exact", "--id", codex, "--", "$X/node_modules/@openai/codex-linux-x64/vendor/bin/codex", "resume", codex}, why: "not the codex found on PATH"},
		{name: "the installed file by absolute path, sealed", args: rec(nil, claudeArgv("$A/claude")...), seal: true, want: resumed},
		{name: "a symlink to the installed file, sealed", args: rec(nil, claudeArgv("$Y/claude")...), seal: true, want: resumed},
		{name: "the installed file by absolute path, unsealed", args: rec(nil, claudeArgv("$A/claude")...), why: "edited"},

		// Environment: only what kittymux saw, so only sealed.
		{name: "NODE_OPTIONS --require", args: rec([]string{"--env", "NODE_OPTIONS=--require=/tmp/evil.js"}, resumed...), why: "NODE_OPTIONS"},
		{name: "NODE_OPTIONS sealed", args: rec([]string{"--env", "NODE_OPTIONS=--require=/tmp/evil.js"}, resumed...), seal: true, want: resumed,
			wantEnv: map[string]string{"NODE_OPTIONS": "--require=/tmp/evil.js"}},
		// An older kittymux sealed what a printed line named.
		{name: "the window's own variables, sealed", args: rec([]string{"--env", "KITTY_WINDOW_ID=3"}, resumed...), seal: true, why: "KITTY_WINDOW_ID"},
		{name: "kittymux's own variables, sealed", args: rec([]string{"--env", "KITTYMUX_RESUME=auto"}, resumed...), seal: true, why: "KITTYMUX_RESUME"},
		{name: "WINDOWID, sealed", args: rec([]string{"--env", "WINDOWID=5"}, resumed...), seal: true, why: "WINDOWID"},
		{name: "BASH_ENV", args: rec([]string{"--env", "BASH_ENV=/tmp/evil.sh"}, resumed...), why: "BASH_ENV"},
		{name: "BASH_ENV sealed", args: rec([]string{"--env", "BASH_ENV=/tmp/evil.sh"}, resumed...), seal: true, want: resumed,
			wantEnv: map[string]string{"BASH_ENV": "/tmp/evil.sh"}},
		{name: "HOME", args: rec([]string{"--env", "HOME=/tmp/h"}, resumed...), why: "HOME"},
		{name: "HOME sealed", args: rec([]string{"--env", "HOME=/tmp/h"}, resumed...), seal: true, want: resumed, wantEnv: map[string]string{"HOME": "/tmp/h"}},
		{name: "CLAUDE_CONFIG_DIR", args: rec([]string{"--env", "CLAUDE_CONFIG_DIR=/tmp/c"}, resumed...), why: "CLAUDE_CONFIG_DIR"},
		{name: "CLAUDE_CONFIG_DIR sealed", args: rec([]string{"--env", "CLAUDE_CONFIG_DIR=/tmp/c"}, resumed...), seal: true, want: resumed,
			wantEnv: map[string]string{"CLAUDE_CONFIG_DIR": "/tmp/c"}},
		{name: "CODEX_HOME", args: []string{"--agent", "codex", "--mode", "exact", "--id", codex, "--env", "CODEX_HOME=/tmp/c", "--", "codex", "resume", codex}, why: "CODEX_HOME"},
		{name: "ENV", args: rec([]string{"--env", "ENV=/tmp/evil.sh"}, resumed...), why: "ENV"},
		{name: "LD_PRELOAD", args: rec([]string{"--env", "LD_PRELOAD=/tmp/x.so"}, resumed...), why: "LD_PRELOAD"},
		{name: "DYLD_INSERT_LIBRARIES", args: rec([]string{"--env", "DYLD_INSERT_LIBRARIES=/tmp/x.dylib"}, resumed...), why: "DYLD_INSERT_LIBRARIES"},
		{name: "PATH", args: rec([]string{"--env", "PATH=/tmp"}, resumed...), why: "PATH"},
		{name: "XDG_CONFIG_HOME", args: rec([]string{"--env", "XDG_CONFIG_HOME=/tmp/c"}, resumed...), why: "XDG_CONFIG_HOME"},
		{name: "PYTHONPATH", args: rec([]string{"--env", "PYTHONPATH=/tmp"}, resumed...), why: "PYTHONPATH"},
		{name: "PERL5OPT", args: rec([]string{"--env", "PERL5OPT=-Mevil"}, resumed...), why: "PERL5OPT"},
		{name: "RUBYOPT", args: rec([]string{"--env", "RUBYOPT=-revil"}, resumed...), why: "RUBYOPT"},
		{name: "ANTHROPIC_BASE_URL", args: rec([]string{"--env", "ANTHROPIC_BASE_URL=https://evil.example"}, resumed...), why: "ANTHROPIC_BASE_URL"},
		{name: "lowercase https_proxy", args: rec([]string{"--env", "https_proxy=http://evil.example"}, resumed...), why: "https_proxy"},
		{name: "GEMINI_CLI_HOME", args: []string{"--agent", "gemini", "--mode", "latest", "--env", "GEMINI_CLI_HOME=/tmp/g", "--", "gemini", "--resume", "latest"}, why: "GEMINI_CLI_HOME"},
		{name: "a plain variable, unsealed", args: rec([]string{"--env", "FORCE_COLOR=1"}, resumed...), why: "edited"},

		// The seal: kittymux's, on this machine, over this very record.
		{name: "no seal", args: rec(nil, resumed...), why: "not sealed"},
		{name: "no seal, --direct", args: rec([]string{"--direct"}, resumed...), why: "edited"},
		{name: "no seal, KITTYMUX_RESUME=auto", args: rec(nil, resumed...), env: []string{"KITTYMUX_RESUME=auto"}, why: "edited"},
		{name: "no seal, resume-auto file", args: rec(nil, resumed...), why: "edited",
			setup: func(t *testing.T, w *world) { os.WriteFile(filepath.Join(w.state, "resume-auto"), nil, 0o600) }},
		{name: "sealed runs with no terminal", args: rec(nil, resumed...), seal: true, want: resumed},
		{name: "sealed --direct", args: rec([]string{"--direct"}, resumed...), seal: true, want: resumed},
		{name: "argv changed after sealing", args: rec(nil, resumed...), seal: true, tamper: replace("--resume", "--model"), why: "not what kittymux writes"},
		{name: "flag added after sealing", args: rec(nil, "claude", "--model", "sonnet", "--resume", uuid), seal: true, tamper: replace("sonnet", "opus"), why: "seal does not match"},
		{name: "env added after sealing", args: rec(nil, resumed...), seal: true, tamper: insert("--env", "FORCE_COLOR=1"), why: "seal does not match"},
		{name: "--direct added after sealing", args: rec(nil, resumed...), seal: true, tamper: insert("--direct"), why: "seal does not match"},
		{name: "--exe added after sealing", args: rec(nil, claudeArgv("$X/claude")...), seal: true, tamper: insert("--exe", "$X/claude"), why: "not the claude found on PATH"},
		{name: "tab changed after sealing", args: rec([]string{"--tab", "api"}, resumed...), seal: true, tamper: replace("api", "web"), why: "seal does not match"},
		{name: "seal from another machine", args: rec(nil, resumed...), seal: true, why: "seal does not match",
			setup: func(t *testing.T, w *world) {
				replaceKey(t, w, []byte(strings.Repeat("k", resumerecord.KeySize)), 0o600)
			}},
		{name: "no key on this machine", args: rec(nil, resumed...), seal: true, why: "no sealing key",
			setup: func(t *testing.T, w *world) { os.Remove(filepath.Join(w.state, "resume-key")) }},
		{name: "key readable by others", args: rec(nil, resumed...), seal: true, why: "edited",
			setup: func(t *testing.T, w *world) { os.Chmod(filepath.Join(w.state, "resume-key"), 0o644) }},
		{name: "key of the wrong size", args: rec(nil, resumed...), seal: true, why: "edited",
			setup: func(t *testing.T, w *world) { replaceKey(t, w, w.key[:16], 0o600) }},
		{name: "seal not hex", args: rec([]string{"--seal", strings.Repeat("Z", 64)}, resumed...), why: "not a seal"},
		{name: "seal twice", args: rec(nil, resumed...), seal: true, tamper: insert("--seal", strings.Repeat("0", 64)), why: "given twice"},
		{name: "--exe relative", args: rec([]string{"--exe", "x/claude"}, resumed...), why: "not a clean absolute path"},

		// A seal never makes an invalid record valid.
		{name: "sealed sh -c", args: rec(nil, "sh", "-c", "touch x"), seal: true, why: "not a known agent"},
		{name: "sealed env wrapper", args: rec(nil, "env", "X=1", "claude", "--resume", uuid), seal: true},
		{name: "sealed prompt argument", args: rec(nil, "claude", "--resume", uuid, "touch x"), seal: true, why: "prompt"},
		{name: "sealed one-shot", args: rec(nil, "claude", "--resume", uuid, "--print", "hi"), seal: true, why: "one-shot"},
		{name: "sealed option as id", args: []string{"--agent", "claude", "--mode", "exact", "--id", "--dangerously-skip-permissions", "--", "claude", "--resume", "--dangerously-skip-permissions"}, seal: true},
		{name: "sealed, agent not installed", args: []string{"--agent", "copilot", "--mode", "latest", "--", "copilot", "--continue"}, seal: true, why: "not installed"},
	}
	// The records an edited file could hold that fail validation outright.
	for i, args := range hostileInvalid {
		cases = append(cases, trustCase{name: "invalid " + string(rune('a'+i%26)) + string(rune('0'+i/26)), args: args})
	}
	return cases
}

func replaceKey(t *testing.T, w *world, key []byte, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(w.state, "resume-key")
	os.Remove(p)
	if err := os.WriteFile(p, key, mode); err != nil {
		t.Fatal(err)
	}
}

// hostileInvalid are records someone could write into an editable session
// file that fail validation whatever their seal.
var hostileInvalid = [][]string{
	{"--agent", "claude", "--mode", "exact", "--id", "--dangerously-skip-permissions", "--", "claude", "--resume", "--dangerously-skip-permissions"},
	{"--agent", "claude", "--mode", "exact", "--id", "$(touch x)", "--", "claude", "--resume", "$(touch x)"},
	{"--agent", "claude", "--mode", "exact", "--id", "`touch x`", "--", "claude", "--resume", "`touch x`"},
	{"--agent", "claude", "--mode", "exact", "--id", "a;b", "--", "claude", "--resume", "a;b"},
	{"--agent", "claude", "--mode", "exact", "--id", "a\nb", "--", "claude", "--resume", "a\nb"},
	{"--agent", "claude", "--mode", "exact", "--id", "a b", "--", "claude", "--resume", "a b"},
	{"--agent", "claude", "--mode", "exact", "--id", "x|touch x", "--", "claude", "--resume", "x|touch x"},
	{"--agent", "claude", "--mode", "exact", "--id", "x&&touch x", "--", "claude", "--resume", "x&&touch x"},
	{"--agent", "claude", "--mode", "exact", "--id", "x>x", "--", "claude", "--resume", "x>x"},
	{"--agent", "claude", "--mode", "exact", "--id", "../../etc/passwd", "--", "claude", "--resume", "../../etc/passwd"},
	{"--agent", "claude", "--mode", "exact", "--id", "", "--", "claude", "--resume", ""},
	{"--agent", "claude", "--mode", "exact", "--id", "-r", "--", "claude", "--resume", "-r"},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "/bin/sh", "-c", "touch x"},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "sh", "-c", "touch x; claude --resume " + uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "bash", "-c", "claude --resume " + uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "env", "X=1", "claude", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "X=1", "claude", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "claude", "--resume", uuid, "touch x"},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "claude", "--resume", uuid, "--print", "hi"},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "claude", "-p", "touch x", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "claude", "--resume", "11111111-2222-4333-8444-555555555555"},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "claude", "--model", "opus"},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--", "claude", "--resume", uuid, "--resume", uuid},
	{"--agent", "codex", "--mode", "exact", "--id", uuid, "--", "claude", "--resume", uuid},
	{"--agent", "evil", "--mode", "exact", "--id", uuid, "--", "claude", "--resume", uuid},
	{"--agent", "codex", "--mode", "exact", "--id", codex, "--", "codex", "exec", "touch x"},
	{"--agent", "codex", "--mode", "exact", "--id", codex, "--", "codex", "resume", codex, "touch x"},
	{"--agent", "codex", "--mode", "exact", "--id", "--last", "--", "codex", "resume", "--last"},
	{"--agent", "codex", "--mode", "exact", "--id", codex + ";touch x", "--", "codex", "resume", codex + ";touch x"},
	{"--agent", "opencode", "--mode", "latest", "--", "opencode", "--continue", "fix the tests"},
	{"--agent", "claude", "--mode", "latest", "--", "claude", "--continue", "--print", "touch x"},
	{"--agent", "claude", "--mode", "new", "--", "claude", "touch x"},
	{"--agent", "claude", "--mode", "run", "--id", uuid, "--", "claude", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--exec", "touch x", "--", "claude", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "claude", "--resume", uuid},
	{"--agent", "claude", "--agent", "codex", "--mode", "exact", "--id", uuid, "--", "claude", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--"},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--env", "A B=1", "--", "claude", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--env", "NOVALUE", "--", "claude", "--resume", uuid},
	{"--agent", "claude", "--mode", "exact", "--id", uuid, "--env", "X=a\x1bb", "--", "claude", "--resume", uuid},
}

// TestHostileRecords runs each record through the real kittymux-resume
// with no terminal, a logging fake agent and a logging fake shell: each
// ends in the shell, saying why, or runs exactly the sealed command. None
// writes a file.
func TestHostileRecords(t *testing.T) {
	cases := trustCases()
	if len(cases) < 50 {
		t.Fatalf("only %d hostile records", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := hostileWorld(t, c.npm)
			args := w.expand(c.args)
			if c.seal {
				args = w.seal(args)
			}
			if c.tamper != nil {
				args = w.expand(c.tamper(args))
			}
			if c.setup != nil {
				c.setup(t, w)
			}
			before := files(w.cwd, w.home)
			out, err := w.runNoTerminal(args, c.env)
			recs := w.log.Records()
			var ran [][]string
			for _, r := range recs {
				ran = append(ran, append([]string{r.Name}, r.Args...))
			}
			want := [][]string{{"-fakesh"}}
			if c.want != nil {
				want = [][]string{w.expand(c.want)}
			}
			if diff := cmp.Diff(want, ran); diff != "" {
				t.Fatalf("record %q ran (-want +got):\n%s\nexit %v, output:\n%s", args, diff, err, out)
			}
			for k, v := range c.wantEnv {
				if got := recs[0].Env[k]; got != v {
					t.Errorf("the agent's %s = %q, want %q", k, got, v)
				}
			}
			if c.want == nil {
				if !strings.Contains(out, "kittymux: ") || !strings.Contains(out, c.why) {
					t.Errorf("output does not say why (%q):\n%s", c.why, out)
				}
				// What the record asked for never reached the shell.
				for _, k := range []string{"NODE_OPTIONS", "BASH_ENV", "CLAUDE_CONFIG_DIR"} {
					if v, ok := recs[0].Env[k]; ok {
						t.Errorf("the shell got %s=%s", k, v)
					}
				}
			}
			if diff := cmp.Diff(before, files(w.cwd, w.home)); diff != "" {
				t.Errorf("files changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestEditedRecordAsks: a record that validates but is not sealed is shown
// in full, marked unconfirmed (kittymux saw no process to seal it by, or an
// edit dropped the seal), and runs only on a key press, whatever auto mode.
func TestEditedRecordAsks(t *testing.T) {
	resume := []string{"claude", "--model", "sonnet", "--resume", uuid}
	for _, c := range []struct {
		name  string
		args  []string
		env   []string
		setup func(w *world)
	}{
		{"plain", claudeRecord(), nil, nil},
		{"--direct", claudeRecord("--direct"), nil, nil},
		{"KITTYMUX_RESUME=auto", claudeRecord(), []string{"KITTYMUX_RESUME=auto"}, nil},
		{"resume-auto file", claudeRecord(), nil, func(w *world) { os.WriteFile(filepath.Join(w.state, "resume-auto"), nil, 0o600) }},
		{"another window's resume all", claudeRecord(), nil, func(w *world) {
			until := time.Now().Add(time.Minute).Unix()
			os.WriteFile(filepath.Join(w.state, "resume-all-until"), []byte(strconv.FormatInt(until, 10)), 0o600)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.extraEnv = c.env
			if c.setup != nil {
				c.setup(w)
			}
			r := w.runPTY(c.args, "s", true)
			if diff := cmp.Diff([]string{"-fakesh"}, argvOf(r)); diff != "" {
				t.Errorf("s: (-want +got):\n%s\n%s", diff, r.out)
			}
			for _, want := range []string{"(unconfirmed)", "not sealed", "Enter  claude --model sonnet --resume " + uuid} {
				if !strings.Contains(r.out, want) {
					t.Errorf("prompt lacks %q:\n%s", want, r.out)
				}
			}
			r = w.runPTY(c.args, "\r", true)
			if diff := cmp.Diff(resume, argvOf(r)); diff != "" {
				t.Errorf("Enter: (-want +got):\n%s\n%s", diff, r.out)
			}
		})
	}
	t.Run("node with the npm package's entry", func(t *testing.T) {
		w := hostileWorld(t, true)
		entry := filepath.Join(w.dir, "npm", "lib", claudePkg, "cli.js")
		r := w.runPTY(rec(nil, "node", entry, "--resume", uuid), "\r", true)
		if diff := cmp.Diff([]string{"node", entry, "--resume", uuid}, argvOf(r)); diff != "" {
			t.Errorf("(-want +got):\n%s\n%s", diff, r.out)
		}
	})
}
