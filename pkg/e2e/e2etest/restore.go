//go:build linux

package e2etest

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/list"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

var shortID = regexp.MustCompile(`resume session ([0-9a-f]{8})`)

// restoredWindow is a window of the restored kitty with a restore prompt.
type restoredWindow struct {
	id    int
	dir   string
	short string // the conversation its prompt offered, "" when none by id
	conv  string // the conversation picked from its choosing list
	used  bool
}

// answerPrompts waits in each window of k in one of dirs for the restore
// prompt, reads the conversation it offers, presses Enter, and waits for
// the agent. A window that lists conversations to choose from is answered
// as the user would, who knows what each window held: the n-th such window
// of a directory picks the line of the n-th window of ws there, by the
// word it was told; a later one must list an earlier pick as taken.
func (w *world) answerPrompts(k *kittytest.Real, dirs map[string]int, ws []*convWindow) []*restoredWindow {
	t := w.t
	t.Helper()
	var rws []*restoredWindow
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		rws = rws[:0]
		n := map[string]int{}
		for _, r := range kitty.Windows(ls) {
			if dirs[r.Window.Cwd] > 0 {
				rws = append(rws, &restoredWindow{id: r.Window.ID, dir: r.Window.Cwd})
				n[r.Window.Cwd]++
			}
		}
		for d, want := range dirs {
			if n[d] < want {
				return false
			}
		}
		return true
	}, 30*time.Second)
	chosen := map[string]int{} // picks so far, by directory
	for _, rw := range rws {
		s := k.WaitForText(windowMatch(rw.id), func(s string) bool { return strings.Contains(s, "i commands") || strings.Contains(s, choosing) }, 60*time.Second)
		if m := shortID.FindStringSubmatch(s); m != nil {
			rw.short = m[1]
		}
		key := "\r"
		if strings.Contains(s, choosing) {
			key = w.pick(k, rw, ws, chosen[rw.dir])
			chosen[rw.dir]++
		}
		if err := k.Client.SendText(t.Context(), windowMatch(rw.id), key); err != nil {
			t.Fatal(err)
		}
	}
	for _, rw := range rws {
		w.waitReady(k, rw.id)
	}
	return rws
}

// choosing is what a restore prompt that lists conversations asks.
const choosing = "which conversation was this window's?"

// pick is the key that picks, in rw's list, the conversation of the n-th
// window of ws in rw's directory (an earlier pick there, when this list
// holds it, shows as taken).
func (w *world) pick(k *kittytest.Real, rw *restoredWindow, ws []*convWindow, n int) string {
	t := w.t
	t.Helper()
	var mine []*convWindow
	for _, cw := range ws {
		if cw.dir == rw.dir {
			mine = append(mine, cw)
		}
	}
	if n >= len(mine) {
		t.Fatalf("window %d lists conversations to choose from, but no window of %s is left to take over", rw.id, rw.dir)
	}
	cw := mine[n]
	// The line shows the user's first message, or what the agent's own
	// list says of the conversation (opencode's title, which the stand-in
	// writes from that message).
	line := regexp.MustCompile(`(?m)^\s*([1-9]) (?:.*\s)?Remember the word ` + cw.word)
	// An earlier pick (written while this window's agent ran: runConv
	// reminds api#1 after api#2 started) is listed, and shows as taken.
	takenShown := func(s string) bool {
		for _, earlier := range mine[:n] {
			if !strings.Contains(s, "Remember the word "+earlier.word) || !strings.Contains(s, "open in") {
				return false
			}
		}
		return true
	}
	s := k.WaitForText(windowMatch(rw.id), func(s string) bool { return line.MatchString(s) && takenShown(s) }, 30*time.Second)
	m := line.FindStringSubmatch(s)
	if m == nil || !takenShown(s) {
		t.Fatalf("window %d: its list has no free line for %s's word %s, or does not show an earlier pick as taken:\n%s", rw.id, cw.name, cw.word, s)
	}
	t.Logf("window %d lists:\n%s\npicked %s (%s)", rw.id, s, m[1], cw.name)
	rw.conv = cw.conv
	return m[1]
}

// restoredAs is the restored window that took over cw: the one whose prompt
// offered cw's conversation, else one in its directory that offered none.
// codex's ids (UUIDv7) begin with their time, so threads started within
// a minute share the 8 digits a prompt shows: among those, the first not
// yet taken, as kitty restores windows in their saved order.
func restoredAs(cw *convWindow, rws []*restoredWindow) *restoredWindow {
	for _, rw := range rws {
		if !rw.used && rw.conv != "" && rw.conv == cw.conv {
			rw.used = true
			return rw
		}
	}
	for _, rw := range rws {
		if !rw.used && rw.short != "" && cw.conv != "" && strings.HasPrefix(cw.conv, rw.short) {
			rw.used = true
			return rw
		}
	}
	for _, rw := range rws {
		if !rw.used && rw.short == "" && rw.conv == "" && rw.dir == cw.dir {
			rw.used = true
			return rw
		}
	}
	return nil
}

