package agents_test

import (
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
)

const claudeJS = "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"

func TestValidateAccepts(t *testing.T) {
	s := loadShipped(t)
	good := []struct {
		agent string
		mode  agents.Mode
		id    string
		argv  []string
	}{
		{"claude", agents.ModeExact, uuid, w("claude", "--model", "sonnet", "--resume", uuid)},
		{"claude", agents.ModeExact, uuid, w("/home/u/.local/bin/claude", "--resume", uuid)},
		{"claude", agents.ModeExact, uuid, w("node", claudeJS, "--resume", uuid)},
		{"claude", agents.ModeExact, uuid, w("/usr/bin/node", "--max-old-space-size=4096", claudeJS, "--resume", uuid)},
		{"claude", agents.ModeLatest, "", w("claude", "--model", "opus", "--dangerously-skip-permissions", "--continue")},
		{"claude", agents.ModeNew, "", w("claude", "--model", "opus")},
		{"claude", agents.ModeNew, "", w("claude")},
		{"codex", agents.ModeExact, codexID, w("/home/u/.local/bin/codex", "resume", codexID)},
		{"codex", agents.ModeExact, codexID, w("codex", "resume", codexID, "-c", "model=o3", "-p", "work")},
		{"codex", agents.ModeLatest, "", w("codex", "resume", "--last", "-m", "o3")},
		{"gemini", agents.ModeLatest, "", w("gemini", "--resume", "latest")},
		{"copilot", agents.ModeExact, uuid, w("copilot", "--resume="+uuid)},
		{"opencode", agents.ModeExact, sesID, w("opencode", "-m", "anthropic/claude", "--session", sesID)},
		{"opencode", agents.ModeLatest, "", w("opencode", "/home/u/code/api", "--continue")},
		{"amp", agents.ModeExact, ampID, w("amp", "threads", "continue", ampID)},
		{"goose", agents.ModeExact, tokenID, w("goose", "session", "--resume", "--session-id", tokenID)},
		{"goose", agents.ModeNew, "", w("goose", "session")},
		{"pi", agents.ModeExact, uuid, w("pi", "--session", uuid)},
		{"droid", agents.ModeLatest, "", w("droid", "--resume", "--last")},
	}
	for _, g := range good {
		if err := s.Validate(g.agent, g.mode, g.id, g.argv); err != nil {
			t.Errorf("Validate(%s, %s, %q, %q): %v", g.agent, g.mode, g.id, g.argv, err)
		}
	}
	// Whatever Decide writes validates.
	for _, tc := range cases {
		c, ok := s.RecognizeArgv(tc.argv)
		if tc.line != "" {
			c, ok = s.RecognizeString(tc.line)
		}
		if !ok || c.OneShot || c.Helper || !s.CanResume(c.Agent) || c.PromptDropped || c.SecretDropped {
			continue
		}
		for _, m := range []agents.Mode{agents.ModeExact, agents.ModeLatest, agents.ModeNew} {
			id := ""
			if m == agents.ModeExact {
				id = sampleID[c.Agent]
			}
			argv, err := s.ResumeArgv(c, m, id)
			if err != nil {
				t.Errorf("%s: %s: %v", tc.name, m, err)
				continue
			}
			if err := s.Validate(c.Agent, m, id, argv); err != nil {
				t.Errorf("%s: written %s argv %q does not validate: %v", tc.name, m, argv, err)
			}
		}
	}
}

