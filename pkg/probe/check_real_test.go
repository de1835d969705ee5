package probe_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
)

// TestCheckRealCLIs probes the real claude and codex found on PATH (CI puts
// the npm bin directory there) with a scratch HOME, and requires every flag
// the definitions use to be confirmed. Missing CLIs skip the test unless
// KITTYMUX_E2E=require.
func TestCheckRealCLIs(t *testing.T) {
	var missing []string
	for _, n := range []string{"claude", "codex"} {
		if _, err := exec.LookPath(n); err != nil {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		msg := "not on PATH: " + strings.Join(missing, ", ") + " (npm install @anthropic-ai/claude-code @openai/codex and put node_modules/.bin on PATH)"
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	s := loadShipped(t)
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		// The CLIs write under HOME and XDG dirs on --help: keep them in the scratch HOME.
		if k, _, _ := strings.Cut(kv, "="); k == "HOME" || strings.HasPrefix(k, "XDG_") || k == "CODEX_HOME" || k == "CLAUDE_CONFIG_DIR" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home)
	rep, err := probe.Check(context.Background(), s, probe.CheckOptions{Env: env, Agents: []string{"claude", "codex"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rep.Agents {
		t.Logf("%s %s (%s): ok=%v missing=%v error=%q", a.Agent, a.Path, a.Version, a.OK, a.Missing, a.Error)
		if !a.Installed || !a.OK {
			t.Errorf("%s: installed=%v ok=%v missing=%v error=%q", a.Agent, a.Installed, a.OK, a.Missing, a.Error)
		}
	}
	// And Decide trusts them for every mode.
	ws := []live.AgentWindow{
		{ID: 1, Cwd: "/a", Cmd: recognised(t, s, "claude --model opus")},
		{ID: 2, Cwd: "/a", Cmd: recognised(t, s, "codex -m o3")},
		{ID: 3, Cwd: "/b", Cmd: recognised(t, s, "codex resume "+agentstest.CodexID)},
	}
	for _, d := range plan.Decide(s, ws, rep.Probes()) {
		if d.Mode == plan.ModeAsSaved {
			t.Errorf("window %d: as-saved: %s", d.WindowID, d.Reason)
		}
	}
}
