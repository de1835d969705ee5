//go:build linux

package e2etest

import (
	"context"
	"fmt"
	"github.com/kittymux/kittymux/pkg/agents"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	recoverCmd "github.com/kittymux/kittymux/pkg/cmd/sessions/recover"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/restore"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// Real conversations: the pinned agent CLIs, typed plainly into a shell in
// a real kitty, talk to the model stand-in (modelstub); kitty is killed and
// the conversations are restored; each restored window is asked again and
// the request it sends shows whose conversation it holds.
//
// A conversation's word is told to it once, before the crash. After the
// restore each window is asked a question of its own; the request carrying
// that question must carry the window's word and no other window's: the
// same conversation, not a new one (no word), not another window's (another
// word), and none twice (each word in one window).
//
// The matrix, one test per agent: each agent CLI typed plainly into a
// shell (two windows in api, one in web, one in docs), each window told its
// own word; in web a second conversation is started inside the agent and
// told a second word; docs' agent is quit, back to its shell. The scanner
// runs; kitty is killed with SIGKILL and the windows are brought back, by
// `sessions restore last` from the newest autosave or by `sessions recover
// --since 1h` from the journal. Enter at each prompt; each window is asked
// again, and the request carrying its question shows whose conversation it
// holds.

// Want is how one window comes back.
type Want struct {
	// Mode and IDSource are what `sessions list` says of the window before
	// the crash.
	Mode, IDSource string
	// Back: its last word comes back (its own conversation); otherwise the
	// window starts a new conversation, and Why says why.
	Back bool
	Why  string
	// Reason is what `sessions list` gives as the reason (a part of it).
	Reason string
}

// Case is one row of the matrix: an agent, with its hooks or not,
// restored from an autosave or recovered from the journal.
type Case struct {
	Agent   Agent
	Hooks   bool
	Recover bool // `sessions recover --since 1h` on kitty on PATH (0.26.5), else `sessions restore last`
	// Quit: kitty is quit (the quit action, as ctrl+shift+q) instead of
	// killed, with the watcher `kittymux setup` installs: `sessions restore
	// last` then restores the save the watcher took as kitty went, which
	// `sessions publish` rewrote with kitty and its agents gone.
	Quit bool
	// Want is, by window, how it comes back: api#1 and api#2 (two windows in
	// one directory), web (a second conversation started inside the agent).
	// docs, whose agent the user quit before the crash, never comes back.
	Want map[string]Want
}

func (c Case) String() string {
	hooks, path := "no hooks", "restore last (kitty 0.48.2)"
	if c.Hooks {
		hooks = "hooks"
	}
	if c.Recover {
		path = "recover (kitty 0.26.5)"
	}
	if c.Quit {
		path = "quit, restore last (kitty 0.48.2)"
	}
	return c.Agent.command() + " × " + hooks + " × " + path
}

// ExactAll is every window back exactly, its id from source.
func ExactAll(source string) map[string]Want {
	return map[string]Want{
		"api#1": {Mode: "exact", IDSource: source, Back: true},
		"api#2": {Mode: "exact", IDSource: source, Back: true},
		"web":   {Mode: "exact", IDSource: source, Back: true},
	}
}

// RunMatrix runs each row as a subtest, one after the other, and logs its
// report.
func RunMatrix(t *testing.T, cases []Case) {
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.String(), " ", "_"), func(t *testing.T) {
			for _, line := range runConv(t, c) {
				t.Logf("%s: %s", c, line)
			}
		})
	}
}

// The words each window is told: web's second is told in a new
// conversation started inside the agent; docs' agent is then quit.
var convWords = map[string][]string{"api#1": {"ORCHID"}, "api#2": {"TULIP"}, "web": {"MAPLE", "CEDAR"}, "docs": {"LILAC"}}

// convWindow is one agent window of a conversation test.
type convWindow struct {
	name string // "api#1": its directory and number
	dir  string
	word string // what it was told last before the crash
	id   int    // its kitty window id
	conv string // the conversation id that holds word (from the agent's files)
}