func TestValidateRejects(t *testing.T) {
	s := loadShipped(t)
	bad := []struct {
		name  string
		agent string
		mode  agents.Mode
		id    string
		argv  []string
		want  string // part of the error
	}{
		{"extra word after the id", "claude", agents.ModeExact, uuid, w("claude", "--resume", uuid, "extra"), "holds a prompt"},
		{"flag after the id", "claude", agents.ModeExact, uuid, w("claude", "--resume", uuid, "--dangerously-skip-permissions"), "not what kittymux writes"},
		{"id is an option", "claude", agents.ModeExact, "--dangerously-skip-permissions", w("claude", "--resume", "--dangerously-skip-permissions"), "starts with '-'"},
		{"changed program", "claude", agents.ModeExact, uuid, w("bash", "--resume", uuid), "not a known agent"},
		{"other agent's program", "claude", agents.ModeExact, codexID, w("codex", "resume", codexID), "is codex, not claude"},
		{"env wrapper", "claude", agents.ModeExact, uuid, w("env", "X=1", "claude", "--resume", uuid), "not a known agent"},
		{"sh -c", "claude", agents.ModeExact, uuid, w("/bin/sh", "-c", "claude --resume "+uuid), "not a known agent"},
		{"prompt argument", "claude", agents.ModeLatest, "", w("claude", "fix the tests", "--continue"), "holds a prompt"},
		{"resume doubled", "claude", agents.ModeExact, uuid, w("claude", "--resume", uuid, "--resume", uuid), "not what kittymux writes"},
		{"two ids", "claude", agents.ModeExact, uuid, w("claude", "--session-id", codexID, "--resume", uuid), "not what kittymux writes"},
		{"id mismatch", "claude", agents.ModeExact, codexID, w("claude", "--resume", uuid), "not what kittymux writes"},
		{"unknown agent", "nope", agents.ModeNew, "", w("nope"), "unknown agent"},
		{"agent that cannot resume", "mastracode", agents.ModeNew, "", w("mastracode"), "cannot resume"},
		{"as-saved", "claude", agents.ModeAsSaved, "", w("claude"), "as-saved"},
		{"unknown mode", "claude", "sideways", "", w("claude"), "unknown mode"},
		{"empty argv", "claude", agents.ModeNew, "", nil, "empty"},
		{"command substitution id", "claude", agents.ModeExact, "$(touch x)", w("claude", "--resume", "$(touch x)"), "not a plain conversation id"},
		{"semicolon id", "claude", agents.ModeExact, "a;b", w("claude", "--resume", "a;b"), "not a plain conversation id"},
		{"newline id", "claude", agents.ModeExact, "a\nb", w("claude", "--resume", "a\nb"), "whitespace"},
		{"empty id", "claude", agents.ModeExact, "", w("claude", "--resume"), "the id is empty"},
		{"space id", "claude", agents.ModeExact, "x y", w("claude", "--resume", "x y"), "whitespace"},
		{"glob id", "hermes", agents.ModeExact, "*", w("hermes", "--resume", "*"), "not a plain conversation id"},
		{"id of the wrong form", "claude", agents.ModeExact, "T-abc", w("claude", "--resume", "T-abc"), "does not match the id form of claude"},
		{"unicode hyphen id", "claude", agents.ModeExact, "4f9e2a51\u20103c1d-4b7a-9e0f-2d5c8a1b6e73", w("claude", "--resume", "4f9e2a51\u20103c1d-4b7a-9e0f-2d5c8a1b6e73"), ""},
		{"latest with an id", "claude", agents.ModeLatest, uuid, w("claude", "--continue"), "takes no id"},
		{"latest without the flag", "claude", agents.ModeLatest, "", w("claude"), "not what kittymux writes"},
		{"new with --continue", "claude", agents.ModeNew, "", w("claude", "--continue"), "not what kittymux writes"},
		{"one-shot", "claude", agents.ModeLatest, "", w("claude", "-p", "--continue"), "one-shot"},
		{"helper", "claude", agents.ModeNew, "", w("claude", "mcp"), "helper"},
		{"node --require", "claude", agents.ModeExact, uuid, w("node", "--require", "/tmp/x.js", claudeJS, "--resume", uuid), "not a known agent"},
		{"node -e", "claude", agents.ModeNew, "", w("node", "-e", "process.exit()", claudeJS), "not a known agent"},
		{"secret", "pi", agents.ModeLatest, "", w("pi", "--api-key", "sk-1", "--continue"), "secret"},
		{"--resume=id form", "claude", agents.ModeExact, uuid, w("claude", "--resume="+uuid), "not what kittymux writes"},
		{"codex flags before resume", "codex", agents.ModeExact, codexID, w("codex", "-m", "o3", "resume", codexID), "not what kittymux writes"},
		{"codex prompt after id", "codex", agents.ModeExact, codexID, w("codex", "resume", codexID, "go on"), "prompt"},
		{"empty word", "claude", agents.ModeLatest, "", w("claude", "", "--continue"), "empty"},
		{"newline in program", "claude", agents.ModeNew, "", w("claude\n"), "control character"},
		{"escape sequence", "claude", agents.ModeNew, "", w("claude", "--model", "\x1b[31mopus"), "control character"},
		{"opencode prompt as path", "opencode", agents.ModeLatest, "", w("opencode", "fix the tests", "--continue"), "prompt"},
		{"id after --", "claude", agents.ModeExact, uuid, w("claude", "--", "--resume", uuid), "prompt"},
		{"goose latest with extra", "goose", agents.ModeLatest, "", w("goose", "session", "--resume", "extra"), "not what kittymux writes"},
		{"amp id with a slash", "amp", agents.ModeExact, "T-1/../x", w("amp", "threads", "continue", "T-1/../x"), "not a plain conversation id"},
		{"too long id", "hermes", agents.ModeExact, strings.Repeat("a", 300), w("hermes", "--resume", strings.Repeat("a", 300)), "not a plain conversation id"},
		{"exact mode with a latest argv", "claude", agents.ModeExact, uuid, w("claude", "--continue"), "not what kittymux writes"},
	}
	if len(bad) < 30 {
		t.Fatalf("only %d hostile records", len(bad))
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			err := s.Validate(b.agent, b.mode, b.id, b.argv)
			if err == nil {
				t.Fatalf("Validate(%s, %s, %q, %q) accepted it", b.agent, b.mode, b.id, b.argv)
			}
			if !strings.Contains(err.Error(), b.want) {
				t.Errorf("error %q does not say %q", err, b.want)
			}
		})
	}
}
