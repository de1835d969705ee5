//go:build linux

package e2e_test

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
)

// The real conversations of claude and codex (e2etest's harness; gemini's,
// pi's and opencode's are in pkg/e2e/conversations, which CI runs at the
// same time as this package). These two run at once, beside this package's
// other real-kitty tests.

// TestRealConversationsClaude: claude keeps sessions/<pid>.json per
// process, so every window is exact without hooks; with them the id is the
// hook's.
func TestRealConversationsClaude(t *testing.T) {
	t.Parallel()
	e2etest.RunMatrix(t, []e2etest.Case{
		{Agent: e2etest.Claude, Want: e2etest.ExactAll("agent record")},
		{Agent: e2etest.Claude, Hooks: true, Want: e2etest.ExactAll("hook")},
		{Agent: e2etest.Claude, Recover: true, Want: e2etest.ExactAll("agent record")},
		{Agent: e2etest.Claude, Hooks: true, Recover: true, Want: e2etest.ExactAll("hook")},
	})
}

// TestRealConversationsCodex: codex 0.171.0 runs its TUIs through one
// app-server daemon, which holds every thread's files: nothing ties a
// window to its thread, and its hooks run in the daemon too, where they
// cannot say whose window they serve (kittymux ignores them). Two windows
// in one directory start new conversations; one alone resumes its
// directory's latest. Run in its window (--no-daemon), codex holds its
// thread's rollout open itself: exact without hooks, and its hooks report
// from the window; quit rather than killed, its save is published with
// kitty and codex gone, from the journal.
func TestRealConversationsCodex(t *testing.T) {
	t.Parallel()
	why := "two codex windows in api and no id"
	noID := map[string]e2etest.Want{
		"api#1": {Mode: "choose", Back: true, Why: why, Reason: "shared app-server daemon"},
		"api#2": {Mode: "choose", Back: true, Why: why, Reason: "shared app-server daemon"},
		"web":   {Mode: "latest", Back: true, Reason: "shared app-server daemon"},
	}
	e2etest.RunMatrix(t, []e2etest.Case{
		{Agent: e2etest.Codex, Want: noID},
		{Agent: e2etest.Codex, Hooks: true, Want: noID},
		{Agent: e2etest.Codex, Recover: true, Want: noID},
		{Agent: e2etest.Codex, Hooks: true, Recover: true, Want: noID},
		{Agent: e2etest.CodexInWindow, Want: e2etest.ExactAll("agent record")},
		{Agent: e2etest.CodexInWindow, Hooks: true, Want: e2etest.ExactAll("hook")},
		// Quit, not killed: kitty's save names the line typed (`codex
		// --no-daemon`) where the process is node running codex's launcher.
		{Agent: e2etest.CodexInWindow, Hooks: true, Quit: true, Want: e2etest.ExactAll("hook")},
	})
}
