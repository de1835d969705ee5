package plan_test

import (
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/plan"
)

const claudeJS = "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"

func TestValidateAccepts(t *testing.T) {
	s := loadShipped(t)
	good := []struct {
		agent string
		mode  plan.Mode
		id    string
		argv  []string
	}{
		{"claude", plan.ModeExact, agentstest.UUID, w("claude", "--model", "sonnet", "--resume", agentstest.UUID)},
		{"claude", plan.ModeExact, agentstest.UUID, w("/home/u/.local/bin/claude", "--resume", agentstest.UUID)},
		{"claude", plan.ModeExact, agentstest.UUID, w("node", claudeJS, "--resume", agentstest.UUID)},
		{"claude", plan.ModeExact, agentstest.UUID, w("/usr/bin/node", "--max-old-space-size=4096", claudeJS, "--resume", agentstest.UUID)},
		{"claude", plan.ModeLatest, "", w("claude", "--model", "opus", "--dangerously-skip-permissions", "--continue")},
		{"claude", plan.ModeNew, "", w("claude", "--model", "opus")},
		{"claude", plan.ModeNew, "", w("claude")},
		{"codex", plan.ModeExact, agentstest.CodexID, w("/home/u/.local/bin/codex", "resume", agentstest.CodexID)},
		{"codex", plan.ModeExact, agentstest.CodexID, w("codex", "resume", agentstest.CodexID, "-c", "model=o3", "-p", "work")},
		{"codex", plan.ModeLatest, "", w("codex", "resume", "--last", "-m", "o3")},
		{"gemini", plan.ModeLatest, "", w("gemini", "--resume", "latest")},
		{"copilot", plan.ModeExact, agentstest.UUID, w("copilot", "--resume="+agentstest.UUID)},
		{"opencode", plan.ModeExact, agentstest.SesID, w("opencode", "-m", "anthropic/claude", "--session", agentstest.SesID)},
		{"opencode", plan.ModeLatest, "", w("opencode", "/home/u/code/api", "--continue")},
		{"amp", plan.ModeExact, agentstest.AmpID, w("amp", "threads", "continue", agentstest.AmpID)},
		{"goose", plan.ModeExact, agentstest.TokenID, w("goose", "session", "--resume", "--session-id", agentstest.TokenID)},
		{"goose", plan.ModeNew, "", w("goose", "session")},
		{"pi", plan.ModeExact, agentstest.UUID, w("pi", "--session", agentstest.UUID)},
		{"droid", plan.ModeLatest, "", w("droid", "--resume", "--last")},
	}
	for _, g := range good {
		if err := plan.Validate(s, g.agent, g.mode, g.id, g.argv); err != nil {
			t.Errorf("Validate(%s, %s, %q, %q): %v", g.agent, g.mode, g.id, g.argv, err)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	s := loadShipped(t)
	bad := []struct {
		name  string
		agent string
		mode  plan.Mode
		id    string
		argv  []string
		want  string // part of the error
	}{
		{"extra word after the id", "claude", plan.ModeExact, agentstest.UUID, w("claude", "--resume", agentstest.UUID, "extra"), "holds a prompt"},
		{"flag after the id", "claude", plan.ModeExact, agentstest.UUID, w("claude", "--resume", agentstest.UUID, "--dangerously-skip-permissions"), "not what kittymux writes"},
		{"id is an option", "claude", plan.ModeExact, "--dangerously-skip-permissions", w("claude", "--resume", "--dangerously-skip-permissions"), "starts with '-'"},
		{"changed program", "claude", plan.ModeExact, agentstest.UUID, w("bash", "--resume", agentstest.UUID), "not a known agent"},
		{"other agent's program", "claude", plan.ModeExact, agentstest.CodexID, w("codex", "resume", agentstest.CodexID), "is codex, not claude"},
		{"env wrapper", "claude", plan.ModeExact, agentstest.UUID, w("env", "X=1", "claude", "--resume", agentstest.UUID), "not a known agent"},
		{"sh -c", "claude", plan.ModeExact, agentstest.UUID, w("/bin/sh", "-c", "claude --resume "+agentstest.UUID), "not a known agent"},
		{"prompt argument", "claude", plan.ModeLatest, "", w("claude", "fix the tests", "--continue"), "holds a prompt"},
		{"resume doubled", "claude", plan.ModeExact, agentstest.UUID, w("claude", "--resume", agentstest.UUID, "--resume", agentstest.UUID), "not what kittymux writes"},
		{"two ids", "claude", plan.ModeExact, agentstest.UUID, w("claude", "--session-id", agentstest.CodexID, "--resume", agentstest.UUID), "not what kittymux writes"},
		{"id mismatch", "claude", plan.ModeExact, agentstest.CodexID, w("claude", "--resume", agentstest.UUID), "not what kittymux writes"},
		{"unknown agent", "nope", plan.ModeNew, "", w("nope"), "unknown agent"},
		{"agent that cannot resume", "mastracode", plan.ModeNew, "", w("mastracode"), "cannot resume"},
		{"as-saved", "claude", plan.ModeAsSaved, "", w("claude"), "as-saved"},
		{"unknown mode", "claude", "sideways", "", w("claude"), "unknown mode"},
		{"empty argv", "claude", plan.ModeNew, "", nil, "empty"},
		{"command substitution id", "claude", plan.ModeExact, "$(touch x)", w("claude", "--resume", "$(touch x)"), "not a plain conversation id"},
		{"semicolon id", "claude", plan.ModeExact, "a;b", w("claude", "--resume", "a;b"), "not a plain conversation id"},
		{"newline id", "claude", plan.ModeExact, "a\nb", w("claude", "--resume", "a\nb"), "whitespace"},
		{"empty id", "claude", plan.ModeExact, "", w("claude", "--resume"), "the id is empty"},
		{"space id", "claude", plan.ModeExact, "x y", w("claude", "--resume", "x y"), "whitespace"},
		{"glob id", "hermes", plan.ModeExact, "*", w("hermes", "--resume", "*"), "not a plain conversation id"},
		{"id of the wrong form", "claude", plan.ModeExact, "T-abc", w("claude", "--resume", "T-abc"), "does not match the id form of claude"},
		{"unicode hyphen id", "claude", plan.ModeExact, "4f9e2a51\u20103c1d-4b7a-9e0f-2d5c8a1b6e73", w("claude", "--resume", "4f9e2a51\u20103c1d-4b7a-9e0f-2d5c8a1b6e73"), ""},
		{"latest with an id", "claude", plan.ModeLatest, agentstest.UUID, w("claude", "--continue"), "takes no id"},
		{"latest without the flag", "claude", plan.ModeLatest, "", w("claude"), "not what kittymux writes"},
		{"new with --continue", "claude", plan.ModeNew, "", w("claude", "--continue"), "not what kittymux writes"},
		{"one-shot", "claude", plan.ModeLatest, "", w("claude", "-p", "--continue"), "one-shot"},
		{"helper", "claude", plan.ModeNew, "", w("claude", "mcp"), "helper"},
		{"node --require", "claude", plan.ModeExact, agentstest.UUID, w("node", "--require", "/tmp/x.js", claudeJS, "--resume", agentstest.UUID), "not a known agent"},
		{"node -e", "claude", plan.ModeNew, "", w("node", "-e", "process.exit()", claudeJS), "not a known agent"},
		{"secret", "pi", plan.ModeLatest, "", w("pi", "--api-key", "sk-1", "--continue"), "secret"},
		{"--resume=id form", "claude", plan.ModeExact, agentstest.UUID, w("claude", "--resume="+agentstest.UUID), "not what kittymux writes"},
		{"codex flags before resume", "codex", plan.ModeExact, agentstest.CodexID, w("codex", "-m", "o3", "resume", agentstest.CodexID), "not what kittymux writes"},
		{"codex prompt after id", "codex", plan.ModeExact, agentstest.CodexID, w("codex", "resume", agentstest.CodexID, "go on"), "prompt"},
		{"empty word", "claude", plan.ModeLatest, "", w("claude", "", "--continue"), "empty"},
		{"newline in program", "claude", plan.ModeNew, "", w("claude\n"), "control character"},
		{"escape sequence", "claude", plan.ModeNew, "", w("claude", "--model", "\x1b[31mopus"), "control character"},
		{"opencode prompt as path", "opencode", plan.ModeLatest, "", w("opencode", "fix the tests", "--continue"), "prompt"},
		{"id after --", "claude", plan.ModeExact, agentstest.UUID, w("claude", "--", "--resume", agentstest.UUID), "prompt"},
		{"goose latest with extra", "goose", plan.ModeLatest, "", w("goose", "session", "--resume", "extra"), "not what kittymux writes"},
		{"amp id with a slash", "amp", plan.ModeExact, "T-1/../x", w("amp", "threads", "continue", "T-1/../x"), "not a plain conversation id"},
		{"too long id", "hermes", plan.ModeExact, strings.Repeat("a", 300), w("hermes", "--resume", strings.Repeat("a", 300)), "not a plain conversation id"},
		{"exact mode with a latest argv", "claude", plan.ModeExact, agentstest.UUID, w("claude", "--continue"), "not what kittymux writes"},
	}
	if len(bad) < 30 {
		t.Fatalf("only %d hostile records", len(bad))
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			err := plan.Validate(s, b.agent, b.mode, b.id, b.argv)
			if err == nil {
				t.Fatalf("Validate(%s, %s, %q, %q) accepted it", b.agent, b.mode, b.id, b.argv)
			}
			if !strings.Contains(err.Error(), b.want) {
				t.Errorf("error %q does not say %q", err, b.want)
			}
		})
	}
}
