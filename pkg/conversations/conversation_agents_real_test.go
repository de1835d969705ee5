package conversations_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// TestRealGeminiConversationGone: a real gemini 0.61.0 conversation with
// the model stand-in is found in gemini's chat file (its name carries 8
// characters of the id, its first line the whole id), with the directory
// its project records; an id sharing those 8 characters is not it; the
// file removed, the lookup says the conversation is gone.
// GEMINI_CLI_HOME moves gemini's home, and the lookup with it.
func TestRealGeminiConversationGone(t *testing.T) {
	t.Parallel()
	gemini, home, work, env, _ := agentstest.AtStandIn(t, "gemini", "api", (*modelstub.Server).GeminiHome)
	const id = "7c1e4a90-2b3d-4e5f-8a6b-9c0d1e2f3a4b"
	agentstest.RunCLI(t, work, env, gemini, "--session-id", id, "-p", "remember GEMINI-GONE")

	set := agentstest.Shipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	c := conversations.Find(set, "gemini", id, getenv)
	if !c.Known || !c.Found || c.Dir != work || !strings.Contains(filepath.Base(c.File), id[:8]) {
		t.Fatalf("after a real conversation: %+v, want found in a file named by %s, in %s", c, id[:8], work)
	}
	if got := conversations.Find(set, "gemini", id[:8]+"-0000-4000-8000-000000000000", getenv); !got.Known || got.Found {
		t.Errorf("another id with the same first 8 characters: %+v, want known and not found", got)
	}
	elsewhere := getenvOf(map[string]string{"HOME": "/nonexistent", "GEMINI_CLI_HOME": home})
	if got := conversations.Find(set, "gemini", id, elsewhere); !got.Found {
		t.Errorf("GEMINI_CLI_HOME=%s: %+v, want found", home, got)
	}
	if err := os.Remove(c.File); err != nil {
		t.Fatal(err)
	}
	if got := conversations.Find(set, "gemini", id, getenv); !got.Known || got.Found || got.Lost("gemini") == "" {
		t.Errorf("chat file removed: %+v, want known and not found", got)
	}
}

var piSessionFile = regexp.MustCompile(`_([0-9a-f-]{36})\.jsonl$`)

// TestRealPiConversationGone: a real pi 0.73.1 session with the model
// stand-in is found in pi's session file with the directory it records;
// removed, it is gone. Where pi's sessions were moved (--session-dir,
// PI_CODING_AGENT_SESSION_DIR, sessionDir in its settings or the
// project's) the lookup claims nothing: pi keeps them where kittymux does
// not look.
func TestRealPiConversationGone(t *testing.T) {
	t.Parallel()
	pi, home, work, env, _ := agentstest.AtStandIn(t, "pi", "web", (*modelstub.Server).PiHome)
	root := filepath.Dir(home) // a directory pi's sessions may be moved to
	agentstest.RunCLI(t, work, env, pi, "-p", "remember PI-GONE")
	var file string
	_ = filepath.WalkDir(filepath.Join(home, ".pi", "agent", "sessions"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && piSessionFile.MatchString(p) {
			file = p
		}
		return nil
	})
	if file == "" {
		t.Fatalf("pi wrote no session file under %s", home)
	}
	id := piSessionFile.FindStringSubmatch(file)[1]

	set := agentstest.Shipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	run := conversations.Run{Argv: []string{"pi", "--session", id}, Dir: work, Getenv: getenv}
	c := conversations.FindRun(set, "pi", id, run)
	if !c.Known || !c.Found || c.Dir != work || c.File != file {
		t.Fatalf("after a real session: %+v, want found at %s, in %s", c, file, work)
	}
	moved := map[string]conversations.Run{
		"--session-dir": {Argv: []string{"pi", "--session-dir", root, "--session", id}, Dir: work, Getenv: getenv},
		"PI_CODING_AGENT_SESSION_DIR": {Argv: run.Argv, Dir: work,
			Getenv: getenvOf(map[string]string{"HOME": home, "PI_CODING_AGENT_SESSION_DIR": root})},
		"no directory to read the project's settings in": {Argv: run.Argv, Getenv: getenv},
	}
	for name, r := range moved {
		if got := conversations.FindRun(set, "pi", "00000000-0000-4000-8000-000000000000", r); got.Known {
			t.Errorf("%s: %+v, want nothing claimed", name, got)
		}
	}
	if err := os.MkdirAll(filepath.Join(work, ".pi"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".pi", "settings.json"), []byte(`{"sessionDir": "/elsewhere"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := conversations.FindRun(set, "pi", "00000000-0000-4000-8000-000000000000", run); got.Known {
		t.Errorf("the project's sessionDir: %+v, want nothing claimed", got)
	}
	if err := os.Remove(filepath.Join(work, ".pi", "settings.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if got := conversations.FindRun(set, "pi", id, run); !got.Known || got.Found || got.Lost("pi") == "" {
		t.Errorf("session file removed: %+v, want known and not found", got)
	}
}

var opencodeSession = regexp.MustCompile(`ses_[A-Za-z0-9]+`)

// TestRealOpenCodeConversationUnchecked: a real opencode 1.18.33 session
// with the model stand-in lives only in opencode's SQLite database: no
// file of its own names it (only the database, its write-ahead log and
// opencode's log mention it). kittymux does not read SQLite (no such
// dependency, and running opencode or sqlite3 from a prompt is a command a
// session file could influence), so the lookup says it is unchecked and
// why, and never that the session is gone.
func TestRealOpenCodeConversationUnchecked(t *testing.T) {
	t.Parallel()
	opencode, home, work, env, _ := agentstest.AtStandIn(t, "opencode", "app", (*modelstub.Server).OpenCodeHome)
	agentstest.RunCLI(t, work, env, opencode, "run", "remember OPENCODE-UNCHECKED")
	data := filepath.Join(home, ".local", "share", "opencode")
	db, err := os.ReadFile(filepath.Join(data, "opencode.db"))
	if err != nil {
		t.Fatalf("opencode wrote no database: %v", err)
	}
	wal, _ := os.ReadFile(filepath.Join(data, "opencode.db-wal"))
	id := opencodeSession.Find(append(db, wal...))
	if id == nil {
		t.Fatalf("no session id in opencode's database")
	}
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		inDB := strings.HasPrefix(filepath.Base(p), "opencode.db") || filepath.Ext(p) == ".log"
		if strings.Contains(p, string(id)) && !inDB {
			t.Errorf("a file of its own names session %s: %s; check it rather than leave opencode unchecked", id, p)
		}
		return nil
	})

	set := agentstest.Shipped(t)
	c := conversations.Find(set, "opencode", string(id), getenvOf(map[string]string{"HOME": home}))
	if c.Known || c.Lost("opencode") != "" || !strings.Contains(c.Unchecked, "SQLite") {
		t.Errorf("opencode session: %+v, want unchecked, saying why, and nothing claimed", c)
	}
}
