package agents_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/grammar"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// Command lines as people type them for each real CLI, read with the grammar
// of that CLI's captured help (as a probe of the installed CLI gives it), and
// the exact resume argv kittymux builds. Each case also checks that no value
// the help says an option takes was lost, that the definition alone (the
// fallback, and what the restore prompt validates with) builds the same argv,
// and that the prompt's validation accepts it.

const (
	uid  = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	uid2 = "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"
	ses  = "ses_3a9f1c2b7d"
)

type lineCase struct {
	name string
	line string
	// exact is the argv resuming the conversation; nil: the line is kept as
	// saved (a one-shot run or a helper).
	exact []string
	// latest, when set, is the argv resuming the latest conversation.
	latest []string
}

func runLines(t *testing.T, agent, id string, cases []lineCase) {
	t.Helper()
	runLinesWith(t, agents.CapturedGrammar(t, agent), agent, id, cases)
}

// runLinesWith reads each line with grammar g (one captured version's).
func runLinesWith(t *testing.T, g *grammar.Grammar, agent, id string, cases []lineCase) {
	t.Helper()
	s := loadShipped(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plain, ok := recognize.String(s, tc.line)
			if !ok {
				t.Fatalf("%q is not recognised", tc.line)
			}
			c := recognize.Reparse(s, plain, g)
			if c.Unsure != "" {
				t.Errorf("unsure with the help's grammar: %s", c.Unsure)
			}
			if tc.exact == nil {
				if !c.OneShot && !c.Helper {
					t.Errorf("rewritten, want kept as saved: %+v", c)
				}
				return
			}
			if c.OneShot || c.Helper {
				t.Fatalf("kept as saved (%s%s), want a resume", c.OneShotWhy, c.HelperWhy)
			}
			got, err := plan.ResumeArgv(s, c, plan.ModeExact, id)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.exact, got); diff != "" {
				t.Errorf("exact (-want +got):\n%s", diff)
			}
			if tc.latest != nil {
				lat, err := plan.ResumeArgv(s, c, plan.ModeLatest, "")
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.latest, lat); diff != "" {
					t.Errorf("latest (-want +got):\n%s", diff)
				}
			}
			for _, lost := range lostValues(s, agent, g, plain.Raw, got) {
				t.Errorf("the help says %s takes a value, and the resume argv lost it: %q", lost, got)
			}
			fallback, err := plan.ResumeArgv(s, plain, plan.ModeExact, id)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, fallback); diff != "" {
				t.Errorf("the definition alone builds another argv (-grammar +definition):\n%s", diff)
			}
			if err := plan.Validate(s, agent, plan.ModeExact, id, got); err != nil {
				t.Errorf("the restore prompt would refuse it: %v", err)
			}
		})
	}
}

// lostValues lists the options of args the grammar says take a value and
// the definition keeps, whose value is not beside them in out.
func lostValues(s *agents.Set, agent string, g *grammar.Grammar, args, out []string) []string {
	var lost []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" {
			break
		}
		if !strings.HasPrefix(w, "-") || len(w) < 2 {
			continue
		}
		name, _, attached := strings.Cut(w, "=")
		if !strings.HasPrefix(w, "--") {
			attached = false
		}
		if !s.KeepsValue(agent, name, g) {
			continue
		}
		if attached || i+1 >= len(args) || strings.HasPrefix(args[i+1], "-") {
			if !containsRun(out, w) {
				lost = append(lost, w)
			}
			continue
		}
		if !containsRun(out, w, args[i+1]) {
			lost = append(lost, w+" "+args[i+1])
		}
		i++
	}
	return lost
}

