//go:build linux

package prompt_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealPromptTitle: in a real kitty restoring a session, a window whose
// prompt waits is named for its agent and tab in `kitty @ ls` (window
// title, and the tab's, which has no title of its own); its text fits the
// window, and when the window narrows to 40 columns it is drawn again to
// fit, once; after Enter the agent runs and the title is the agent's.
func TestRealPromptTitle(t *testing.T) {
	kittyBin := kittytest.NeedKitty(t, kitty.Version{Major: 0, Minor: 26})
	w := newWorld(t)
	session := filepath.Join(w.dir, "restore.kitty-session")
	launch := "launch " + recognize.Quote(append([]string{w.bin}, w.seal(claudeRecord())...))
	body := strings.Join([]string{"new_tab", "cd " + w.cwd, launch, ""}, "\n")
	if err := os.WriteFile(session, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Session: session, Env: w.env(),
		Config: []string{"initial_window_width 80c", "initial_window_height 20c"}})

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
	hints := []string{"claude · resume 3e8b5c17?", "Enter resume", "n new conversation", "s shell", "a resume all", "i commands"}
	// fits: the prompt drawn once, each line within the window (get-text
	// joins the rows of a line kitty had to wrap), every hint whole.
	fits := func(cols int) func(string) bool {
		return func(s string) bool {
			if strings.Count(s, "claude · resume") != 1 {
				return false
			}
			for _, l := range strings.Split(s, "\n") {
				if len([]rune(strings.TrimRight(l, " "))) > cols {
					return false
				}
			}
			for _, h := range hints {
				if !strings.Contains(s, h) {
					return false
				}
			}
			return true
		}
	}
	var cols int
	for _, r := range kitty.Windows(ls) {
		if r.Window.ID == id {
			cols = r.Window.Columns
		}
	}
	text := k.WaitForText(match, fits(cols), 30*time.Second)
	t.Logf("the prompt at %d columns:\n%s", cols, text)

	ctx := t.Context()
	if _, err := k.Client.Do(ctx, "resize-os-window", map[string]any{"match": match, "action": "resize",
		"unit": "cells", "width": 40, "height": 0, "self": false, "incremental": false}, false); err != nil {
		t.Fatal(err)
	}
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == id {
				cols = r.Window.Columns
			}
		}
		return cols <= 40
	}, 10*time.Second)
	text = k.WaitForText(match, fits(cols), 10*time.Second)
	t.Logf("the prompt at %d columns:\n%s", cols, text)

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
