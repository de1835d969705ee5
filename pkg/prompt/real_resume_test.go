package prompt_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// TestRealClaudeResumeChecked: the real claude, talking to the model
// stand-in. A conversation held in one directory is restored into a window
// whose directory is another: the prompt finds claude's transcript, runs
// the resume in the conversation's own directory, and records its pid; the
// claude it became reports, in its own sessions/<pid>.json, the very
// conversation asked for (what the restore report compares). Once claude's transcript is deleted,
// the prompt says the conversation no longer exists and runs nothing.
func TestRealClaudeResumeChecked(t *testing.T) {
	claude, err := exec.LookPath("claude")
	if err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("claude is not on PATH; .ci/run installs it from npm")
		}
		t.Skip("claude is not on PATH (KITTYMUX_E2E=require makes this fatal)")
	}
	w := newWorld(t)
	stub := modelstub.Start(t)
	own := filepath.Join(w.dir, "api")
	if err := os.Mkdir(own, 0o700); err != nil {
		t.Fatal(err)
	}
	own, _ = filepath.EvalSymlinks(own)
	agentEnv := stub.ClaudeHome(t, w.home, own, w.cwd)
	const id = "6b1f0d32-8e5c-4a47-9b29-3c7f1d4e9a58"
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "remember REAL-RESUME-TURN", "--session-id", id)
	cmd.Dir = own
	cmd.Env = append(append(w.env(), agentEnv...), "PATH="+filepath.Dir(claude)+":/usr/bin:/bin")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("claude -p: %v\n%s", err, out)
	}

	w.extraEnv = append(agentEnv, "PATH="+filepath.Dir(claude)+":/usr/bin:/bin", "KITTY_WINDOW_ID=7", "KITTY_PID=100")
	args := w.seal([]string{"--agent", "claude", "--mode", "exact", "--id", id, "--direct", "--", "claude", "--resume", id})
	sessions := filepath.Join(w.home, ".claude", "sessions")
	var rec struct {
		PID       int    `json:"pid"`
		SessionID string `json:"sessionId"`
		Cwd       string `json:"cwd"`
	}
	p := kittytest.RunPTY(t, kittytest.PTYOptions{Path: w.bin, Args: args, Env: w.env(), Dir: w.cwd, Timeout: 90 * time.Second,
		Done: func() bool {
			fs, _ := filepath.Glob(filepath.Join(sessions, "*.json"))
			for _, f := range fs {
				if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &rec) == nil && rec.SessionID != "" {
					return true
				}
			}
			return false
		}})
	if rec.SessionID != id || rec.Cwd != own {
		t.Fatalf("claude's record of the resumed process: %+v, want %s in %s\n%s", rec, id, own, p.Out)
	}
	if !strings.Contains(flat(p.Out), "resuming in "+own+", the conversation's own directory") {
		t.Errorf("the prompt did not say where it resumes:\n%s", p.Out)
	}
	jf, err := journal.New(filepath.Join(w.state, "agent-sessions.json"), false).Read()
	if err != nil || len(jf.Restores) != 1 {
		t.Fatalf("restore outcomes: %v %+v", err, jf)
	}
	if o := jf.Restores[0]; o.Outcome != journal.OutcomeResumed || o.PID != rec.PID || o.ID != id || o.WindowID != 7 {
		t.Errorf("outcome %+v, want resumed %s by pid %d (the claude it became)", o, id, rec.PID)
	}

	// Claude's transcript deleted: nothing is resumed.
	fs, _ := filepath.Glob(filepath.Join(w.home, ".claude", "projects", "*", id+".jsonl"))
	if len(fs) != 1 {
		t.Fatalf("claude's transcript: %q", fs)
	}
	if err := os.Remove(fs[0]); err != nil {
		t.Fatal(err)
	}
	out, err := w.runNoTerminal(args, nil)
	if !strings.Contains(out, "conversation no longer exists") {
		t.Errorf("transcript gone: %v\n%s", err, out)
	}
	if got := w.log.Records(); len(got) != 1 || got[0].Name != "-fakesh" {
		t.Errorf("ran %+v, want only the shell", got)
	}
}
