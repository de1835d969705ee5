package conversations_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

func getenvOf(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

// TestRealClaudeConversationGone: a real claude conversation with the model
// stand-in is found in claude's own files, with the directory it belongs
// to; once claude's transcript is gone (its cleanup, a user's rm), the
// lookup says so rather than offering a resume that would fail.
func TestRealClaudeConversationGone(t *testing.T) {
	t.Parallel()
	claude, home, work, env, _ := agentstest.AtStandIn(t, "claude", "api", (*modelstub.Server).ClaudeHome)
	const id = "5a0c9e21-7d4b-4f36-9a18-2b6e0c3d8f47"
	agentstest.RunCLI(t, work, env, claude, "-p", "remember GONE-TEST", "--session-id", id)

	set := agentstest.Shipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	c := conversations.Find(set, "claude", id, getenv)
	if !c.Known || !c.Found || c.Dir != work {
		t.Fatalf("after a real conversation: %+v, want found, in %s", c, work)
	}
	if got := conversations.Find(set, "claude", "00000000-0000-4000-8000-000000000000", getenv); !got.Known || got.Found {
		t.Errorf("an id claude never had: %+v, want known and not found", got)
	}
	if err := os.Remove(c.File); err != nil {
		t.Fatal(err)
	}
	if got := conversations.Find(set, "claude", id, getenv); !got.Known || got.Found {
		t.Errorf("transcript removed: %+v, want known and not found", got)
	}
	// CLAUDE_CONFIG_DIR moves claude's files: looked for there, not in ~/.claude.
	moved := getenvOf(map[string]string{"HOME": home, "CLAUDE_CONFIG_DIR": filepath.Join(t.TempDir(), "elsewhere")})
	if got := conversations.Find(set, "claude", id, moved); got.Known {
		t.Errorf("CLAUDE_CONFIG_DIR with no projects: %+v, want nothing claimed", got)
	}
}

var threadID = regexp.MustCompile(`(?m)session id: ([0-9a-f-]{36})`)

// TestRealCodexConversationArchived: a real codex thread is found in its
// rollout file with its directory; `codex archive` moves it away, and the
// lookup says it is archived and how to bring it back.
func TestRealCodexConversationArchived(t *testing.T) {
	t.Parallel()
	codex, home, work, env, _ := agentstest.AtStandIn(t, "codex", "web", (*modelstub.Server).CodexHome)
	out := agentstest.RunCLI(t, work, env, codex, "exec", "--skip-git-repo-check", "remember ARCHIVE-TEST")
	m := threadID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("codex exec printed no session id:\n%s", out)
	}
	id := m[1]

	set := agentstest.Shipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	c := conversations.Find(set, "codex", id, getenv)
	if !c.Known || !c.Found || c.Dir != work {
		t.Fatalf("after a real thread: %+v, want found, in %s", c, work)
	}
	agentstest.RunCLI(t, work, env, codex, "archive", id)
	c = conversations.Find(set, "codex", id, getenv)
	if !c.Known || c.Found || !c.Archived || strings.Join(c.Unarchive, " ") != "codex unarchive "+id {
		t.Fatalf("archived: %+v, want known, archived, with codex unarchive %s", c, id)
	}
}

var backgrounded = regexp.MustCompile(`claude attach ([0-9a-f]{8})\b`)

// TestRealClaudeBackgroundHeld: a conversation of the installed claude
// (talking to the model stand-in) that claude then runs as a background
// agent (claude --bg --resume <id>) is held by claude's service, as its
// daemon/roster.json says: the lookup names the worker, its directory and
// `claude attach <short>`, the words that open it in a terminal, so it is
// not resumed a second time. Once `claude stop` ended the worker, it is
// held no longer. claude 2.1.197 forks the conversation instead (its
// worker runs another id): the conversation asked for is then not held.
// 2.1.332 (the registry's newest) continues it under the same id.
func TestRealClaudeBackgroundHeld(t *testing.T) {
	t.Parallel()
	claude, home, work, env, _ := agentstest.AtStandIn(t, "claude", "api", (*modelstub.Server).ClaudeHome)
	// claude's background service outlives the command that started it.
	t.Cleanup(func() { kittytest.EndLeftovers(home) })
	const id = "8e2b4d61-0f3a-4c5e-9b7d-1a2c3e4f5a6b"
	agentstest.RunCLI(t, work, env, claude, "-p", "remember BG-HELD", "--session-id", id)
	out := agentstest.RunCLI(t, work, env, claude, "--bg", "--resume", id, "what was the word?")
	m := backgrounded.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("claude --bg named no session to attach:\n%s", out)
	}
	short := m[1]
	rosterFile := filepath.Join(home, ".claude", "daemon", "roster.json")
	var runs string // the id claude's worker runs, as its roster says
	for deadline := time.Now().Add(30 * time.Second); runs == ""; time.Sleep(100 * time.Millisecond) {
		var roster struct {
			Workers map[string]struct {
				SessionID string `json:"sessionId"`
			} `json:"workers"`
		}
		if data, err := os.ReadFile(rosterFile); err == nil && json.Unmarshal(data, &roster) == nil {
			runs = roster.Workers[short].SessionID
		}
		if runs == "" && time.Now().After(deadline) {
			t.Fatalf("claude's roster %s lists no worker %s", rosterFile, short)
		}
	}

	set := agentstest.Shipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	c := conversations.Find(set, "claude", id, getenv)
	if runs != id {
		t.Logf("claude --bg --resume forked %s into %s", id, runs)
		if c.Held != nil {
			t.Errorf("conversation %s, forked into %s by claude's worker: held %+v, want not held", id, runs, c.Held)
		}
	} else {
		for deadline := time.Now().Add(30 * time.Second); c.Held == nil && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			c = conversations.Find(set, "claude", id, getenv)
		}
		if c.Held == nil || c.Held.Short != short || !slices.Equal(c.Held.Attach, []string{"attach", short}) || c.Held.Dir != work || c.Held.PID <= 1 {
			t.Fatalf("conversation %s: %+v, held %+v, want claude's worker %s in %s, attached with attach %s",
				id, c, c.Held, short, work, short)
		}
	}
	agentstest.RunCLI(t, work, env, claude, "stop", short)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		c = conversations.Find(set, "claude", id, getenv)
		if c.Held == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after claude stop %s: still held %+v", short, c.Held)
		}
	}
	if !c.Found || c.Dir != work {
		t.Errorf("after claude stop: %+v, want its transcript found, in %s", c, work)
	}
}
