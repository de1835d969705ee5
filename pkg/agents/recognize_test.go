package agents_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// Ids of each agent's form.
const (
	uuid    = agentstest.UUID
	codexID = agentstest.CodexID
	sesID   = agentstest.SesID
	ampID   = agentstest.AmpID
	tokenID = agentstest.TokenID
)

// sampleID is the id the table resumes with in exact mode, per agent.
var sampleID = map[string]string{
	"claude": uuid, "codex": codexID, "gemini": uuid, "copilot": uuid, "opencode": sesID, "kilo": sesID,
	"pi": uuid, "qodercli": uuid, "droid": uuid, "amp": ampID, "crush": tokenID, "cursor-agent": tokenID,
	"kimi": uuid, "hermes": tokenID, "goose": tokenID, "omp": uuid,
}

var loadShipped = agentstest.Shipped

// cmpCommand ignores Raw: it is the input, kept for Reparse.
var cmpCommand = cmp.Options{cmpopts.EquateEmpty(), cmpopts.IgnoreFields(recognize.Command{}, "Raw")}

type recogCase struct {
	name string
	argv []string // a process or saved argv
	line string   // or a typed line
	want recognize.Command
	// Resume argvs; nil means ResumeArgv must fail for that mode.
	exact, latest, newArgv []string
}

func w(s ...string) []string { return s }

