//go:build linux

package e2etest

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// typeLine types text into window id, waits until it shows, then submits it
// with the agent's Enter (codex reads a fast burst of keys as a paste).
func (w *world) typeLine(k *kittytest.Real, id int, text string) {
	w.t.Helper()
	// A TUI that shows its prompt while it still loads (gemini resuming a
	// conversation) may drop keys: what does not show is typed again.
	for attempt := 1; ; attempt++ {
		if err := k.Client.SendText(w.t.Context(), windowMatch(id), text); err != nil {
			w.t.Fatal(err)
		}
		if attempt == 3 {
			k.WaitForText(windowMatch(id), func(s string) bool { return shows(s, text) }, 30*time.Second)
			break
		}
		if w.screenShows(k, id, func(s string) bool { return shows(s, text) }, 20*time.Second) {
			break
		}
	}
	w.enter(k, id)
}

// enter presses the agent's Enter in window id.
func (w *world) enter(k *kittytest.Real, id int) {
	w.t.Helper()
	if err := k.Client.SendText(w.t.Context(), windowMatch(id), w.agent.enter); err != nil {
		w.t.Fatal(err)
	}
}

// launch opens a window in k, waiting up to 30 s for kitty's answer: a
// kitty on a machine busy with agents and other tests' kitties answers
// late.
func (w *world) launch(k *kittytest.Real, o kitty.LaunchOptions) int {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(w.t.Context(), 30*time.Second)
	defer cancel()
	id, err := k.Client.Launch(ctx, o)
	if err != nil {
		w.t.Fatalf("launch: %v", err)
	}
	return id
}

// screenShows waits until the screen of window id satisfies cond, and
// reports whether it did within timeout.
func (w *world) screenShows(k *kittytest.Real, id int, cond func(string) bool, timeout time.Duration) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if s, err := w.screen(k, id); err == nil && cond(s) {
			return true
		}
	}
	return false
}

// screen is what window id shows now.
func (w *world) screen(k *kittytest.Real, id int) (string, error) {
	ctx, cancel := context.WithTimeout(w.t.Context(), 10*time.Second)
	defer cancel()
	return k.Client.GetText(ctx, windowMatch(id), "screen")
}

// shows reports whether screen shows text, ignoring white space: a TUI
// wraps a long line, words and all.
func shows(screen, text string) bool {
	return strings.Contains(strings.Join(strings.Fields(screen), ""), strings.Join(strings.Fields(text), ""))
}

// shellPrompt reports whether a screen ends at a shell's prompt.
func shellPrompt(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasSuffix(s, "$") || strings.HasSuffix(s, "#")
}

// startAgent opens a shell in dir, types the agent's plain name into it and
// waits for its TUI.
func (w *world) startAgent(k *kittytest.Real, dir string) int {
	w.t.Helper()
	id := w.launch(k, kitty.LaunchOptions{Cwd: dir})
	k.WaitForText(windowMatch(id), shellPrompt, 30*time.Second)
	if err := k.Client.SendText(w.t.Context(), windowMatch(id), w.agent.command()+"\r"); err != nil {
		w.t.Fatal(err)
	}
	w.waitReady(k, id)
	return id
}

func (w *world) waitReady(k *kittytest.Real, id int) {
	w.t.Helper()
	k.WaitForText(windowMatch(id), w.agent.Ready, 90*time.Second)
}

// tell gives window cw its word and waits for the stand-in's answer on
// screen.
func (w *world) tell(k *kittytest.Real, cw *convWindow) {
	w.t.Helper()
	w.typeLine(k, cw.id, "Remember the word "+cw.word)
	// An Enter a busy TUI dropped is pressed again (as ask does).
	for range 2 {
		if carriedWithin(w.stub, cw.word, 20*time.Second) {
			break
		}
		w.enter(k, cw.id)
	}
	if !carriedWithin(w.stub, cw.word, 60*time.Second) {
		screen, _ := w.screen(k, cw.id)
		w.t.Fatalf("%s: no request carried %q within 60 s; its screen:\n%s\nrequests:\n%s", cw.name, cw.word, screen, w.stub.Summary())
	}
	k.WaitForText(windowMatch(cw.id), func(s string) bool { return shows(s, "stub reply to") }, 60*time.Second)
}

// remind tells window cw its word again, in the conversation that holds
// it, and waits for the answer on screen.
func (w *world) remind(k *kittytest.Real, cw *convWindow) {
	w.t.Helper()
	line := "Keep the word " + cw.word + " in mind"
	w.typeLine(k, cw.id, line)
	for range 2 {
		if carriedWithin(w.stub, line, 20*time.Second) {
			break
		}
		w.enter(k, cw.id)
	}
	w.stub.WaitCarrying(w.t, line, 60*time.Second)
	k.WaitForText(windowMatch(cw.id), func(s string) bool { return shows(s, "stub reply to: "+line) }, 60*time.Second)
}

