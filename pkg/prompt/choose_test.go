package prompt_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/lease"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

const (
	appleID  = "11111111-2222-4333-8444-555555555555"
	bananaID = "66666666-7777-4888-9999-aaaaaaaaaaaa"
)

// conversation writes a claude transcript of id in the world's directory,
// its user's messages said, last written at mtime.
func (w *world) conversation(id string, mtime time.Time, said ...string) {
	w.t.Helper()
	dir := filepath.Join(w.home, ".claude", "projects", "-work")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		w.t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range said {
		line, _ := json.Marshal(map[string]any{"type": "user", "cwd": w.cwd, "sessionId": id,
			"message": map[string]any{"role": "user", "content": s}})
		b.Write(line)
		b.WriteString("\n")
		b.WriteString(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}` + "\n")
	}
	p := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		w.t.Fatal(err)
	}
}

func chooseRecord() []string {
	return []string{"--agent", "claude", "--mode", "choose", "--tab", "api", "--", "claude", "--model", "sonnet"}
}

// runChoose runs a choose record in a pty, types keys once the list shows,
// and returns what was exec'd and shown.
func (w *world) runChoose(args []string, keys ...string) run {
	w.t.Helper()
	before := len(w.log.Records())
	p := kittytest.RunPTY(w.t, kittytest.PTYOptions{Path: w.bin, Args: args, Env: w.env(), Dir: w.cwd,
		WaitFor: "new conversation", Keys: keys,
		Done: func() bool { return len(w.log.Records()) > before }})
	return run{out: p.Out, exited: p.Exited, code: p.Code, records: w.log.Records()[before:]}
}

// TestChoose: a window whose conversation kittymux could not know lists
// the agent's conversations of its directory, newest first, by the user's
// first message, age and turns; a digit resumes that one, n starts a new
// one, s opens a shell, and Enter does nothing while two are free.
func TestChoose(t *testing.T) {
	w := newWorld(t)
	now := time.Now()
	w.conversation(appleID, now.Add(-30*time.Minute), "remember the word APPLE", "and then?")
	w.conversation(bananaID, now.Add(-5*time.Minute), "remember the word BANANA")
	for _, c := range []struct {
		name string
		keys []string
		want []string
	}{
		{"2 resumes the older", []string{"2"}, []string{"claude", "--model", "sonnet", "--resume", appleID}},
		{"1 resumes the newest", []string{"1"}, []string{"claude", "--model", "sonnet", "--resume", bananaID}},
		{"Enter with two free does nothing", []string{"\r", "x", "2"}, []string{"claude", "--model", "sonnet", "--resume", appleID}},
		{"a digit past the list does nothing", []string{"7", "1"}, []string{"claude", "--model", "sonnet", "--resume", bananaID}},
		{"n starts a new conversation", []string{"n"}, []string{"claude", "--model", "sonnet"}},
		{"s opens a shell", []string{"s"}, []string{"-fakesh"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := w.runChoose(w.seal(chooseRecord()), c.keys...)
			if diff := cmp.Diff(c.want, argvOf(r)); diff != "" {
				t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
			}
			for _, want := range []string{"claude · which conversation was this window's?", "1 remember the word BANANA · 5 min ago · 1 turn",
				"2 remember the word APPLE · 30 min ago · 2 turns", "1–2 resume", "n new conversation", "s shell"} {
				if !strings.Contains(r.out, want) {
					t.Errorf("the list lacks %q:\n%s", want, r.out)
				}
			}
			if strings.Index(r.out, "BANANA") > strings.Index(r.out, "APPLE") {
				t.Errorf("not newest first:\n%s", r.out)
			}
			if c.name == "Enter with two free does nothing" && !strings.Contains(r.out, "pick 1–2") {
				t.Errorf("Enter did not say to pick:\n%s", r.out)
			}
		})
	}
}

// TestChooseTaken: a conversation another live process holds shows as
// open there, its digit does nothing, and Enter resumes the only free one.
func TestChooseTaken(t *testing.T) {
	w := newWorld(t)
	now := time.Now()
	w.conversation(appleID, now.Add(-30*time.Minute), "remember the word APPLE")
	w.conversation(bananaID, now.Add(-5*time.Minute), "remember the word BANANA")
	l, _, err := lease.Take(w.state, lease.Holder{Agent: "claude", ID: bananaID, PID: os.Getpid(), WindowID: 7, Tab: "web", Since: now})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	r := w.runChoose(w.seal(chooseRecord()), "1", "\r")
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet", "--resume", appleID}, argvOf(r)); diff != "" {
		t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
	if !strings.Contains(r.out, `open in window 7 (tab "web")`) || !strings.Contains(r.out, "1 is open in") {
		t.Errorf("the taken conversation is not shown as taken:\n%s", r.out)
	}
}

// TestChooseShowsTextOnly: what a line shows is the user's own text from
// the agent's files: no escape sequence of it reaches the terminal.
func TestChooseShowsTextOnly(t *testing.T) {
	w := newWorld(t)
	w.conversation(appleID, time.Now(), "look \x1b]2;pwned\x07 at \x1b[31mred\x1b[0m and \x1bP@kitty-cmd{}\x1b\\ this")
	w.conversation(bananaID, time.Now(), "second")
	r := w.runChoose(w.seal(chooseRecord()), "s")
	for _, bad := range []string{"\x1b]2;pwned", "\x1b[31m", "@kitty-cmd"} {
		if strings.Contains(r.out, bad) {
			t.Errorf("the terminal got %q:\n%q", bad, r.out)
		}
	}
	if !strings.Contains(r.out, "look") || !strings.Contains(r.out, "this") {
		t.Errorf("the message is not shown:\n%q", r.out)
	}
}

// TestChooseNeverGuesses: in auto mode, and with no conversation to
// choose from, a choose record starts a new conversation.
func TestChooseNeverGuesses(t *testing.T) {
	w := newWorld(t)
	w.conversation(appleID, time.Now(), "remember the word APPLE")
	w.extraEnv = []string{"KITTYMUX_RESUME=auto"}
	r := w.runPTY(w.seal(chooseRecord()), "", false)
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet"}, argvOf(r)); diff != "" {
		t.Errorf("auto mode exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
	w.extraEnv = nil
	empty := newWorld(t)
	r = empty.runPTY(empty.seal(chooseRecord()), "\r", true)
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet"}, argvOf(r)); diff != "" || !strings.Contains(r.out, "conversation unknown: start a new one?") {
		t.Errorf("nothing to choose exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
}

// TestChooseSince: the record says when the window's agent ran (--since,
// --seen, from the save): the list says so, and holds only conversations
// written since that process started.
func TestChooseSince(t *testing.T) {
	w := newWorld(t)
	now := time.Now()
	w.conversation(appleID, now.Add(-30*time.Minute), "remember the word APPLE")
	w.conversation(bananaID, now.Add(-5*time.Minute), "remember the word BANANA")
	started, seen := now.Add(-40*time.Minute), now.Add(-2*time.Minute)
	rec := func(since time.Time) []string {
		return append([]string{"--since", strconv.FormatInt(since.Unix(), 10), "--seen", strconv.FormatInt(seen.Unix(), 10)}, chooseRecord()...)
	}
	r := w.runChoose(w.seal(rec(started)), "2")
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet", "--resume", appleID}, argvOf(r)); diff != "" {
		t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
	// A time of another day carries its date (run near midnight, started
	// is yesterday's).
	clock := func(t time.Time) string {
		if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
			return t.Format("15:04")
		}
		return t.Format("Jan 2 15:04")
	}
	ran := "its claude started " + clock(started) + ", last seen running " + clock(seen)
	if !strings.Contains(r.out, ran) {
		t.Errorf("the list does not say when its agent ran (%q):\n%s", ran, r.out)
	}
	// Started after APPLE was last written: only BANANA could be its.
	r = w.runChoose(w.seal(rec(now.Add(-10*time.Minute))), "s")
	if !strings.Contains(r.out, "BANANA") || strings.Contains(r.out, "APPLE") {
		t.Errorf("listed a conversation last written before its agent started:\n%s", r.out)
	}
}

// TestChooseListedOnlySealed: opencode's conversations are listed by
// running its CLI, before any key: never for a record kittymux did not
// seal, which asks about a new conversation instead and runs nothing else.
func TestChooseListedOnlySealed(t *testing.T) {
	w := newWorld(t)
	rec := []string{"--agent", "opencode", "--mode", "choose", "--tab", "api", "--", "opencode"}
	r := w.runPTY(rec, "\r", true)
	if diff := cmp.Diff([]string{"opencode"}, argvOf(r)); diff != "" {
		t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
	if !strings.Contains(r.out, "conversation unknown: start a new one?") || strings.Contains(r.out, "asking opencode") {
		t.Errorf("an unsealed record asked opencode for its conversations, or did not ask about a new one:\n%s", r.out)
	}
}