// cases cover every definition: recognition and the exact, latest and new
// argvs built from it.
var cases = []recogCase{
	// claude
	{
		name:    "claude flags kept",
		line:    "claude --model opus --dangerously-skip-permissions",
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--model", "opus", "--dangerously-skip-permissions")},
		exact:   w("claude", "--model", "opus", "--dangerously-skip-permissions", "--resume", uuid),
		latest:  w("claude", "--model", "opus", "--dangerously-skip-permissions", "--continue"),
		newArgv: w("claude", "--model", "opus", "--dangerously-skip-permissions"),
	},
	{
		name:    "claude --resume stripped, not doubled",
		line:    "claude --resume " + uuid + " --model sonnet",
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--model", "sonnet"), ID: uuid, IDFrom: "--resume"},
		exact:   w("claude", "--model", "sonnet", "--resume", uuid),
		latest:  w("claude", "--model", "sonnet", "--continue"),
		newArgv: w("claude", "--model", "sonnet"),
	},
	{
		name:    "claude -r takes a uuid",
		argv:    w("claude", "-r", uuid),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), ID: uuid, IDFrom: "-r"},
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude -r followed by --model is a picker",
		argv:    w("claude", "-r", "--model", "opus"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--model", "opus")},
		exact:   w("claude", "--model", "opus", "--resume", uuid),
		latest:  w("claude", "--model", "opus", "--continue"),
		newArgv: w("claude", "--model", "opus"),
	},
	{
		name:    "claude -r with a search term: the term is a prompt",
		argv:    w("claude", "-r", "auth bug"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), PromptDropped: true},
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude --resume=id and -r attached",
		argv:    w("claude", "--resume="+uuid, "--verbose"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--verbose"), ID: uuid, IDFrom: "--resume"},
		exact:   w("claude", "--verbose", "--resume", uuid),
		latest:  w("claude", "--verbose", "--continue"),
		newArgv: w("claude", "--verbose"),
	},
	{
		name:    "claude -c and --fork-session stripped",
		argv:    w("claude", "-c", "--fork-session", "--permission-mode", "plan"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--permission-mode", "plan"), Latest: true, LatestFrom: "-c"},
		exact:   w("claude", "--permission-mode", "plan", "--resume", uuid),
		latest:  w("claude", "--permission-mode", "plan", "--continue"),
		newArgv: w("claude", "--permission-mode", "plan"),
	},
	{
		name:    "claude short cluster -cd",
		argv:    w("claude", "-cd"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("-d"), Latest: true, LatestFrom: "-c"},
		exact:   w("claude", "-d", "--resume", uuid),
		latest:  w("claude", "-d", "--continue"),
		newArgv: w("claude", "-d"),
	},
	{
		name:    "claude --session-id is an exact id",
		argv:    w("claude", "--session-id", uuid),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), ID: uuid, IDFrom: "--session-id"},
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude variadic --add-dir and a prompt",
		argv:    w("claude", "--add-dir", "../lib", "../docs", "--model", "opus", "fix the tests"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--add-dir", "../lib", "../docs", "--model", "opus"), PromptDropped: true},
		exact:   w("claude", "--add-dir", "../lib", "../docs", "--model", "opus", "--resume", uuid),
		latest:  w("claude", "--add-dir", "../lib", "../docs", "--model", "opus", "--continue"),
		newArgv: w("claude", "--add-dir", "../lib", "../docs", "--model", "opus"),
	},
	{
		// Nothing says --frobnicate takes a value, so the word after it is a
		// positional: a prompt for claude.
		// In no grammar: the word stays with the flag, and the command says
		// it is unsure, so the restore prompt asks.
		name: "claude unknown flag followed by a word",
		argv: w("claude", "--frobnicate", "loud", "--tmux=classic"),
		want: recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--frobnicate", "loud", "--tmux=classic"),
			Unsure: `--frobnicate is in no grammar of claude, so "loud" after it may be its value or a prompt: kept as its value`},
		exact:   w("claude", "--frobnicate", "loud", "--tmux=classic", "--resume", uuid),
		latest:  w("claude", "--frobnicate", "loud", "--tmux=classic", "--continue"),
		newArgv: w("claude", "--frobnicate", "loud", "--tmux=classic"),
	},
	{
		name:    "claude prompt after --",
		argv:    w("claude", "--", "fix it"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), PromptDropped: true},
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude secret-looking flag is never kept",
		argv:    w("claude", "--anthropic-api-key", "sk-ant-123", "--model", "opus"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Flags: w("--model", "opus"), SecretDropped: true},
		exact:   w("claude", "--model", "opus", "--resume", uuid),
		latest:  w("claude", "--model", "opus", "--continue"),
		newArgv: w("claude", "--model", "opus"),
	},
	{
		name: "claude -p is one-shot",
		line: `claude -p "hi"`,
		want: recognize.Command{Agent: "claude", Program: w("claude"), OneShot: true, OneShotWhy: "-p"},
		// One-shot runs are never rewritten by Decide, but the argv
		// builder itself does not care.
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude --output-format is one-shot",
		argv:    w("claude", "--output-format", "json", "hi"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), OneShot: true, OneShotWhy: "--output-format"},
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude mcp list is a helper",
		line:    "claude mcp list",
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Helper: true, HelperWhy: "mcp"},
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude --version is a helper",
		argv:    w("claude", "--version"),
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Helper: true, HelperWhy: "--version"},
		exact:   w("claude", "--resume", uuid),
		latest:  w("claude", "--continue"),
		newArgv: w("claude"),
	},
	{
		name:    "claude node script",
		argv:    w("node", "/home/u/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--model", "opus"),
		want:    recognize.Command{Agent: "claude", Program: w("node", "/home/u/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js"), Flags: w("--model", "opus")},
		exact:   w("node", "/home/u/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--model", "opus", "--resume", uuid),
		latest:  w("node", "/home/u/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--model", "opus", "--continue"),
		newArgv: w("node", "/home/u/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--model", "opus"),
	},
	{
		name:    "claude npm native binary",
		argv:    w("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe", "--resume", uuid),
		want:    recognize.Command{Agent: "claude", Program: w("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe"), ID: uuid, IDFrom: "--resume"},
		exact:   w("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe", "--resume", uuid),
		latest:  w("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe", "--continue"),
		newArgv: w("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
	},
	{
		name:    "claude with env assignment",
		line:    "FOO=1 BAR='a b' claude --model opus",
		want:    recognize.Command{Agent: "claude", Program: w("claude"), Env: w("FOO=1", "BAR=a b"), Flags: w("--model", "opus")},
		exact:   w("claude", "--model", "opus", "--resume", uuid),
		latest:  w("claude", "--model", "opus", "--continue"),
		newArgv: w("claude", "--model", "opus"),
	},

	// codex
	{
		name:    "codex resume id",
		argv:    w("/home/u/.local/bin/codex", "resume", codexID),
		want:    recognize.Command{Agent: "codex", Program: w("/home/u/.local/bin/codex"), ID: codexID, IDFrom: "resume"},
		exact:   w("/home/u/.local/bin/codex", "resume", codexID),
		latest:  w("/home/u/.local/bin/codex", "resume", "--last"),
		newArgv: w("/home/u/.local/bin/codex"),
	},
	{
		name:    "codex -c is config and -p is profile: kept",
		line:    `codex -c model="o3" -p work "fix it"`,
		want:    recognize.Command{Agent: "codex", Program: w("codex"), Flags: w("-c", "model=o3", "-p", "work"), PromptDropped: true},
		exact:   w("codex", "resume", codexID, "-c", "model=o3", "-p", "work"),
		latest:  w("codex", "resume", "--last", "-c", "model=o3", "-p", "work"),
		newArgv: w("codex", "-c", "model=o3", "-p", "work"),
	},
	{
		name:    "codex flags before resume --last",
		argv:    w("codex", "-m", "o3", "resume", "--last", "--all"),
		want:    recognize.Command{Agent: "codex", Program: w("codex"), Flags: w("-m", "o3"), Latest: true, LatestFrom: "--last"},
		exact:   w("codex", "resume", codexID, "-m", "o3"),
		latest:  w("codex", "resume", "--last", "-m", "o3"),
		newArgv: w("codex", "-m", "o3"),
	},
	{
		name:    "codex resume id with a prompt",
		argv:    w("codex", "resume", codexID, "go on", "-s", "read-only"),
		want:    recognize.Command{Agent: "codex", Program: w("codex"), Flags: w("-s", "read-only"), ID: codexID, IDFrom: "resume", PromptDropped: true},
		exact:   w("codex", "resume", codexID, "-s", "read-only"),
		latest:  w("codex", "resume", "--last", "-s", "read-only"),
		newArgv: w("codex", "-s", "read-only"),
	},
	{
		name:    "codex -C moves the directory",
		argv:    w("codex", "-C", "../api", "-a", "never"),
		want:    recognize.Command{Agent: "codex", Program: w("codex"), Flags: w("-C", "../api", "-a", "never"), Dir: "../api"},
		exact:   w("codex", "resume", codexID, "-C", "../api", "-a", "never"),
		latest:  w("codex", "resume", "--last", "-C", "../api", "-a", "never"),
		newArgv: w("codex", "-C", "../api", "-a", "never"),
	},
	{
		name:    "codex images are variadic",
		argv:    w("codex", "-i", "a.png", "b.png", "--search"),
		want:    recognize.Command{Agent: "codex", Program: w("codex"), Flags: w("-i", "a.png", "b.png", "--search")},
		exact:   w("codex", "resume", codexID, "-i", "a.png", "b.png", "--search"),
		latest:  w("codex", "resume", "--last", "-i", "a.png", "b.png", "--search"),
		newArgv: w("codex", "-i", "a.png", "b.png", "--search"),
	},
	{
		name:    "codex exec is one-shot",
		argv:    w("codex", "exec", "run the tests"),
		want:    recognize.Command{Agent: "codex", Program: w("codex"), OneShot: true, OneShotWhy: "exec"},
		exact:   w("codex", "resume", codexID),
		latest:  w("codex", "resume", "--last"),
		newArgv: w("codex"),
	},
	{
		name:    "codex e alias is one-shot",
		argv:    w("codex", "-m", "o3", "e", "hi"),
		want:    recognize.Command{Agent: "codex", Program: w("codex"), Flags: w("-m", "o3"), OneShot: true, OneShotWhy: "e"},
		exact:   w("codex", "resume", codexID, "-m", "o3"),
		latest:  w("codex", "resume", "--last", "-m", "o3"),
		newArgv: w("codex", "-m", "o3"),
	},
	{
		name:    "codex login is a helper",
		argv:    w("codex", "login"),
		want:    recognize.Command{Agent: "codex", Program: w("codex"), Helper: true, HelperWhy: "login"},
		exact:   w("codex", "resume", codexID),
		latest:  w("codex", "resume", "--last"),
		newArgv: w("codex"),
	},
	{
		name:    "codex node script",
		argv:    w("node", "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js", "--model", "x"),
		want:    recognize.Command{Agent: "codex", Program: w("node", "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js"), Flags: w("--model", "x")},
		exact:   w("node", "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js", "resume", codexID, "--model", "x"),
		latest:  w("node", "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js", "resume", "--last", "--model", "x"),
		newArgv: w("node", "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js", "--model", "x"),
	},
	{
		name:    "codex native child",
		argv:    w("/home/u/.npm/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex", "--model", "x"),
		want:    recognize.Command{Agent: "codex", Program: w("/home/u/.npm/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"), Flags: w("--model", "x")},
		exact:   w("/home/u/.npm/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex", "resume", codexID, "--model", "x"),
		latest:  w("/home/u/.npm/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex", "resume", "--last", "--model", "x"),
		newArgv: w("/home/u/.npm/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex", "--model", "x"),
	},

	// gemini
	{
		name:    "gemini --resume id",
		argv:    w("gemini", "--model", "pro", "--resume", uuid),
		want:    recognize.Command{Agent: "gemini", Program: w("gemini"), Flags: w("--model", "pro"), ID: uuid, IDFrom: "--resume"},
		exact:   w("gemini", "--model", "pro", "--resume", uuid),
		latest:  w("gemini", "--model", "pro", "--resume", "latest"),
		newArgv: w("gemini", "--model", "pro"),
	},
	{
		name:    "gemini -r latest",
		argv:    w("gemini", "-r", "latest"),
		want:    recognize.Command{Agent: "gemini", Program: w("gemini"), Latest: true, LatestFrom: "-r latest"},
		exact:   w("gemini", "--resume", uuid),
		latest:  w("gemini", "--resume", "latest"),
		newArgv: w("gemini"),
	},
	{
		name:    "gemini --resume by index: stripped, no id",
		argv:    w("gemini", "--resume", "3"),
		want:    recognize.Command{Agent: "gemini", Program: w("gemini")},
		exact:   w("gemini", "--resume", uuid),
		latest:  w("gemini", "--resume", "latest"),
		newArgv: w("gemini"),
	},
	{
		name:    "gemini -i prompt dropped",
		argv:    w("gemini", "-i", "explain this repo", "--model", "pro"),
		want:    recognize.Command{Agent: "gemini", Program: w("gemini"), Flags: w("--model", "pro"), PromptDropped: true},
		exact:   w("gemini", "--model", "pro", "--resume", uuid),
		latest:  w("gemini", "--model", "pro", "--resume", "latest"),
		newArgv: w("gemini", "--model", "pro"),
	},
	{
		name:    "gemini -p is one-shot",
		argv:    w("gemini", "-p", "hi"),
		want:    recognize.Command{Agent: "gemini", Program: w("gemini"), OneShot: true, OneShotWhy: "-p"},
		exact:   w("gemini", "--resume", uuid),
		latest:  w("gemini", "--resume", "latest"),
		newArgv: w("gemini"),
	},
	{
		name:    "gemini re-spawned node",
		argv:    w("/usr/bin/node", "--max-old-space-size=12052", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "--model", "x"),
		want:    recognize.Command{Agent: "gemini", Program: w("/usr/bin/node", "--max-old-space-size=12052", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"), Flags: w("--model", "x")},
		exact:   w("/usr/bin/node", "--max-old-space-size=12052", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "--model", "x", "--resume", uuid),
		latest:  w("/usr/bin/node", "--max-old-space-size=12052", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "--model", "x", "--resume", "latest"),
		newArgv: w("/usr/bin/node", "--max-old-space-size=12052", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "--model", "x"),
	},

	// copilot
	{
		name:    "copilot --resume=id",
		argv:    w("copilot", "--resume="+uuid),
		want:    recognize.Command{Agent: "copilot", Program: w("copilot"), ID: uuid, IDFrom: "--resume"},
		exact:   w("copilot", "--resume="+uuid),
		latest:  w("copilot", "--continue"),
		newArgv: w("copilot"),
	},
	{
		name:    "copilot -r id, -i prompt",
		argv:    w("copilot", "-r", uuid, "-i", "keep going"),
		want:    recognize.Command{Agent: "copilot", Program: w("copilot"), ID: uuid, IDFrom: "-r", PromptDropped: true},
		exact:   w("copilot", "--resume="+uuid),
		latest:  w("copilot", "--continue"),
		newArgv: w("copilot"),
	},
	{
		name:    "copilot -s is one-shot",
		argv:    w("copilot", "-s", "-p", "hi"),
		want:    recognize.Command{Agent: "copilot", Program: w("copilot"), OneShot: true, OneShotWhy: "-s"},
		exact:   w("copilot", "--resume="+uuid),
		latest:  w("copilot", "--continue"),
		newArgv: w("copilot"),
	},

	// opencode
	{
		name:    "opencode prompt dropped",
		line:    `opencode -m anthropic/claude "fix the tests"`,
		want:    recognize.Command{Agent: "opencode", Program: w("opencode"), Flags: w("-m", "anthropic/claude"), PromptDropped: true},
		exact:   w("opencode", "-m", "anthropic/claude", "--session", sesID),
		latest:  w("opencode", "-m", "anthropic/claude", "--continue"),
		newArgv: w("opencode", "-m", "anthropic/claude"),
	},
	{
		name:    "opencode project path kept",
		argv:    w("opencode", "/home/u/code/api", "-s", sesID),
		want:    recognize.Command{Agent: "opencode", Program: w("opencode"), Flags: w("/home/u/code/api"), ID: sesID, IDFrom: "-s"},
		exact:   w("opencode", "/home/u/code/api", "--session", sesID),
		latest:  w("opencode", "/home/u/code/api", "--continue"),
		newArgv: w("opencode", "/home/u/code/api"),
	},
	{
		name:    "opencode path after -- keeps the --",
		argv:    w("opencode", "-c", "--", "-odd-dir"),
		want:    recognize.Command{Agent: "opencode", Program: w("opencode"), Flags: w("--", "-odd-dir"), Latest: true, LatestFrom: "-c"},
		exact:   w("opencode", "--session", sesID, "--", "-odd-dir"),
		latest:  w("opencode", "--continue", "--", "-odd-dir"),
		newArgv: w("opencode", "--", "-odd-dir"),
	},
	{
		name:    "opencode --prompt dropped",
		argv:    w("opencode", "--prompt", "hello"),
		want:    recognize.Command{Agent: "opencode", Program: w("opencode"), PromptDropped: true},
		exact:   w("opencode", "--session", sesID),
		latest:  w("opencode", "--continue"),
		newArgv: w("opencode"),
	},
	{
		name:    "opencode run is one-shot",
		argv:    w("opencode", "run", "hello"),
		want:    recognize.Command{Agent: "opencode", Program: w("opencode"), OneShot: true, OneShotWhy: "run"},
		exact:   w("opencode", "--session", sesID),
		latest:  w("opencode", "--continue"),
		newArgv: w("opencode"),
	},
	{
		name:    "opencode auth is a helper, not a path",
		argv:    w("opencode", "auth", "login"),
		want:    recognize.Command{Agent: "opencode", Program: w("opencode"), Helper: true, HelperWhy: "auth"},
		exact:   w("opencode", "--session", sesID),
		latest:  w("opencode", "--continue"),
		newArgv: w("opencode"),
	},

	// kilo
	{
		name:    "kilo --session",
		argv:    w("kilo", "--session", sesID, "-m", "x/y"),
		want:    recognize.Command{Agent: "kilo", Program: w("kilo"), Flags: w("-m", "x/y"), ID: sesID, IDFrom: "--session"},
		exact:   w("kilo", "-m", "x/y", "--session", sesID),
		latest:  w("kilo", "-m", "x/y", "--continue"),
		newArgv: w("kilo", "-m", "x/y"),
	},
	{
		name:    "kilo attach is one-shot",
		argv:    w("kilo", "attach", "http://localhost:4096"),
		want:    recognize.Command{Agent: "kilo", Program: w("kilo"), OneShot: true, OneShotWhy: "attach"},
		exact:   w("kilo", "--session", sesID),
		latest:  w("kilo", "--continue"),
		newArgv: w("kilo"),
	},

	// pi
	{
		name:    "pi renamed process",
		argv:    w("pi"),
		want:    recognize.Command{Agent: "pi", Program: w("pi"), FlagsHidden: true},
		exact:   w("pi", "--session", uuid),
		latest:  w("pi", "--continue"),
		newArgv: w("pi"),
	},
	{
		name:    "pi typed line: secrets dropped",
		line:    "pi --api-key sk-1 -k sk-2 --session " + uuid,
		want:    recognize.Command{Agent: "pi", Program: w("pi"), ID: uuid, IDFrom: "--session", SecretDropped: true},
		exact:   w("pi", "--session", uuid),
		latest:  w("pi", "--continue"),
		newArgv: w("pi"),
	},
	{
		name:    "pi -r is a picker, --mode text kept",
		argv:    w("pi", "-r", "--mode", "text"),
		want:    recognize.Command{Agent: "pi", Program: w("pi"), Flags: w("--mode", "text")},
		exact:   w("pi", "--mode", "text", "--session", uuid),
		latest:  w("pi", "--mode", "text", "--continue"),
		newArgv: w("pi", "--mode", "text"),
	},
	{
		name:    "pi --mode json is one-shot",
		argv:    w("pi", "--mode", "json"),
		want:    recognize.Command{Agent: "pi", Program: w("pi"), OneShot: true, OneShotWhy: "--mode json"},
		exact:   w("pi", "--session", uuid),
		latest:  w("pi", "--continue"),
		newArgv: w("pi"),
	},

	// qodercli
	{
		name:    "qodercli -r id, -w is --cwd",
		argv:    w("node", "/usr/lib/node_modules/@qoder-ai/qodercli/bin/qodercli", "--model", "x", "-w", "sub", "-r", uuid),
		want:    recognize.Command{Agent: "qodercli", Program: w("node", "/usr/lib/node_modules/@qoder-ai/qodercli/bin/qodercli"), Flags: w("--model", "x", "-w", "sub"), Dir: "sub", ID: uuid, IDFrom: "-r"},
		exact:   w("node", "/usr/lib/node_modules/@qoder-ai/qodercli/bin/qodercli", "--model", "x", "-w", "sub", "--resume", uuid),
		latest:  w("node", "/usr/lib/node_modules/@qoder-ai/qodercli/bin/qodercli", "--model", "x", "-w", "sub", "--continue"),
		newArgv: w("node", "/usr/lib/node_modules/@qoder-ai/qodercli/bin/qodercli", "--model", "x", "-w", "sub"),
	},
	{
		name:    "qodercli -r followed by a prompt",
		argv:    w("qodercli", "-r", "hello"),
		want:    recognize.Command{Agent: "qodercli", Program: w("qodercli"), PromptDropped: true},
		exact:   w("qodercli", "--resume", uuid),
		latest:  w("qodercli", "--continue"),
		newArgv: w("qodercli"),
	},
	{
		name:    "qodercli -p is one-shot",
		argv:    w("qodercli", "-p", "hi"),
		want:    recognize.Command{Agent: "qodercli", Program: w("qodercli"), OneShot: true, OneShotWhy: "-p"},
		exact:   w("qodercli", "--resume", uuid),
		latest:  w("qodercli", "--continue"),
		newArgv: w("qodercli"),
	},

	// droid
	{
		name:    "droid resume subcommand",
		argv:    w("droid", "resume", uuid),
		want:    recognize.Command{Agent: "droid", Program: w("droid"), ID: uuid, IDFrom: "resume"},
		exact:   w("droid", "--resume", uuid),
		latest:  w("droid", "--resume", "--last"),
		newArgv: w("droid"),
	},
	{
		name:    "droid --resume --last",
		argv:    w("droid", "--resume", "--last"),
		want:    recognize.Command{Agent: "droid", Program: w("droid"), Latest: true, LatestFrom: "--last"},
		exact:   w("droid", "--resume", uuid),
		latest:  w("droid", "--resume", "--last"),
		newArgv: w("droid"),
	},
	{
		name:    "droid exec -r is reasoning, one-shot",
		argv:    w("droid", "exec", "-r", "high", "fix"),
		want:    recognize.Command{Agent: "droid", Program: w("droid"), OneShot: true, OneShotWhy: "exec"},
		exact:   w("droid", "--resume", uuid),
		latest:  w("droid", "--resume", "--last"),
		newArgv: w("droid"),
	},

	// amp
	{
		name:    "amp threads continue id",
		argv:    w("amp", "threads", "continue", ampID),
		want:    recognize.Command{Agent: "amp", Program: w("amp"), ID: ampID, IDFrom: "threads continue"},
		exact:   w("amp", "threads", "continue", ampID),
		latest:  w("amp", "threads", "continue", "--last"),
		newArgv: w("amp"),
	},
	{
		name:    "amp threads list is a helper",
		argv:    w("amp", "threads", "list"),
		want:    recognize.Command{Agent: "amp", Program: w("amp"), Helper: true, HelperWhy: "threads"},
		exact:   w("amp", "threads", "continue", ampID),
		latest:  w("amp", "threads", "continue", "--last"),
		newArgv: w("amp"),
	},
	{
		name:    "amp -x is one-shot",
		argv:    w("amp", "-x", "hi"),
		want:    recognize.Command{Agent: "amp", Program: w("amp"), OneShot: true, OneShotWhy: "-x"},
		exact:   w("amp", "threads", "continue", ampID),
		latest:  w("amp", "threads", "continue", "--last"),
		newArgv: w("amp"),
	},

	// crush
	{
		name:    "crush --session",
		argv:    w("crush", "--session", tokenID),
		want:    recognize.Command{Agent: "crush", Program: w("crush"), ID: tokenID, IDFrom: "--session"},
		exact:   w("crush", "--session", tokenID),
		latest:  w("crush", "--continue"),
		newArgv: w("crush"),
	},
	{
		name:    "crush run is one-shot",
		argv:    w("crush", "run", "hi"),
		want:    recognize.Command{Agent: "crush", Program: w("crush"), OneShot: true, OneShotWhy: "run"},
		exact:   w("crush", "--session", tokenID),
		latest:  w("crush", "--continue"),
		newArgv: w("crush"),
	},

	// cursor-agent
	{
		name:    "cursor-agent --resume",
		argv:    w("cursor-agent", "--resume", tokenID),
		want:    recognize.Command{Agent: "cursor-agent", Program: w("cursor-agent"), ID: tokenID, IDFrom: "--resume"},
		exact:   w("cursor-agent", "--resume", tokenID),
		latest:  w("cursor-agent", "--continue"),
		newArgv: w("cursor-agent"),
	},
	{
		name:    "cursor-agent create-chat is a helper",
		argv:    w("cursor-agent", "create-chat"),
		want:    recognize.Command{Agent: "cursor-agent", Program: w("cursor-agent"), Helper: true, HelperWhy: "create-chat"},
		exact:   w("cursor-agent", "--resume", tokenID),
		latest:  w("cursor-agent", "--continue"),
		newArgv: w("cursor-agent"),
	},

	// kimi
	{
		name:    "kimi -r id",
		argv:    w("kimi", "-r", uuid),
		want:    recognize.Command{Agent: "kimi", Program: w("kimi"), ID: uuid, IDFrom: "-r"},
		exact:   w("kimi", "--session", uuid),
		latest:  w("kimi", "--continue"),
		newArgv: w("kimi"),
	},
	{
		name:    "kimi -p is one-shot",
		argv:    w("kimi", "-p", "hi"),
		want:    recognize.Command{Agent: "kimi", Program: w("kimi"), OneShot: true, OneShotWhy: "-p"},
		exact:   w("kimi", "--session", uuid),
		latest:  w("kimi", "--continue"),
		newArgv: w("kimi"),
	},

	// hermes
	{
		name:    "hermes --resume latest",
		argv:    w("hermes", "--resume", "latest"),
		want:    recognize.Command{Agent: "hermes", Program: w("hermes"), Latest: true, LatestFrom: "--resume latest"},
		exact:   w("hermes", "--resume", tokenID),
		latest:  w("hermes", "--continue"),
		newArgv: w("hermes"),
	},
	{
		name:    "hermes --resume id",
		argv:    w("hermes", "--resume", tokenID),
		want:    recognize.Command{Agent: "hermes", Program: w("hermes"), ID: tokenID, IDFrom: "--resume"},
		exact:   w("hermes", "--resume", tokenID),
		latest:  w("hermes", "--continue"),
		newArgv: w("hermes"),
	},
	{
		name:    "hermes -q is one-shot",
		argv:    w("hermes", "-q", "hi"),
		want:    recognize.Command{Agent: "hermes", Program: w("hermes"), OneShot: true, OneShotWhy: "-q"},
		exact:   w("hermes", "--resume", tokenID),
		latest:  w("hermes", "--continue"),
		newArgv: w("hermes"),
	},

	// goose
	{
		name:    "goose session --resume --session-id",
		argv:    w("goose", "session", "--resume", "--session-id", tokenID),
		want:    recognize.Command{Agent: "goose", Program: w("goose"), ID: tokenID, IDFrom: "--session-id", Latest: true, LatestFrom: "--resume"},
		exact:   w("goose", "session", "--resume", "--session-id", tokenID),
		latest:  w("goose", "session", "--resume"),
		newArgv: w("goose", "session"),
	},
	{
		name:    "goose session -n name",
		argv:    w("goose", "session", "-n", "work"),
		want:    recognize.Command{Agent: "goose", Program: w("goose")},
		exact:   w("goose", "session", "--resume", "--session-id", tokenID),
		latest:  w("goose", "session", "--resume"),
		newArgv: w("goose", "session"),
	},
	{
		name:    "goose session list is a helper",
		argv:    w("goose", "session", "list"),
		want:    recognize.Command{Agent: "goose", Program: w("goose"), Helper: true, HelperWhy: "session list"},
		exact:   w("goose", "session", "--resume", "--session-id", tokenID),
		latest:  w("goose", "session", "--resume"),
		newArgv: w("goose", "session"),
	},
	{
		name:    "goose run is one-shot",
		argv:    w("goose", "run", "-t", "hi"),
		want:    recognize.Command{Agent: "goose", Program: w("goose"), OneShot: true, OneShotWhy: "run"},
		exact:   w("goose", "session", "--resume", "--session-id", tokenID),
		latest:  w("goose", "session", "--resume"),
		newArgv: w("goose", "session"),
	},

	// omp
	{
		name:    "omp -r id, -k secret",
		argv:    w("omp", "-k", "secret", "-r", uuid),
		want:    recognize.Command{Agent: "omp", Program: w("omp"), ID: uuid, IDFrom: "-r", SecretDropped: true},
		exact:   w("omp", "--resume", uuid),
		latest:  w("omp", "--continue"),
		newArgv: w("omp"),
	},
	{
		name:    "omp -c latest",
		argv:    w("omp", "-c"),
		want:    recognize.Command{Agent: "omp", Program: w("omp"), Latest: true, LatestFrom: "-c"},
		exact:   w("omp", "--resume", uuid),
		latest:  w("omp", "--continue"),
		newArgv: w("omp"),
	},

	// Recognised, never rewritten.
	{
		name: "mastracode",
		argv: w("mastracode"),
		want: recognize.Command{Agent: "mastracode", Program: w("mastracode")},
	},
	{
		name: "mastracode positional is one-shot",
		argv: w("mastracode", "fix it"),
		want: recognize.Command{Agent: "mastracode", Program: w("mastracode"), OneShot: true, OneShotWhy: "a positional argument"},
	},
	{
		name: "grok secret",
		argv: w("grok", "--api-key", "xai-1"),
		want: recognize.Command{Agent: "grok", Program: w("grok"), SecretDropped: true},
	},
	{
		name: "aider",
		argv: w("/home/u/.local/bin/aider", "--no-auto-commits"),
		want: recognize.Command{Agent: "aider", Program: w("/home/u/.local/bin/aider"), Flags: w("--no-auto-commits")},
	},
	{
		name: "junie",
		argv: w("junie"),
		want: recognize.Command{Agent: "junie", Program: w("junie")},
	},
}

func TestRecognizeAndResumeArgv(t *testing.T) {
	s := loadShipped(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got recognize.Command
			var ok bool
			if tc.line != "" {
				got, ok = recognize.String(s, tc.line)
			} else {
				got, ok = recognize.Argv(s, tc.argv)
			}
			if !ok {
				t.Fatalf("not recognised")
			}
			if diff := cmp.Diff(tc.want, got, cmpCommand); diff != "" {
				t.Errorf("command (-want +got):\n%s", diff)
			}
			for _, m := range []struct {
				mode plan.Mode
				id   string
				want []string
			}{
				{plan.ModeExact, sampleID[got.Agent], tc.exact},
				{plan.ModeLatest, "", tc.latest},
				{plan.ModeNew, "", tc.newArgv},
			} {
				argv, err := plan.ResumeArgv(s, got, m.mode, m.id)
				if m.want == nil {
					if err == nil {
						t.Errorf("%s: got %q, want an error", m.mode, argv)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", m.mode, err)
					continue
				}
				if diff := cmp.Diff(m.want, argv); diff != "" {
					t.Errorf("%s argv (-want +got):\n%s", m.mode, diff)
				}
				// What kittymux writes must read back as the same command
				// with the mode's id or latest flag: nothing doubled.
				back, ok := recognize.Argv(s, argv)
				if !ok {
					t.Errorf("%s argv %q is not recognised", m.mode, argv)
					continue
				}
				if diff := cmp.Diff(got.Flags, back.Flags, cmpCommand); diff != "" {
					t.Errorf("%s argv %q reads back with other flags (-want +got):\n%s", m.mode, argv, diff)
				}
				if m.mode == plan.ModeExact && back.ID != m.id {
					t.Errorf("exact argv %q reads back with id %q", argv, back.ID)
				}
				if m.mode == plan.ModeLatest && !back.Latest {
					t.Errorf("latest argv %q does not read back as latest", argv)
				}
			}
		})
	}
}

// TestEveryDefinitionCovered keeps the table honest: a new definition needs
// cases, and every resuming agent needs an exact, a latest and a new argv.
func TestEveryDefinitionCovered(t *testing.T) {
	s := loadShipped(t)
	type cover struct{ recognised, exact, latest, newArgv bool }
	seen := map[string]*cover{}
	for _, tc := range cases {
		c, ok := recognize.Argv(s, tc.argv)
		if tc.line != "" {
			c, ok = recognize.String(s, tc.line)
		}
		if !ok {
			continue
		}
		cv := seen[c.Agent]
		if cv == nil {
			cv = &cover{}
			seen[c.Agent] = cv
		}
		cv.recognised = true
		cv.exact = cv.exact || tc.exact != nil
		cv.latest = cv.latest || tc.latest != nil
		cv.newArgv = cv.newArgv || tc.newArgv != nil
	}
	required := []string{"claude", "codex", "gemini", "copilot", "opencode", "kilo", "pi", "qodercli", "droid", "amp",
		"crush", "cursor-agent", "kimi", "hermes", "goose", "omp", "mastracode", "grok", "aider", "junie"}
	for _, n := range required {
		if _, ok := s.Definition(n); !ok {
			t.Errorf("no shipped definition for %s", n)
		}
	}
	for _, n := range s.Names() {
		cv := seen[n]
		if cv == nil || !cv.recognised {
			t.Errorf("%s: no recognition case", n)
			continue
		}
		d, _ := s.Definition(n)
		if !s.CanResume(n) {
			continue
		}
		if !cv.exact || !cv.newArgv || (len(d.Latest) > 0 && !cv.latest) {
			t.Errorf("%s: cases lack an exact, latest or new argv: %+v", n, *cv)
		}
	}
}

func TestResumeArgvCannotResume(t *testing.T) {
	s := loadShipped(t)
	for _, n := range []string{"mastracode", "grok", "aider", "junie"} {
		c, ok := recognize.Argv(s, []string{n})
		if !ok {
			t.Fatalf("%s not recognised", n)
		}
		for _, m := range []plan.Mode{plan.ModeExact, plan.ModeLatest, plan.ModeNew} {
			if argv, err := plan.ResumeArgv(s, c, m, uuid); err == nil {
				t.Errorf("%s %s: got %q, want an error", n, m, argv)
			}
		}
	}
}

func TestResumeArgvRefusesHostileIDs(t *testing.T) {
	s := loadShipped(t)
	c, _ := recognize.Argv(s, []string{"claude", "--model", "opus"})
	hermes, _ := recognize.Argv(s, []string{"hermes"}) // a plain-token id form
	for _, id := range []string{
		"--dangerously-skip-permissions", "-x", "$(touch x)", "`touch x`", "a;b", "a\nb", "", "x y", "a|b", "a&b",
		"a>b", "*", "~root", "a'b", `a"b`, "a\\b", "a\tb", uuid + "\n", uuid + " --model x", "../../etc/passwd",
		"4f9e2a51\u20103c1d-4b7a-9e0f-2d5c8a1b6e73", strings.Repeat("a", 300),
	} {
		if argv, err := plan.ResumeArgv(s, c, plan.ModeExact, id); err == nil {
			t.Errorf("claude id %q: got %q, want an error", id, argv)
		}
		if argv, err := plan.ResumeArgv(s, hermes, plan.ModeExact, id); err == nil {
			t.Errorf("hermes id %q: got %q, want an error", id, argv)
		}
	}
	// An id of another agent's form is refused too.
	if argv, err := plan.ResumeArgv(s, c, plan.ModeExact, sesID); err == nil {
		t.Errorf("claude with an opencode id: got %q", argv)
	}
	if _, err := plan.ResumeArgv(s, c, plan.ModeAsSaved, ""); err == nil {
		t.Error("as-saved: want an error")
	}
	if _, err := plan.ResumeArgv(s, c, "sideways", ""); err == nil {
		t.Error("unknown mode: want an error")
	}
	if _, err := plan.ResumeArgv(s, recognize.Command{Agent: "nope", Program: []string{"nope"}}, plan.ModeNew, ""); err == nil {
		t.Error("unknown agent: want an error")
	}
}

func TestRecognizeStringRefuses(t *testing.T) {
	s := loadShipped(t)
	for _, line := range []string{
		"cd api && claude",
		"claude && echo done",
		"claude; echo",
		"claude;",
		"claude | tee log",
		"claude |& tee log",
		"claude > log",
		"claude 2>/dev/null",
		"claude < prompt.txt",
		"claude --model $MODEL",
		"claude --model ${MODEL}",
		"claude --model \"$MODEL\"",
		"claude $(cat args)",
		"claude `cat args`",
		"(claude)",
		"{ claude; }",
		"claude &",
		"claude --add-dir *.go",
		"claude --add-dir ~/lib",
		"claude --add-dir {a,b}",
		"claude --add-dir lib?",
		"FOO=$X claude",
		"FOO=$(id) claude",
		"FOO+=1 claude",
		"arr=(a b) claude",
		"! claude",
		"claude <(echo hi)",
		"env FOO=1 claude",
		"exec claude",
		"sudo claude",
		"if true; then claude; fi",
		"claude\nclaude",
		"claude 'unterminated",
		"FOO=1",
		"",
		"vim notes.txt",
		"$'claude' --model x",
		`$"claude"`,
	} {
		if c, ok := recognize.String(s, line); ok {
			t.Errorf("%q recognised as %+v", line, c)
		}
	}
	// Escapes and quotes are literal.
	c, ok := recognize.String(s, `claude --model 'opus' --add-dir my\ dir --append-system-prompt "be brief"`)
	if !ok {
		t.Fatal("quoted line not recognised")
	}
	want := []string{"--model", "opus", "--add-dir", "my dir", "--append-system-prompt", "be brief"}
	if diff := cmp.Diff(want, c.Flags); diff != "" {
		t.Errorf("flags (-want +got):\n%s", diff)
	}
}

func TestRecognizeArgvRefuses(t *testing.T) {
	s := loadShipped(t)
	for _, argv := range [][]string{
		nil,
		{},
		{"bash", "--posix"},
		{"/bin/sh", "-c", "claude --continue"},
		{"env", "FOO=1", "claude"},
		{"node"},
		{"node", "/home/u/app/server.js"},
		{"node", "-e", "require('child_process')", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"},
		{"node", "--require", "/tmp/evil.js", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"},
		{"node", "--import=/tmp/evil.mjs", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"},
		{"python3", "-c", "print(1)", "aider"},
		{"claudex"},
		{"/usr/lib/node_modules/@anthropic-ai/claude-code-extra/x"},
		{"-claude"},
	} {
		if c, ok := recognize.Argv(s, argv); ok {
			t.Errorf("%q recognised as %+v", argv, c)
		}
	}
}

func TestRecognizeProcesses(t *testing.T) {
	s := loadShipped(t)
	const native = "/u/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
	tests := []struct {
		name  string
		procs [][]string
		want  recognize.Command
		ok    bool
	}{
		{
			name: "codex node and native child count once, outermost kept",
			procs: [][]string{
				{"node", "/u/lib/node_modules/@openai/codex/bin/codex.js", "--model", "x"},
				{native, "--model", "x"},
			},
			want: recognize.Command{Agent: "codex", Program: w("node", "/u/lib/node_modules/@openai/codex/bin/codex.js"), Flags: w("--model", "x")},
			ok:   true,
		},
		{
			name: "gemini node and re-spawned node",
			procs: [][]string{
				{"node", "/u/bin/gemini", "--model", "x"},
				{"/usr/bin/node", "--max-old-space-size=12052", "/u/lib/node_modules/@google/gemini-cli/dist/index.js", "--model", "x"},
			},
			want: recognize.Command{Agent: "gemini", Program: w("node", "/u/bin/gemini"), Flags: w("--model", "x")},
			ok:   true,
		},
		{
			name: "copilot node and native child",
			procs: [][]string{
				{"node", "/u/bin/copilot"},
				{"/u/lib/node_modules/@github/copilot-linux-x64/copilot"},
			},
			want: recognize.Command{Agent: "copilot", Program: w("node", "/u/bin/copilot")},
			ok:   true,
		},
		{
			name:  "pi renamed itself",
			procs: [][]string{{"pi"}},
			want:  recognize.Command{Agent: "pi", Program: w("pi"), FlagsHidden: true},
			ok:    true,
		},
		{
			name: "a later process of the same agent with more to say wins",
			procs: [][]string{
				{"pi"},
				{"node", "/u/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "--session", uuid},
			},
			want: recognize.Command{Agent: "pi", Program: w("node", "/u/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"), ID: uuid, IDFrom: "--session"},
			ok:   true,
		},
		{
			name:  "shell only",
			procs: [][]string{{"/bin/bash", "--posix"}},
		},
		{
			name:  "agent behind a non-agent",
			procs: [][]string{{"/bin/bash"}, {"claude", "-c"}},
			want:  recognize.Command{Agent: "claude", Program: w("claude"), Latest: true, LatestFrom: "-c"},
			ok:    true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := recognize.Processes(s, tc.procs)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if diff := cmp.Diff(tc.want, got, cmpCommand); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestWrittenArgvValidates: whatever ResumeArgv writes for the recognition
// table, the restore prompt's validation accepts.
func TestWrittenArgvValidates(t *testing.T) {
	s := loadShipped(t)
	for _, tc := range cases {
		c, ok := recognize.Argv(s, tc.argv)
		if tc.line != "" {
			c, ok = recognize.String(s, tc.line)
		}
		if !ok || c.OneShot || c.Helper || !s.CanResume(c.Agent) || c.PromptDropped || c.SecretDropped {
			continue
		}
		for _, m := range []plan.Mode{plan.ModeExact, plan.ModeLatest, plan.ModeNew} {
			id := ""
			if m == plan.ModeExact {
				id = sampleID[c.Agent]
			}
			argv, err := plan.ResumeArgv(s, c, m, id)
			if err != nil {
				t.Errorf("%s: %s: %v", tc.name, m, err)
				continue
			}
			if err := plan.Validate(s, c.Agent, m, id, argv); err != nil {
				t.Errorf("%s: written %s argv %q does not validate: %v", tc.name, m, argv, err)
			}
		}
	}
}
