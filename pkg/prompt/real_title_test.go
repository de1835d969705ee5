//go:build linux

package prompt_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/kitty/kittytest"
)

// TestRealPromptTitle: in a real kitty restoring a session, a window whose
// prompt waits is named for its agent and tab in `kitty @ ls` (window
// title, and the tab's, which has no title of its own), and its text
// wraps to the window's width; after Enter the agent runs and the title is
// the agent's.
func TestRealPromptTitle(t *testing.T) {
	kittyBin := kittytest.NeedKitty(t, kitty.Version{Major: 0, Minor: 26})
	w := newWorld(t)
	// An OS window of 40 columns, as narrow as a split agents often run in.
	session := filepath.Join(w.dir, "restore.kitty-session")
	launch := "launch " + agents.Quote(append([]string{w.bin}, w.seal(claudeRecord())...))
	body := strings.Join([]string{"new_tab", "cd " + w.cwd, launch, ""}, "\n")
	if err := os.WriteFile(session, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Session: session, Env: w.env(),
		Config: []string{"remember_window_size no", "initial_window_width 40c", "initial_window_height 20c"}})

	var id int
	ls := k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.Title == "claude ↻ api work" {
				id = r.Window.ID
				return true
			}
		}
		return false
	}, 30*time.Second)
	for _, r := range kitty.Windows(ls) {
		if r.Window.ID == id && r.Tab.Title != "claude ↻ api work" {
			t.Errorf("tab title %q, want the window's", r.Tab.Title)
		}
	}
	match := "id:" + strconv.Itoa(id)
	text := k.WaitForText(match, func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
	t.Logf("the prompt:\n%s", text)
	for _, hint := range []string{"claude · resume 4f9e2a51?", "Enter resume", "s shell", "a resume all", "i commands"} {
		if !strings.Contains(text, hint) {
			t.Errorf("the prompt lacks %q whole on a line:\n%s", hint, text)
		}
	}

	ctx := t.Context()
	if err := k.Client.SendText(ctx, match, "\r"); err != nil {
		t.Fatal(err)
	}
	w.log.WaitFor(t, 1, 10*time.Second)
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == id {
				return r.Window.Title == "claude"
			}
		}
		return false
	}, 10*time.Second)
}