func containsRun(out []string, run ...string) bool {
	for i := 0; i+len(run) <= len(out); i++ {
		if cmp.Equal(out[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func TestCommandLinesClaude(t *testing.T) {
	runLines(t, "claude", uid, claudeLines)
}

// TestCommandLinesClaudeNewest: the same lines read with the help of the
// registry's newest claude (2.1.332), and the options and subcommands it
// added: a kept value is kept; a cloud or desktop session, a teleport and
// attaching to a background session are kept as saved; the new helpers
// are helpers.
func TestCommandLinesClaudeNewest(t *testing.T) {
	g := agents.CapturedGrammarAt(t, "claude", "2.1.332")
	runLinesWith(t, g, "claude", uid, append(slices.Clone(claudeLines), []lineCase{
		{name: "autocompact and snapshot values", line: "claude --autocompact 200000 --system-prompt-snapshot off --model opus",
			exact:  w("claude", "--autocompact", "200000", "--system-prompt-snapshot", "off", "--model", "opus", "--resume", uid),
			latest: w("claude", "--autocompact", "200000", "--system-prompt-snapshot", "off", "--model", "opus", "--continue")},
		{name: "restricted, and a prompt", line: `claude --restricted "look at the logs"`,
			exact: w("claude", "--restricted", "--resume", uid)},
		{name: "resume by a name", line: "claude -r api-work --model opus",
			exact: w("claude", "--model", "opus", "--resume", uid)},
		{name: "cloud session", line: `claude --cloud "fix the flaky test"`},
		{name: "cloud with no value", line: "claude --cloud --model opus"},
		{name: "self-hosted environment", line: "claude --environment ccpool_1 --model opus"},
		{name: "teleport", line: "claude --teleport"},
		{name: "desktop", line: "claude --desktop --continue"},
		{name: "attach a background session", line: "claude attach 668a5ce1"},
		{name: "logs is a helper", line: "claude logs 668a5ce1"},
		{name: "stop is a helper", line: "claude stop 668a5ce1"},
		{name: "kill is a helper", line: "claude kill 668a5ce1"},
		{name: "purge is a helper", line: "claude purge --dry-run"},
	}...))
}

var claudeLines = []lineCase{
	{name: "model", line: "claude --model opus",
		exact: w("claude", "--model", "opus", "--resume", uid), latest: w("claude", "--model", "opus", "--continue")},
	{name: "model=, permission mode", line: "claude --model=opus --permission-mode plan",
		exact: w("claude", "--model=opus", "--permission-mode", "plan", "--resume", uid)},
	{name: "permission mode=, prompt first", line: `claude "fix the bug" --permission-mode=acceptEdits --add-dir ../lib`,
		exact: w("claude", "--permission-mode=acceptEdits", "--add-dir", "../lib", "--resume", uid)},
	{name: "variadic directories", line: "claude --add-dir ../lib ../docs --verbose",
		exact: w("claude", "--add-dir", "../lib", "../docs", "--verbose", "--resume", uid)},
	{name: "short resume and its id", line: "claude -r " + uid2 + " --model sonnet",
		exact: w("claude", "--model", "sonnet", "--resume", uid)},
	{name: "resume=", line: "claude --resume=" + uid2 + " --effort high",
		exact: w("claude", "--effort", "high", "--resume", uid)},
	{name: "continue and a name", line: `claude -c -n "api work" --model opus`,
		exact:  w("claude", "-n", "api work", "--model", "opus", "--resume", uid),
		latest: w("claude", "-n", "api work", "--model", "opus", "--continue")},
	{name: "settings, mcp configs", line: "claude --settings ./s.json --mcp-config a.json b.json --strict-mcp-config",
		exact: w("claude", "--settings", "./s.json", "--mcp-config", "a.json", "b.json", "--strict-mcp-config", "--resume", uid)},
	{name: "skip permissions and a prompt", line: `claude --dangerously-skip-permissions "explain this repo"`,
		exact: w("claude", "--dangerously-skip-permissions", "--resume", uid)},
	{name: "debug filter is an optional value", line: "claude -d api,hooks --model opus",
		exact: w("claude", "-d", "api,hooks", "--model", "opus", "--resume", uid)},
	{name: "session id up front", line: "claude --session-id " + uid2 + " --model opus",
		exact: w("claude", "--model", "opus", "--resume", uid)},
	{name: "worktree name", line: "claude -w feature --tmux",
		exact: w("claude", "-w", "feature", "--tmux", "--resume", uid)},
	{name: "system prompt file", line: `claude --append-system-prompt "be terse" --fallback-model sonnet`,
		exact: w("claude", "--append-system-prompt", "be terse", "--fallback-model", "sonnet", "--resume", uid)},
	{name: "print is one-shot", line: `claude -p "summarise"`},
	{name: "output format is one-shot", line: "claude --output-format json -p hi"},
	{name: "mcp is a helper", line: "claude mcp list"},
}

func TestCommandLinesCodex(t *testing.T) {
	runLines(t, "codex", uid, []lineCase{
		{name: "model", line: "codex -m o3",
			exact: w("codex", "resume", uid, "-m", "o3"), latest: w("codex", "resume", "--last", "-m", "o3")},
		{name: "config overrides both forms", line: `codex --model=o3 -c model_reasoning_effort=high --config 'sandbox_permissions=["disk-full-read-access"]'`,
			exact: w("codex", "resume", uid, "--model=o3", "-c", "model_reasoning_effort=high", "--config", `sandbox_permissions=["disk-full-read-access"]`)},
		{name: "config=", line: "codex --config=model=o3 --profile=work",
			exact: w("codex", "resume", uid, "--config=model=o3", "--profile=work")},
		{name: "profile, sandbox, approval, prompt", line: `codex -p work -s workspace-write -a on-request "fix the tests"`,
			exact: w("codex", "resume", uid, "-p", "work", "-s", "workspace-write", "-a", "on-request")},
		{name: "directory", line: "codex -C ../api --add-dir ../lib",
			exact: w("codex", "resume", uid, "-C", "../api", "--add-dir", "../lib")},
		{name: "resume an id with flags", line: "codex resume " + uid2 + " --model o3",
			exact: w("codex", "resume", uid, "--model", "o3")},
		{name: "resume --last", line: "codex resume --last -m o3 --search",
			exact: w("codex", "resume", uid, "-m", "o3", "--search"), latest: w("codex", "resume", "--last", "-m", "o3", "--search")},
		{name: "images", line: "codex -i a.png b.png -m o3",
			exact: w("codex", "resume", uid, "-i", "a.png", "b.png", "-m", "o3")},
		{name: "features and switches", line: "codex --enable web_search --dangerously-bypass-approvals-and-sandbox",
			exact: w("codex", "resume", uid, "--enable", "web_search", "--dangerously-bypass-approvals-and-sandbox")},
		{name: "exec is one-shot", line: `codex exec "run the tests"`},
		{name: "e is one-shot", line: `codex e -m o3 "x"`},
		{name: "review is one-shot", line: "codex review"},
		{name: "login is a helper", line: "codex login"},
		{name: "fork is saved as it was", line: "codex fork --last"},
	})
}

func TestCommandLinesGemini(t *testing.T) {
	runLines(t, "gemini", uid, []lineCase{
		{name: "short model", line: "gemini -m gemini-2.5-pro",
			exact:  w("gemini", "-m", "gemini-2.5-pro", "--resume", uid),
			latest: w("gemini", "-m", "gemini-2.5-pro", "--resume", "latest")},
		{name: "model=, approval mode", line: "gemini --model=gemini-2.5-flash --approval-mode yolo",
			exact: w("gemini", "--model=gemini-2.5-flash", "--approval-mode", "yolo", "--resume", uid)},
		{name: "array option", line: "gemini -y --include-directories ../lib ../docs",
			exact: w("gemini", "-y", "--include-directories", "../lib", "../docs", "--resume", uid)},
		{name: "resume latest", line: "gemini -r latest -m x",
			exact: w("gemini", "-m", "x", "--resume", uid), latest: w("gemini", "-m", "x", "--resume", "latest")},
		{name: "resume an index", line: "gemini --resume 5 --sandbox",
			exact: w("gemini", "--sandbox", "--resume", uid)},
		{name: "interactive prompt", line: `gemini -i "explain" -m x`,
			exact: w("gemini", "-m", "x", "--resume", uid)},
		{name: "positional prompt", line: `gemini "explain this" --sandbox`,
			exact: w("gemini", "--sandbox", "--resume", uid)},
		{name: "extensions and a worktree", line: "gemini -e ext1 ext2 -w feat --output-format=json",
			exact: w("gemini", "-e", "ext1", "ext2", "-w", "feat", "--output-format=json", "--resume", uid)},
		{name: "prompt is one-shot", line: `gemini -p "hi" -m x`},
		{name: "acp is one-shot", line: "gemini --acp"},
		{name: "mcp is a helper", line: "gemini mcp list"},
		{name: "list sessions is a helper", line: "gemini --list-sessions"},
	})
}

func TestCommandLinesCopilot(t *testing.T) {
	runLines(t, "copilot", uid, []lineCase{
		{name: "model", line: "copilot --model gpt-5",
			exact: w("copilot", "--model", "gpt-5", "--resume="+uid), latest: w("copilot", "--model", "gpt-5", "--continue")},
		{name: "model=, permissions, directory", line: "copilot --model=gpt-5 --allow-all-tools --add-dir ../lib",
			exact: w("copilot", "--model=gpt-5", "--allow-all-tools", "--add-dir", "../lib", "--resume="+uid)},
		{name: "tool lists", line: `copilot --allow-tool 'shell(git:*)' write --deny-tool 'shell(git push)'`,
			exact: w("copilot", "--allow-tool", "shell(git:*)", "write", "--deny-tool", "shell(git push)", "--resume="+uid)},
		{name: "short flags", line: "copilot -C ../api --reasoning-effort high -n feature",
			exact: w("copilot", "-C", "../api", "--reasoning-effort", "high", "-n", "feature", "--resume="+uid)},
		{name: "resume=", line: "copilot --resume=" + uid2 + " --model gpt-5",
			exact: w("copilot", "--model", "gpt-5", "--resume="+uid)},
		{name: "short resume", line: "copilot -r " + uid2 + " --mode plan",
			exact: w("copilot", "--mode", "plan", "--resume="+uid)},
		{name: "continue", line: "copilot --continue --yolo",
			exact: w("copilot", "--yolo", "--resume="+uid), latest: w("copilot", "--yolo", "--continue")},
		{name: "interactive prompt", line: `copilot -i "fix it" --model x`,
			exact: w("copilot", "--model", "x", "--resume="+uid)},
		{name: "prompt is one-shot", line: `copilot -p "fix" --allow-all-tools`},
		{name: "silent is one-shot", line: "copilot -s -p x"},
		{name: "connect is kept as saved", line: "copilot --connect " + uid2},
		{name: "init is a helper", line: "copilot init"},
	})
}

func TestCommandLinesPi(t *testing.T) {
	runLines(t, "pi", uid, []lineCase{
		{name: "model", line: "pi --model sonnet:high",
			exact: w("pi", "--model", "sonnet:high", "--session", uid), latest: w("pi", "--model", "sonnet:high", "--continue")},
		{name: "provider, model, prompt", line: `pi --provider openai --model gpt-4o-mini "Help me refactor"`,
			exact: w("pi", "--provider", "openai", "--model", "gpt-4o-mini", "--session", uid)},
		{name: "short tools, thinking, session dir", line: "pi --thinking high -t read,grep --session-dir=./s",
			exact: w("pi", "--thinking", "high", "-t", "read,grep", "--session-dir=./s", "--session", uid)},
		{name: "two-letter switches", line: "pi -nt -e ./ext.ts --model x",
			exact: w("pi", "-nt", "-e", "./ext.ts", "--model", "x", "--session", uid)},
		{name: "continue with a prompt", line: `pi --continue "What did we discuss?"`,
			exact: w("pi", "--session", uid), latest: w("pi", "--continue")},
		{name: "session id", line: "pi --session " + uid2 + " --model x",
			exact: w("pi", "--model", "x", "--session", uid)},
		{name: "fork is stripped", line: "pi --fork " + uid2 + " --model x",
			exact: w("pi", "--model", "x", "--session", uid)},
		{name: "api key never saved", line: "pi --api-key sk-1 --model x",
			exact: w("pi", "--model", "x", "--session", uid)},
		{name: "files and a message", line: `pi @prompt.md "what"`,
			exact: w("pi", "--session", uid)},
		{name: "print is one-shot", line: `pi -p "list"`},
		{name: "json mode is one-shot", line: "pi --mode json"},
		{name: "install is a helper", line: "pi install npm:x"},
		{name: "export is a helper", line: "pi --export s.jsonl"},
	})
}

func TestCommandLinesOpencode(t *testing.T) {
	runLines(t, "opencode", ses, []lineCase{
		{name: "model", line: "opencode -m anthropic/claude",
			exact: w("opencode", "-m", "anthropic/claude", "--session", ses), latest: w("opencode", "-m", "anthropic/claude", "--continue")},
		{name: "model=, agent, project", line: "opencode --model=openai/gpt-5 --agent build ./api",
			exact: w("opencode", "--model=openai/gpt-5", "--agent", "build", "./api", "--session", ses)},
		{name: "server options", line: "opencode --port 4096 --hostname 0.0.0.0 --log-level DEBUG",
			exact: w("opencode", "--port", "4096", "--hostname", "0.0.0.0", "--log-level", "DEBUG", "--session", ses)},
		{name: "session and fork", line: "opencode -s ses_old --fork -m x",
			exact: w("opencode", "-m", "x", "--session", ses)},
		{name: "continue", line: "opencode -c --print-logs",
			exact: w("opencode", "--print-logs", "--session", ses), latest: w("opencode", "--print-logs", "--continue")},
		{name: "prompt flag", line: `opencode --prompt "fix it" -m x`,
			exact: w("opencode", "-m", "x", "--session", ses)},
		{name: "run is one-shot", line: `opencode run "x"`},
		{name: "auth is a helper", line: "opencode auth login"},
		{name: "providers is a helper", line: "opencode providers"},
	})
}

func TestCommandLinesQodercli(t *testing.T) {
	runLines(t, "qodercli", uid, []lineCase{
		{name: "model", line: "qodercli -m sonnet",
			exact: w("qodercli", "-m", "sonnet", "--resume", uid), latest: w("qodercli", "-m", "sonnet", "--continue")},
		{name: "model=, permission mode, cwd", line: "qodercli --model=x --permission-mode accept_edits -w ../api",
			exact: w("qodercli", "--model=x", "--permission-mode", "accept_edits", "-w", "../api", "--resume", uid)},
		{name: "tools list", line: "qodercli --tools Read Edit --add-dir ../lib",
			exact: w("qodercli", "--tools", "Read", "Edit", "--add-dir", "../lib", "--resume", uid)},
		{name: "resume an id, worktree", line: "qodercli -r " + uid2 + " --worktree feat",
			exact: w("qodercli", "--worktree", "feat", "--resume", uid)},
		{name: "interactive prompt", line: `qodercli -i "explain" -m x`,
			exact: w("qodercli", "-m", "x", "--resume", uid)},
		{name: "skip permissions and a query", line: `qodercli --dangerously-skip-permissions "fix"`,
			exact: w("qodercli", "--dangerously-skip-permissions", "--resume", uid)},
		{name: "print is one-shot", line: `qodercli -p "x"`},
		{name: "remote is kept as saved", line: "qodercli --remote task"},
		{name: "mcp is a helper", line: "qodercli mcp add x"},
	})
}

// TestLostValues: the check of the table tests notices a value a resume
// argv lost, in either form.
func TestLostValues(t *testing.T) {
	s := loadShipped(t)
	g := agents.CapturedGrammar(t, "copilot")
	args := w("--model", "gpt-5", "--agent=reviewer", "--yolo")
	got := lostValues(s, "copilot", g, args, w("copilot", "--model", "--yolo", "--resume="+uid))
	if diff := cmp.Diff(w("--model gpt-5", "--agent=reviewer"), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := lostValues(s, "copilot", g, args, w("copilot", "--model", "gpt-5", "--agent=reviewer", "--yolo")); len(got) != 0 {
		t.Errorf("lost %v from a whole argv", got)
	}
}

func TestCommandLinesKilo(t *testing.T) {
	runLines(t, "kilo", ses, []lineCase{
		{name: "model", line: "kilo -m anthropic/claude",
			exact: w("kilo", "-m", "anthropic/claude", "--session", ses), latest: w("kilo", "-m", "anthropic/claude", "--continue")},
		{name: "model=, worktree, project", line: "kilo --model=openai/gpt-5 --worktree feat ./api",
			exact: w("kilo", "--model=openai/gpt-5", "--worktree", "feat", "./api", "--session", ses)},
		{name: "session, cloud fork", line: "kilo -s ses_old --cloud-fork --auto",
			exact: w("kilo", "--auto", "--session", ses)},
		{name: "prompt flag", line: `kilo --prompt "fix it" --agent build`,
			exact: w("kilo", "--agent", "build", "--session", ses)},
		{name: "run is one-shot", line: `kilo run "x"`},
		{name: "roll-call is a helper", line: "kilo roll-call gpt"},
	})
}

func TestCommandLinesDroid(t *testing.T) {
	runLines(t, "droid", uid, []lineCase{
		{name: "autonomy", line: "droid --auto high",
			exact: w("droid", "--auto", "high", "--resume", uid), latest: w("droid", "--auto", "high", "--resume", "--last")},
		{name: "settings=, cwd, worktree", line: "droid --settings=./s.json --cwd ../api -w feat",
			exact: w("droid", "--settings=./s.json", "--cwd", "../api", "-w", "feat", "--resume", uid)},
		{name: "resume an id", line: "droid -r " + uid2 + " --use-spec",
			exact: w("droid", "--use-spec", "--resume", uid)},
		{name: "resume subcommand", line: "droid resume " + uid2 + " --auto low",
			exact: w("droid", "--auto", "low", "--resume", uid)},
		{name: "resume --last", line: "droid --resume --last",
			exact: w("droid", "--resume", uid), latest: w("droid", "--resume", "--last")},
		{name: "fork is stripped", line: "droid --fork " + uid2 + " --append-system-prompt terse",
			exact: w("droid", "--append-system-prompt", "terse", "--resume", uid)},
		{name: "prompt", line: `droid "review app.tsx" --auto medium`,
			exact: w("droid", "--auto", "medium", "--resume", uid)},
		{name: "exec is one-shot", line: `droid exec -r high "analyze"`},
		{name: "search is a helper", line: "droid search auth"},
	})
}

// TestCommandLinesNoResume: grok and mastracode have no conversation to
// resume; their windows stay as saved whatever the flags.
func TestCommandLinesNoResume(t *testing.T) {
	s := loadShipped(t)
	for _, tc := range []struct {
		agent, line string
		oneShot     bool
	}{
		{"grok", "grok -m grok-4-latest -d ../api", false},
		{"grok", `grok --model=grok-code-fast-1 "fix it"`, false},
		{"grok", `grok -p "fix it"`, true},
		{"mastracode", "mastracode -m anthropic/claude", false},
		{"mastracode", `mastracode --prompt "Fix the bug" --timeout 300`, true},
		{"mastracode", `mastracode "Fix the bug"`, true},
	} {
		t.Run(tc.line, func(t *testing.T) {
			g := agents.CapturedGrammar(t, tc.agent)
			c, ok := recognize.String(s, tc.line)
			if !ok || c.Agent != tc.agent {
				t.Fatalf("recognised %v as %q", ok, c.Agent)
			}
			probes := probe.Probes{tc.agent: {Agent: tc.agent, Installed: true, OK: true, Grammar: g}}
			c = recognize.Reparse(s, c, g)
			if c.OneShot != tc.oneShot || c.Unsure != "" {
				t.Errorf("one-shot %v (%s), unsure %q", c.OneShot, c.OneShotWhy, c.Unsure)
			}
			d := plan.Decide(s, []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: c}}, probes)
			if d[0].Mode != plan.ModeAsSaved || d[0].Argv != nil {
				t.Errorf("decided %+v", d[0])
			}
		})
	}
}