// ask asks window id a question of its own and returns the turns carrying
// it, once the answer is on screen.
func (w *world) ask(k *kittytest.Real, id int, question string) []modelstub.Request {
	w.t.Helper()
	w.typeLine(k, id, question)
	// An Enter that came while the TUI was busy may be lost: pressed
	// again while no request carries the question (on an empty prompt
	// it does nothing).
	for range 2 {
		if carriedWithin(w.stub, question, 20*time.Second) {
			break
		}
		w.enter(k, id)
	}
	reqs := w.stub.WaitCarrying(w.t, question, 60*time.Second)
	k.WaitForText(windowMatch(id), func(s string) bool { return shows(s, "stub reply to: "+question) }, 60*time.Second)
	return reqs
}

// carriedWithin reports whether a turn carries word within d.
func carriedWithin(s *modelstub.Server, word string, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if len(s.Carrying(word)) > 0 {
			return true
		}
	}
	return false
}

// newConversation starts a new conversation inside the agent of cw, whose
// conversation so far holds cw.word. An agent whose fresh screen shows
// that the command took effect (newConvClears) is watched for it: a busy
// TUI may drop the Enter (the command still waits in its composer: Enter
// again) or the whole command (typed again), once.
func (w *world) newConversation(k *kittytest.Real, cw *convWindow) {
	w.t.Helper()
	w.typeLine(k, cw.id, w.agent.newConv)
	if !w.agent.newConvClears {
		time.Sleep(kittytest.Scaled(time.Second))
		// On a busy machine the Enter can land while the TUI still shows
		// the command's completions, which take it: the command then
		// waits in the input box. Enter again (on an empty box it does
		// nothing).
		if s, _ := w.screen(k, cw.id); shows(s, "> "+w.agent.newConv) {
			w.t.Logf("%s: %s still in the input box; Enter again", cw.name, w.agent.newConv)
			w.enter(k, cw.id)
			time.Sleep(kittytest.Scaled(time.Second))
		}
		w.waitReady(k, cw.id)
		return
	}
	fresh := func(s string) bool { return !strings.Contains(s, cw.word) && w.agent.Ready(s) }
	for range 3 {
		if w.screenShows(k, cw.id, fresh, kittytest.Scaled(20*time.Second)) {
			return
		}
		s, _ := w.screen(k, cw.id)
		w.t.Logf("%s: %s did not take within 20 s, again; its screen:\n%s", cw.name, w.agent.newConv, s)
		// codex refuses it while the last turn still winds up ("'/new'
		// is disabled while a task is in progress"): typed again.
		if shows(s, w.agent.newConv) && !strings.Contains(s, "disabled while") {
			w.enter(k, cw.id)
		} else {
			w.typeLine(k, cw.id, w.agent.newConv)
		}
	}
	k.WaitForText(windowMatch(cw.id), fresh, 30*time.Second)
}

// quit quits the agent the way a user does, back to the shell. A busy
// TUI may let its completions take the Enter (the command still waits in
// its input box: Enter again) or drop the whole command (typed again),
// twice at most.
func (w *world) quit(k *kittytest.Real, id int) {
	w.t.Helper()
	w.typeLine(k, id, w.agent.quit)
	for range 2 {
		if w.atShell(k, id, kittytest.Scaled(20*time.Second)) {
			return
		}
		s, _ := w.screen(k, id)
		w.t.Logf("window %d: %s did not take within 20 s, again; its screen:\n%s", id, w.agent.quit, s)
		if shows(s, w.agent.quit) {
			w.enter(k, id)
		} else {
			w.typeLine(k, id, w.agent.quit)
		}
	}
	k.WaitFor(func(ls []kitty.OSWindow) bool { return shellForeground(ls, id) }, 90*time.Second)
}

// atShell reports whether window id's foreground is its shell again
// within d.
func (w *world) atShell(k *kittytest.Real, id int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(w.t.Context(), 10*time.Second)
		ls, err := k.Client.LS(ctx)
		cancel()
		if err == nil && shellForeground(ls, id) {
			return true
		}
	}
	return false
}

// shellForeground reports whether ls shows bash in the foreground of
// window id.
func shellForeground(ls []kitty.OSWindow, id int) bool {
	for _, r := range kitty.Windows(ls) {
		if r.Window.ID == id {
			for _, p := range r.Window.ForegroundProcesses {
				if len(p.Cmdline) > 0 && filepath.Base(p.Cmdline[0]) == "bash" {
					return true
				}
			}
		}
	}
	return false
}
