//go:build linux

package e2etest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/hookinstall"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// Agent is how the harness drives one agent CLI's TUI. The pinned CLIs are
// below: Claude, Codex, CodexInWindow, Gemini, Pi, OpenCode.
type Agent struct {
	name string
	// typed is what is typed at the shell to start it; default: name.
	typed string
	// ready are texts the TUI shows once it takes input: any one of them
	// (the versions kittymux follows differ).
	ready []string
	// enter submits what was typed.
	enter string
	// home prepares the agent's HOME for the stand-in, trusting dirs, and
	// returns the environment it needs.
	home func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string
	// newConv starts a new conversation inside the running agent; quit
	// leaves it, back to the shell.
	newConv, quit string
	// newConvClears: the TUI shows a fresh screen once newConv took
	// effect, without the conversation before it (codex's). The harness
	// then waits for that, not only for the text to show.
	newConvClears bool
	// conv returns the conversations whose own files (the agent's) hold
	// word.
	conv func(w *world, word string) []string
	// trustHooks does, in k, what a user does once for the agent to run
	// the hooks `integration install` added.
	trustHooks func(w *world, k *kittytest.Real, dir string)
}

// Ready reports whether screen shows the agent's TUI taking input.
func (a Agent) Ready(screen string) bool {
	for _, r := range a.ready {
		if strings.Contains(screen, r) {
			return true
		}
	}
	return false
}

// command is what is typed at the shell to start the agent.
func (a Agent) command() string {
	if a.typed != "" {
		return a.typed
	}
	return a.name
}

// Claude is claude 2.1.197, or the registry's newest (2.1.332), whose
// first screen is in auto mode: its status line shows "⏵⏵ auto mode on
// (shift+tab to cycle)", cut to "⏵⏵ auto mode on" in a narrow window, not
// "? for shortcuts".
var Claude = Agent{
	name:    "claude",
	ready:   []string{"? for shortcuts", "⏵⏵ auto mode on"},
	enter:   "\r",
	newConv: "/clear",
	quit:    "/exit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.ClaudeHome(t, home, dirs...)
	},
	conv: fileConvs,
}

// Codex is codex 0.171.0, typed plainly: its TUI reads kitty's keyboard
// protocol (Enter is CSI 13 u), and it runs through an app-server daemon
// that outlives it (the harness ends it). Under load its TUI may drop the
// Enter of a typed /new: the harness waits for the fresh screen.
var Codex = Agent{
	name:          "codex",
	ready:         []string{"? for shortcuts"},
	enter:         "\x1b[13u",
	newConv:       "/new",
	newConvClears: true,
	quit:          "/quit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.CodexHome(t, home, dirs...)
	},
	conv:       fileConvs,
	trustHooks: trustCodexHooks,
}

// CodexInWindow is codex typed with --no-daemon: the TUI runs its threads
// itself.
var CodexInWindow = func() Agent {
	a := Codex
	a.typed = "codex --no-daemon"
	return a
}()

// Gemini is gemini 0.61.0.
var Gemini = Agent{
	name:    "gemini",
	ready:   []string{"Type your message"},
	enter:   "\r",
	newConv: "/clear",
	quit:    "/quit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.GeminiHome(t, home, dirs...)
	},
	conv: geminiConvs,
}

// Pi is pi 0.73.1.
var Pi = Agent{
	name:    "pi",
	ready:   []string{"stub-model"},
	enter:   "\r",
	newConv: "/new",
	quit:    "/quit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.PiHome(t, home, dirs...)
	},
	conv: fileConvs,
}

// OpenCode is opencode 1.18.33.
var OpenCode = Agent{
	name:    "opencode",
	ready:   []string{"ctrl+p commands"},
	enter:   "\r",
	newConv: "/new",
	quit:    "/exit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.OpenCodeHome(t, home, dirs...)
	},
	conv: opencodeConvs,
}

