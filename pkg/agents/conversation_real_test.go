package agents_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty/kittytest/modelstub"
)

// needCLI skips without the agent CLI, unless CI requires the real ones.
func needCLI(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("%s is not on PATH; .ci/run installs it from npm", name)
		}
		t.Skip(name + " is not on PATH (KITTYMUX_E2E=require makes this fatal)")
	}
	return p
}

// agentRun runs an agent CLI to its end in dir with HOME=home.
func agentRun(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(modelstub.Isolated(os.Environ()), env...)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%q: %v\n%s", argv, err, out)
	}
	return string(out)
}

func getenvOf(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

func realDir(t *testing.T, parts ...string) string {
	t.Helper()
	d := filepath.Join(parts...)
	if err := os.MkdirAll(d, 0o700); err != nil {
		t.Fatal(err)
	}
	r, err := filepath.EvalSymlinks(d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// atStandIn is the installed cli in a HOME of its own, set up by homeOf
// (modelstub's ClaudeHome, CodexHome, ...) to talk to the model stand-in,
// and a work directory named work: the cli's program, HOME, the
// directory, the environment and the stand-in.
func atStandIn(t *testing.T, cli, work string, homeOf func(*modelstub.Server, testing.TB, string, ...string) []string) (
	bin, home, dir string, env []string, stub *modelstub.Server) {
	bin = needCLI(t, cli)
	stub = modelstub.Start(t)
	root := t.TempDir()
	home, dir = realDir(t, root, "home"), realDir(t, root, work)
	return bin, home, dir, append(homeOf(stub, t, home, dir), "HOME="+home), stub
}

// TestRealClaudeConversationGone: a real claude conversation with the model
// stand-in is found in claude's own files, with the directory it belongs
// to; once claude's transcript is gone (its cleanup, a user's rm), the
// lookup says so rather than offering a resume that would fail.
func TestRealClaudeConversationGone(t *testing.T) {
	t.Parallel()
	claude, home, work, env, _ := atStandIn(t, "claude", "api", (*modelstub.Server).ClaudeHome)
	const id = "5a0c9e21-7d4b-4f36-9a18-2b6e0c3d8f47"
	agentRun(t, work, env, claude, "-p", "remember GONE-TEST", "--session-id", id)

	set := loadShipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	c := set.FindConversation("claude", id, getenv)
	if !c.Known || !c.Found || c.Dir != work {
		t.Fatalf("after a real conversation: %+v, want found, in %s", c, work)
	}
	if got := set.FindConversation("claude", "00000000-0000-4000-8000-000000000000", getenv); !got.Known || got.Found {
		t.Errorf("an id claude never had: %+v, want known and not found", got)
	}
	if err := os.Remove(c.File); err != nil {
		t.Fatal(err)
	}
	if got := set.FindConversation("claude", id, getenv); !got.Known || got.Found {
		t.Errorf("transcript removed: %+v, want known and not found", got)
	}
	// CLAUDE_CONFIG_DIR moves claude's files: looked for there, not in ~/.claude.
	moved := getenvOf(map[string]string{"HOME": home, "CLAUDE_CONFIG_DIR": filepath.Join(t.TempDir(), "elsewhere")})
	if got := set.FindConversation("claude", id, moved); got.Known {
		t.Errorf("CLAUDE_CONFIG_DIR with no projects: %+v, want nothing claimed", got)
	}
}

var threadID = regexp.MustCompile(`(?m)session id: ([0-9a-f-]{36})`)

// TestRealCodexConversationArchived: a real codex thread is found in its
// rollout file with its directory; `codex archive` moves it away, and the
// lookup says it is archived and how to bring it back.
func TestRealCodexConversationArchived(t *testing.T) {
	t.Parallel()
	codex, home, work, env, _ := atStandIn(t, "codex", "web", (*modelstub.Server).CodexHome)
	out := agentRun(t, work, env, codex, "exec", "--skip-git-repo-check", "remember ARCHIVE-TEST")
	m := threadID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("codex exec printed no session id:\n%s", out)
	}
	id := m[1]

	set := loadShipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	c := set.FindConversation("codex", id, getenv)
	if !c.Known || !c.Found || c.Dir != work {
		t.Fatalf("after a real thread: %+v, want found, in %s", c, work)
	}
	agentRun(t, work, env, codex, "archive", id)
	c = set.FindConversation("codex", id, getenv)
	if !c.Known || c.Found || !c.Archived || strings.Join(c.Unarchive, " ") != "codex unarchive "+id {
		t.Fatalf("archived: %+v, want known, archived, with codex unarchive %s", c, id)
	}
}