// runConv runs one row of the matrix; it returns the row's report lines.
func runConv(t *testing.T, c Case) []string {
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	if c.Recover {
		kittytest.NeedReal(t)
		kittyBin = "kitty"
	}
	d := WorkDirs(t, "api", "web", "docs")
	api, web, docs := d[0], d[1], d[2]
	w := newWorld(t, c.Agent, kittyBin, api, web, docs)
	if c.Hooks {
		w.installHooks()
	}
	var k1 *kittytest.Real
	if c.Quit {
		k1 = w.startKitty(kittyBin, "", w.watcher())
	} else {
		k1 = w.startKitty(kittyBin, "")
	}
	if c.Hooks && c.Agent.trustHooks != nil {
		c.Agent.trustHooks(w, k1, docs)
	}
	stop := w.scanner(k1)
	ws := []*convWindow{{name: "api#1", dir: api}, {name: "api#2", dir: api}, {name: "web", dir: web}, {name: "docs", dir: docs}}
	w.converse(k1, ws)
	if chooses(c.Want) {
		// The user goes back to the first window: its conversation is
		// written while api#2's agent runs too, so api#2's list holds it
		// (taken, once api#1's prompt picked it).
		w.remind(k1, ws[0])
	}
	quitAt := time.Now()
	w.quit(k1, ws[3].id)
	ws = ws[:3]
	w.checkListed(k1, ws, c.Want)
	var saved string
	switch {
	case c.Quit:
		saved = w.quitKitty(k1, len(ws))
	case !c.Recover:
		var exact []string
		for _, cw := range ws {
			if c.Want[cw.name].Mode == "exact" {
				exact = append(exact, cw.conv)
			}
		}
		saved = w.waitAutosave(k1, quitAt, exact, len(ws))
	}
	if !c.Quit {
		w.kill(k1)
	}
	stop()

	k2 := w.bringBack(c, saved)
	before := len(w.stub.Requests())
	rws := w.answerPrompts(k2, map[string]int{api: 2, web: 1}, ws)
	report := w.askAgain(k2, ws, rws, c.Want)
	w.checkQuitStays(k2, docs, before)
	report = append(report, "docs: quit before the crash → not resumed")
	if c.Hooks {
		w.checkHookLog()
	}
	return report
}

// converse starts the agent in each window and tells it its words, a new
// conversation before each but the first.
func (w *world) converse(k *kittytest.Real, ws []*convWindow) {
	w.t.Helper()
	// Each agent is told its first word before the next starts: gemini
	// 0.61.0, as it starts, deletes the session files of its directory
	// that hold no message yet, a running sibling's too (its
	// sessionRetention cleanup), and the sibling then writes its
	// conversation to a file without the header `gemini --resume` reads.
	for _, cw := range ws {
		cw.id = w.startAgent(k, cw.dir)
		for i, word := range convWords[cw.name] {
			if i > 0 {
				w.newConversation(k, cw)
			}
			cw.word = word
			w.tell(k, cw)
		}
		cw.conv = w.convOf(cw.word)
	}
}

// chooses reports whether any window of wants lists conversations to
// choose from.
func chooses(wants map[string]Want) bool {
	for _, w := range wants {
		if w.Mode == "choose" {
			return true
		}
	}
	return false
}

// checkListed checks what kittymux makes of each window before the crash:
// the journal, and `sessions list` from inside kitty and from outside.
func (w *world) checkListed(k *kittytest.Real, ws []*convWindow, wants map[string]Want) {
	t := w.t
	t.Helper()
	w.waitJournal(k, ws, wants)
	for _, inside := range []bool{true, false} {
		listed := w.list(k, inside)
		for _, cw := range ws {
			want := wants[cw.name]
			got := listed[cw.id]
			if !inside {
				t.Logf("%s: sessions list: %s %s (%s)", cw.name, got.Mode, got.Command, got.Reason)
			}
			if string(got.Mode) != want.Mode || want.IDSource != "" && got.IDSource != want.IDSource ||
				want.Mode == "exact" && got.ID != cw.conv || !strings.Contains(got.Reason, want.Reason) {
				t.Errorf("%s: sessions list (inside kitty: %v) says %s, id %s from %q (%s); want %s from %q, id %s",
					cw.name, inside, got.Mode, got.ID, got.IDSource, got.Reason, want.Mode, want.IDSource, cw.conv)
			}
			// Its own conversation at least is one the restore would list
			// (read where the user's HOME, the agents', says: inside kitty).
			// An agent whose CLI lists them is not run by a listing.
			if inside && want.Mode == "choose" && got.Candidates == 0 && !agents.Listed(got.Agent) {
				t.Errorf("%s: sessions list (inside kitty: %v) counts no candidate: %s", cw.name, inside, got.Reason)
			}
		}
	}
	if t.Failed() {
		jf, _ := os.ReadFile(w.p.Journal())
		lg, _ := os.ReadFile(w.p.Journal() + ".log")
		t.Logf("journal:\n%s\nits log:\n%s\nhook.log:\n%s", jf, lg, w.hookLog())
	}
}