// fileConvs: the conversations whose file (<…><uuid>.jsonl: claude's
// projects/<dir>/<uuid>.jsonl, codex's sessions/…/rollout-<time>-<uuid>.jsonl,
// pi's sessions/--<dir>--/<time>_<uuid>.jsonl) holds word.
func fileConvs(w *world, word string) []string {
	var ids []string
	for _, f := range w.filesWith(convFile, word) {
		ids = append(ids, convFile.FindStringSubmatch(f)[1])
	}
	return ids
}

// convFile is a conversation's file named after its id (see fileConvs).
var convFile = regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$`)

// geminiConvs: the conversations whose file
// (~/.gemini/tmp/<project>/chats/session-<time>-<short id>.jsonl) holds
// word; the full id is the file's first line's sessionId.
func geminiConvs(w *world, word string) []string {
	var ids []string
	for _, f := range w.filesWith(geminiFile, word) {
		b, _ := os.ReadFile(f)
		line, _, _ := strings.Cut(string(b), "\n")
		var head struct{ SessionID string }
		if json.Unmarshal([]byte(line), &head) == nil && head.SessionID != "" {
			ids = append(ids, head.SessionID)
		}
	}
	return ids
}

var geminiFile = regexp.MustCompile(`/chats/session-[^/]*\.jsonl$`)

// opencodeConvs: the sessions of opencode's database
// (~/.local/share/opencode/opencode.db) with a message part holding word.
func opencodeConvs(w *world, word string) []string {
	db := filepath.Join(w.home, ".local", "share", "opencode", "opencode.db")
	if _, err := os.Stat(db); err != nil {
		return nil
	}
	q := "SELECT DISTINCT session_id FROM part WHERE data LIKE '%" + word + "%';"
	out, err := exec.Command("sqlite3", "-readonly", db, q).Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// trustCodexHooks does what codex 0.171.0 asks of a user once before it
// runs new hooks, as `kittymux integration install` says: codex started
// with hooks it has not trusted asks, and "Trust all and continue" trusts
// them. Then it quits that codex and closes its window.
func trustCodexHooks(w *world, k *kittytest.Real, dir string) {
	t := w.t
	t.Helper()
	if st := w.integrationStatus(); st.Trust != hookinstall.Untrusted || !strings.Contains(st.TrustHow, "Trust all and continue") {
		t.Errorf("before trust, integration status says %+v", st)
	}
	id := w.launch(k, kitty.LaunchOptions{Cwd: dir})
	k.WaitForText(windowMatch(id), shellPrompt, 30*time.Second)
	if err := k.Client.SendText(t.Context(), windowMatch(id), w.agent.command()+"\r"); err != nil {
		t.Fatal(err)
	}
	asking := func(s string) bool { return strings.Contains(s, "2. Trust all and continue") }
	k.WaitForText(windowMatch(id), asking, 90*time.Second)
	// "2" takes that choice at once. A busy codex can drop the key: it is
	// pressed again while the question shows, and Enter only once the
	// mark is on 2 (an Enter with the mark on 1, after a "2" lost, opens
	// the hooks' review page instead, as seen under load).
	notAsking := func(s string) bool { return !asking(s) }
	for attempt := 1; attempt <= 4; attempt++ {
		if err := k.Client.SendText(t.Context(), windowMatch(id), "2"); err != nil {
			t.Fatal(err)
		}
		if w.screenShows(k, id, notAsking, 10*time.Second) {
			break
		}
		if s, err := w.screen(k, id); err == nil && strings.Contains(s, "› 2. Trust all") {
			w.enter(k, id)
			if w.screenShows(k, id, notAsking, 10*time.Second) {
				break
			}
		}
	}
	w.waitReady(k, id)
	w.quit(k, id)
	if err := k.Client.CloseWindow(t.Context(), windowMatch(id)); err != nil {
		t.Fatal(err)
	}
	if st := w.integrationStatus(); st.Trust != hookinstall.Trusted {
		t.Errorf("after trust, integration status says %+v", st)
	}
}
