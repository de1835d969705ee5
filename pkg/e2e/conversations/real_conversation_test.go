//go:build linux

package conversations_test

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
)

// The real conversations of gemini, pi and opencode (e2etest's harness),
// one test after the other: each holds a kitty and four agents, and
// pkg/e2e, with claude's and codex's, runs meanwhile.

func TestMain(m *testing.M) { e2etest.Main(m) }

// TestRealConversationsGemini: gemini 0.61.0 keeps no record tying a
// process to its conversation and holds no file open; its hooks, installed
// by `kittymux integration install gemini`, report each window's session,
// which `gemini --resume ID` takes back. Without them no window has an id,
// and its latest is per project, which kittymux does not see: every window
// starts anew.
func TestRealConversationsGemini(t *testing.T) {
	why := "3 gemini windows and no id for this one: the restore lists gemini's conversations of"
	noID := map[string]e2etest.Want{
		"api#1": {Mode: "choose", Back: true, Reason: why},
		"api#2": {Mode: "choose", Back: true, Reason: why},
		"web":   {Mode: "choose", Back: true, Reason: why},
	}
	e2etest.RunMatrix(t, []e2etest.Case{
		{Agent: e2etest.Gemini, Hooks: true, Want: e2etest.ExactAll("hook")},
		{Agent: e2etest.Gemini, Hooks: true, Recover: true, Want: e2etest.ExactAll("hook")},
		{Agent: e2etest.Gemini, Want: noID},
	})
}

// TestRealConversationsPi: pi 0.73.1 keeps no record tying a process to
// its session and holds no file open; the extension `kittymux integration
// install pi` puts in its extensions directory reports each window's
// session on session_start (startup, new, resume), which `pi --session ID`
// takes back. Without it, two windows in one directory start anew and one
// alone continues its directory's latest (pi's --continue is per
// directory). Quit rather than killed, the save is published with kitty
// and pi gone, from the journal.
func TestRealConversationsPi(t *testing.T) {
	e2etest.RunMatrix(t, []e2etest.Case{
		{Agent: e2etest.Pi, Hooks: true, Want: e2etest.ExactAll("hook")},
		{Agent: e2etest.Pi, Hooks: true, Recover: true, Want: e2etest.ExactAll("hook")},
		// Quit, not killed: pi renames its process, and kitty's save gives
		// its window's command as node alone.
		{Agent: e2etest.Pi, Hooks: true, Quit: true, Want: e2etest.ExactAll("hook")},
		{Agent: e2etest.Pi, Want: map[string]e2etest.Want{
			"api#1": {Mode: "choose", Back: true},
			"api#2": {Mode: "choose", Back: true},
			"web":   {Mode: "latest", Back: true},
		}},
	})
}

// TestRealConversationsOpenCode: opencode 1.18.33 keeps its sessions in
// SQLite and no record tying a process to one; the plugin `kittymux
// integration install opencode` puts in its plugins directory reports each
// window's session when it is created and on each message, which
// `opencode --session ID` takes back. Without it, no window has an id and
// --continue is not per directory: each window lists its directory's
// sessions, as `opencode session list` gives them, to choose from.
func TestRealConversationsOpenCode(t *testing.T) {
	why := "3 opencode windows and no id for this one: the restore lists opencode's conversations of"
	e2etest.RunMatrix(t, []e2etest.Case{
		{Agent: e2etest.OpenCode, Hooks: true, Want: e2etest.ExactAll("hook")},
		{Agent: e2etest.OpenCode, Hooks: true, Recover: true, Want: e2etest.ExactAll("hook")},
		{Agent: e2etest.OpenCode, Want: map[string]e2etest.Want{
			"api#1": {Mode: "choose", Back: true, Reason: why},
			"api#2": {Mode: "choose", Back: true, Reason: why},
			"web":   {Mode: "choose", Back: true, Reason: why},
		}},
	})
}