// bringBack starts a new kitty on the newest autosave (saved), or on what
// recover wrote, and returns it.
func (w *world) bringBack(c Case, saved string) *kittytest.Real {
	t := w.t
	t.Helper()
	out := &kittytest.Buffer{}
	var k2 *kittytest.Real
	start := func(_, session string) error { k2 = w.startKitty(w.kittyBin, session); return nil }
	if c.Recover {
		f := w.factory(out)
		f.Discover = func(context.Context) ([]kitty.Instance, error) { return nil, nil }
		err := recoverCmd.Recover(t.Context(), recoverCmd.RecoverOptions{Since: time.Hour, Name: "recovered",
			StartKitty: start}.From(f))
		if err != nil || k2 == nil {
			t.Fatalf("recover: %v\n%s", err, out)
		}
		w.checkRecoveredTabs(k2)
	} else {
		err := restore.Restore(t.Context(), restore.RestoreOptions{Name: "last", Wait: time.Second,
			StartKitty: start}.From(w.factory(out)))
		if err != nil || k2 == nil {
			t.Fatalf("restore last: %v\n%s", err, out)
		}
		if !strings.Contains(out.String(), "restored "+saved+" in a new kitty") {
			t.Errorf("restore last said:\n%s", out)
		}
	}
	t.Logf("%s:\n%s", c, out)
	return k2
}

// checkRecoveredTabs: a tab per conversation, named after its directory:
// nobody named the one tab they shared, whose title was its active
// window's.
func (w *world) checkRecoveredTabs(k *kittytest.Real) {
	var tabs []string
	for _, o := range k.LS() {
		for _, tab := range o.Tabs {
			tabs = append(tabs, tab.Title)
		}
	}
	slices.Sort(tabs)
	if want := []string{"api", "api", "web"}; !slices.Equal(tabs, want) {
		w.t.Errorf("recovered tabs %q, want %q", tabs, want)
	}
}

// askAgain asks each window of ws, now a window of k among rws, a question
// of its own, checks whose words its request carries, and returns the
// report lines.
func (w *world) askAgain(k *kittytest.Real, ws []*convWindow, rws []*restoredWindow, wants map[string]Want) []string {
	t := w.t
	t.Helper()
	var all []string
	for _, words := range convWords {
		all = append(all, words...)
	}
	slices.Sort(all)
	var report []string
	for i, cw := range ws {
		want := wants[cw.name]
		rw := restoredAs(cw, rws)
		if rw == nil {
			t.Errorf("%s: no restored window took it over", cw.name)
			continue
		}
		reqs := w.ask(k, rw.id, fmt.Sprintf("Which word did I tell you, question%d", i+1))
		var got []string
		for _, word := range all {
			if slices.ContainsFunc(reqs, func(r modelstub.Request) bool { return r.Carries(word) }) {
				got = append(got, word)
			}
		}
		var wantWords []string
		outcome := "a new conversation: " + want.Why
		if want.Back {
			wantWords, outcome = []string{cw.word}, "its own conversation"
		}
		if !slices.Equal(got, wantWords) {
			t.Errorf("%s (%s, now window %d): asked again, its requests carry %v, want %v\n%s",
				cw.name, cw.conv, rw.id, got, wantWords, w.stub.Summary())
		}
		report = append(report, fmt.Sprintf("%s: %s (%s); told %s, asked again its request carries %v → %s",
			cw.name, want.Mode, want.IDSource, strings.Join(convWords[cw.name], " then "), got, outcome))
	}
	return report
}

// checkQuitStays: the agent the user quit in docs is not back, and no
// request since before (the count of requests then) carries its word.
func (w *world) checkQuitStays(k *kittytest.Real, docs string, before int) {
	t := w.t
	t.Helper()
	for _, r := range w.stub.Requests()[before:] {
		if r.Carries("LILAC") {
			t.Errorf("docs' conversation came back: request #%d carries its word", r.N)
		}
	}
	for _, r := range kitty.Windows(k.LS()) {
		if r.Window.Cwd == docs && strings.Contains(k.WaitForText(windowMatch(r.Window.ID), func(string) bool { return true }, time.Second), "i commands") {
			t.Errorf("docs' window offers to resume its quit agent")
		}
	}
}
