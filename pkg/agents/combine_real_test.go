package agents_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// TestRealClaudeSessionIDBesideResume: the rule comes from the installed
// claude, not from memory. A conversation started with --session-id (as a
// user or a tool starts one) is saved; the argv kittymux builds for its
// resume is run by the real claude with the model stand-in, offline (with
// -p and a prompt added, so it runs headless): claude accepts it and the
// next request carries the earlier turn, the same conversation. The same
// argv with --session-id kept beside --resume is what the installed claude
// refuses, and its error states the rule (--fork-session), the rule
// refusedBeside keeps.
func TestRealClaudeSessionIDBesideResume(t *testing.T) {
	t.Parallel()
	claude, _, work, env, stub := agentstest.AtStandIn(t, "claude", "api", (*modelstub.Server).ClaudeHome)
	const id = "2d4f6a8c-1b3d-4e5f-9a7b-0c2d4e6f8a1b"
	agentstest.RunCLI(t, work, env, claude, "-p", "remember LARCH", "--session-id", id)

	set := agentstest.Shipped(t)
	saved := []string{claude, "--model", "sonnet", "--session-id", id}
	c, ok := recognize.Argv(set, saved)
	if !ok {
		t.Fatalf("%q not recognised", saved)
	}
	argv, err := plan.ResumeArgv(set, c, plan.ModeExact, id)
	if err != nil {
		t.Fatalf("resume argv of %q: %v", saved, err)
	}
	if slices.Contains(argv, "--session-id") || !slices.Contains(argv, "--resume") {
		t.Fatalf("resume argv %q: want --resume %s and no --session-id", argv, id)
	}
	argv[0] = claude
	agentstest.RunCLI(t, work, env, append(slices.Clone(argv), "-p", "what was the word? BIRCH")...)
	rs := stub.WaitCarrying(t, "BIRCH", 30*time.Second)
	if !slices.ContainsFunc(rs, func(r modelstub.Request) bool {
		return strings.Contains(r.LastText(), "BIRCH") && r.Carries("LARCH")
	}) {
		t.Errorf("the resumed turn does not carry the earlier one: not the same conversation\n%s", stub.Summary())
	}

	refused := append(slices.Clone(argv), "--session-id", "3e5a7b9d-2c4e-4f6a-8b8c-1d3e5f7a9b2c", "-p", "x")
	out, err := runRefused(t, work, env, refused)
	if err == nil {
		t.Fatalf("the installed claude accepted %q: its rule changed; revisit refusedBeside\n%s", refused, out)
	}
	if !statesRule(out) {
		t.Errorf("claude refused %q without stating the rule:\n%s", refused, out)
	}
}

// statesRule reports whether claude's refusal states the rule: "--session-id
// can only be used with --continue or --resume if --fork-session is also
// specified" (2.1.197), "--session-id with --continue or --resume also needs
// --fork-session." (2.1.332).
func statesRule(out string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "--session-id") && strings.Contains(l, "--resume") && strings.Contains(l, "--fork-session") {
			return true
		}
	}
	return false
}

// runRefused runs argv as agentstest.RunCLI does, returning its failure.
func runRefused(t *testing.T, dir string, env, argv []string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(modelstub.Isolated(os.Environ()), env...)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