// waitAutosave waits for an autosave of k written after since that holds
// every one of convs and a restore prompt for each of n windows, and
// returns its name. (Without exact ids, convs is empty: an autosave
// written before the scanner saw every agent would do but for n.)
func (w *world) waitAutosave(k *kittytest.Real, since time.Time, convs []string, n int) string {
	w.t.Helper()
	store := autosave.Store{Paths: w.p}
	bound := kittytest.NewBound(w.t, fmt.Sprintf("an autosave since %v holding %v and %d restore prompts", since, convs, n), 60*time.Second)
	for {
		names, _ := store.Names(strconv.Itoa(k.PID))
		if len(names) > 0 {
			newest := names[len(names)-1]
			fi, err := os.Stat(w.p.Session(newest))
			data, _ := os.ReadFile(w.p.Session(newest))
			prompts := 0
			for line := range strings.Lines(string(data)) {
				if strings.Contains(line, w.env["KITTYMUX_RESUME_BIN"]) {
					prompts++
				}
			}
			if err == nil && !fi.ModTime().Before(since) && prompts >= n &&
				!slices.ContainsFunc(convs, func(c string) bool { return !strings.Contains(string(data), c) }) {
				return newest
			}
		}
		if bound.Over() {
			w.t.Fatalf("%v (%v); scanner log:\n%s", bound, names, w.scanLog)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// kill ends kitty with SIGKILL, as a crash does, and waits until the
// scanner has seen it go and its agents have gone with it.
func (w *world) kill(k *kittytest.Real) {
	w.t.Helper()
	if err := syscall.Kill(k.PID, syscall.SIGKILL); err != nil {
		w.t.Fatal(err)
	}
	bound := kittytest.NewBound(w.t, "the scanner to see the killed kitty go", 30*time.Second)
	for !strings.Contains(w.scanLog.String(), "went away") && !bound.Over() {
		time.Sleep(100 * time.Millisecond)
	}
}

// waitJournal waits until the scanner's journal has each window of k with
// the conversation it holds where it is to come back exactly, and the quit
// agent's record closed.
func (w *world) waitJournal(k *kittytest.Real, ws []*convWindow, want map[string]Want) {
	t := w.t
	t.Helper()
	bound := kittytest.NewBound(t, "the journal to hold every window's conversation", 60*time.Second)
	for {
		missing := w.journalLacks(k, ws, want)
		if len(missing) == 0 {
			return
		}
		if bound.Over() {
			jf, _ := os.ReadFile(w.p.Journal())
			lg, _ := os.ReadFile(w.p.Journal() + ".log")
			t.Fatalf("%v; it lacks:\n%s\nscanner log:\n%s\njournal:\n%s\nits log:\n%s\nhook.log:\n%s",
				bound, strings.Join(missing, "\n"), w.scanLog, jf, lg, w.hookLog())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// journalLacks says what the journal lacks of what waitJournal waits for.
func (w *world) journalLacks(k *kittytest.Real, ws []*convWindow, want map[string]Want) []string {
	var missing []string
	f, err := journal.New(w.p.Journal(), false).Read()
	if err != nil {
		missing = append(missing, err.Error())
	}
	open := map[int]journal.Record{}
	closed := 0
	if f != nil {
		for _, r := range f.Records {
			switch {
			case r.KittyPID == k.PID && r.Open:
				open[r.WindowID] = r
			case r.KittyPID == k.PID && r.CloseReason != "":
				closed++
			}
		}
	}
	for _, cw := range ws {
		if r, ok := open[cw.id]; !ok || want[cw.name].Mode == "exact" && r.ID != cw.conv {
			missing = append(missing, fmt.Sprintf("%s: %+v", cw.name, r))
		}
	}
	if closed == 0 {
		missing = append(missing, "the quit agent's record is not closed")
	}
	return missing
}

// hookLog is what the hooks logged in kittymux's state directory.
func (w *world) hookLog() string {
	b, _ := os.ReadFile(filepath.Join(w.p.StateDir, "hook.log"))
	return string(b)
}

// list runs `sessions list --json` on k, from inside it (KITTY_LISTEN_ON,
// KITTY_PID) or from outside (--to), and returns its rows by window.
func (w *world) list(k *kittytest.Real, inside bool) map[int]list.ListedWindow {
	t := w.t
	t.Helper()
	out := &kittytest.Buffer{}
	f := w.factory(out)
	args := []string{"--to", k.Addr.String(), "sessions", "list", "--json"}
	if inside {
		env := maps.Clone(w.env)
		// Inside kitty, the user's HOME is the agents'.
		env["KITTY_LISTEN_ON"], env["KITTY_PID"], env["HOME"] = k.Addr.String(), strconv.Itoa(k.PID), w.home
		f.Getenv = func(k string) string { return env[k] }
		args = args[2:]
	}
	if code := root.Main(f, args); code != 0 {
		t.Fatalf("sessions list: exit %d\n%s", code, out)
	}
	var got struct{ Windows []list.ListedWindow }
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatalf("sessions list: %v\n%s", err, out)
	}
	rows := map[int]list.ListedWindow{}
	for _, r := range got.Windows {
		rows[r.WindowID] = r
	}
	return rows
}

// checkHookLog: the hooks ran and logged no error but marking the window
// (set-user-vars, which kitty before 0.30 lacks and a busy kitty may
// answer late, past the hook's bound of 0.2 s: the journal has the id all
// the same) and a hook that gave up at its own bound (hook.RunWait: an
// agent is never held up by kittymux; on an overloaded machine a hook can
// run out of it, and what the matrix needs, the ids in the journal and the
// resumes, it checks on its own).
func (w *world) checkHookLog() {
	w.t.Helper()
	for line := range strings.Lines(w.hookLog()) {
		if !strings.Contains(line, ": set user vars (kitty ≥ 0.30): ") && !strings.Contains(line, ": not done after ") {
			w.t.Errorf("hook.log: %s", line)
		}
	}
}
