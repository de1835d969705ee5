//go:build linux

package conversations_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agenthooks"
	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/cmd/sessions"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/kitty/kittytest"
	"github.com/kittymux/kittymux/pkg/kitty/kittytest/modelstub"
	"github.com/kittymux/kittymux/pkg/paths"
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

// convAgent is how a test drives one agent CLI's TUI.
type convAgent struct {
	name string
	// typed is what is typed at the shell to start it; default: name.
	typed string
	// ready is text the TUI shows once it takes input.
	ready string
	// enter submits what was typed.
	enter string
	// home prepares the agent's HOME for the stand-in, trusting dirs, and
	// returns the environment it needs.
	home func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string
	// cleanup ends what the agent leaves running after its TUI (codex's
	// app-server daemon).
	cleanup func(t *testing.T, home string)
	// newConv starts a new conversation inside the running agent; quit
	// leaves it, back to the shell.
	newConv, quit string
	// conv returns the conversations whose own files (the agent's) hold
	// word.
	conv func(w *convWorld, word string) []string
}

// The pinned agent CLIs this package drives, each typed plainly at a shell.
var geminiConv = convAgent{
	name:    "gemini",
	ready:   "Type your message",
	enter:   "\r",
	newConv: "/clear",
	quit:    "/quit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.GeminiHome(t, home, dirs...)
	},
	conv:    geminiConvs,
	cleanup: endLeftovers,
}

var piConv = convAgent{
	name:    "pi",
	ready:   "stub-model",
	enter:   "\r",
	newConv: "/new",
	quit:    "/quit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.PiHome(t, home, dirs...)
	},
	conv:    fileConvs,
	cleanup: endLeftovers,
}

var opencodeConv = convAgent{
	name:    "opencode",
	ready:   "ctrl+p commands",
	enter:   "\r",
	newConv: "/new",
	quit:    "/exit",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.OpenCodeHome(t, home, dirs...)
	},
	conv:    opencodeConvs,
	cleanup: endLeftovers,
}

// command is what is typed at the shell to start the agent.
func (a convAgent) command() string {
	if a.typed != "" {
		return a.typed
	}
	return a.name
}

// endLeftovers ends any process that still runs with the test's HOME: an
// agent that outlived its terminal.
func endLeftovers(t *testing.T, home string) {
	for _, pid := range processesUnder(home) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// fileConvs: the conversations whose file (<…><uuid>.jsonl, pi's
// sessions/--<dir>--/<time>_<uuid>.jsonl) holds word.
func fileConvs(w *convWorld, word string) []string {
	var ids []string
	for _, f := range w.filesWith(convFile, word) {
		ids = append(ids, convFile.FindStringSubmatch(f)[1])
	}
	return ids
}

// geminiConvs: the conversations whose file
// (~/.gemini/tmp/<project>/chats/session-<time>-<short id>.jsonl) holds
// word; the full id is the file's first line's sessionId.
func geminiConvs(w *convWorld, word string) []string {
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
func opencodeConvs(w *convWorld, word string) []string {
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

// processesUnder lists the processes whose HOME is home.
func processesUnder(home string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && slices.Contains(strings.Split(string(env), "\x00"), "HOME="+home) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// convWindow is one agent window of a conversation test.
type convWindow struct {
	name string // "api#1": its directory and number
	dir  string
	word string // what it was told last before the crash
	id   int    // its kitty window id
	conv string // the conversation id that holds word (from the agent's files)
}

// convWorld is the setting of one real-conversation test: the stand-in,
// the agent's HOME, kittymux's state and the environment kitty and its
// windows get.
type convWorld struct {
	t        *testing.T
	agent    convAgent
	stub     *modelstub.Server
	kittyBin string
	home     string // the agent's HOME, kitty's too
	p        paths.Paths
	env      map[string]string // kittymux's environment
	kitty    []string          // kitty's environment (RealOptions.Env)
	scanLog  *kittytest.Buffer
	hookBin  string // the kittymux the hooks run, once installed
}

func newConvWorld(t *testing.T, agent convAgent, kittyBin string, dirs ...string) *convWorld {
	t.Helper()
	if _, err := exec.LookPath(agent.name); err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("%s is not on PATH; .ci/run installs it from npm", agent.name)
		}
		t.Skipf("%s is not on PATH (KITTYMUX_E2E=require makes this fatal)", agent.name)
	}
	w := &convWorld{t: t, agent: agent, stub: modelstub.Start(t), kittyBin: kittyBin, scanLog: &kittytest.Buffer{}}
	base := t.TempDir()
	w.home = filepath.Join(base, "home")
	xdgState := filepath.Join(base, "state")
	for _, d := range []string{w.home, xdgState} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.p = paths.Paths{StateDir: filepath.Join(xdgState, "kittymux"), ConfigDir: filepath.Join(base, "config")}
	agentEnv := agent.home(t, w.stub, w.home, dirs...)
	if agent.cleanup != nil {
		t.Cleanup(func() { agent.cleanup(t, w.home) })
	}
	// kitty for `restore` and `recover` to start: the one under test.
	kittyDir := filepath.Join(base, "bin")
	if err := os.Mkdir(kittyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kittyDir, "kitty"), []byte("#!/bin/sh\nexec '"+kittyBin+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.kitty = append([]string{"HOME=" + w.home, "XDG_STATE_HOME=" + xdgState}, agentEnv...)
	w.env = map[string]string{
		"HOME": filepath.Join(base, "kittymux-home"), "PATH": kittyDir + ":" + os.Getenv("PATH"),
		"XDG_STATE_HOME": xdgState, "KITTYMUX_RESUME_BIN": filepath.Join(binDir, "kittymux-resume"), "KITTYMUX_PROBE_TIMEOUT": "60s",
		autosave.EnvSettle: "1s", autosave.EnvAtMostEvery: "2s", autosave.EnvAtLeastEvery: "10s", autosave.EnvKeep: "3",
	}
	return w
}

// factory is kittymux in-process with the world's environment, writing to out.
func (w *convWorld) factory(out *kittytest.Buffer) *factory.Factory {
	f := factory.New()
	f.IO = &factory.IOStreams{In: strings.NewReader(""), Out: out, ErrOut: out}
	f.Getenv = func(k string) string { return w.env[k] }
	f.Paths = w.p
	return f
}

// scanner runs `kittymux scanner run` on k with short settings until the
// returned stop is called (or the test ends).
func (w *convWorld) scanner(k *kittytest.Real) (stop func()) {
	t := w.t
	f := w.factory(w.scanLog)
	inst := kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version, Source: "kitty.conf listen_on"}
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil }
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(ctx, &cmdscanner.RunOptions{F: f, Interval: 200 * time.Millisecond, Rescan: time.Second,
			Signals: []os.Signal{}})
	}()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("scanner: %v", err)
			}
		}
	}
	t.Cleanup(stop)
	return stop
}

// startKitty starts a real kitty with the world's environment, on session
// when it is not "".
func (w *convWorld) startKitty(bin, session string) *kittytest.Real {
	// Each window as wide as the tab: the TUIs wrap what is typed.
	return kittytest.StartReal(w.t, kittytest.RealOptions{Env: w.kitty, Kitty: bin, Session: session, Cwd: w.home,
		Config: []string{"enabled_layouts stack"}})
}

func windowMatch(id int) string { return "id:" + strconv.Itoa(id) }

// typeLine types text into window id, waits until it shows, then submits it
// with the agent's Enter (codex reads a fast burst of keys as a paste).
func (w *convWorld) typeLine(k *kittytest.Real, id int, text string) {
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
		if w.screenShows(k, id, text, 20*time.Second) {
			break
		}
	}
	if err := k.Client.SendText(w.t.Context(), windowMatch(id), w.agent.enter); err != nil {
		w.t.Fatal(err)
	}
}

// launch opens a window in k, waiting up to 30 s for kitty's answer: a
// kitty on a machine busy with agents and other tests' kitties answers
// late.
func (w *convWorld) launch(k *kittytest.Real, o kitty.LaunchOptions) int {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(w.t.Context(), 30*time.Second)
	defer cancel()
	id, err := k.Client.Launch(ctx, o)
	if err != nil {
		w.t.Fatalf("launch: %v", err)
	}
	return id
}

// screenShows waits until window id shows text, and reports whether it
// did within timeout.
func (w *convWorld) screenShows(k *kittytest.Real, id int, text string, timeout time.Duration) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(w.t.Context(), 10*time.Second)
		s, err := k.Client.GetText(ctx, windowMatch(id), "screen")
		cancel()
		if err == nil && shows(s, text) {
			return true
		}
	}
	return false
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
func (w *convWorld) startAgent(k *kittytest.Real, dir string) int {
	w.t.Helper()
	id := w.launch(k, kitty.LaunchOptions{Cwd: dir})
	k.WaitForText(windowMatch(id), shellPrompt, 30*time.Second)
	if err := k.Client.SendText(w.t.Context(), windowMatch(id), w.agent.command()+"\r"); err != nil {
		w.t.Fatal(err)
	}
	w.waitReady(k, id)
	return id
}

func (w *convWorld) waitReady(k *kittytest.Real, id int) {
	w.t.Helper()
	k.WaitForText(windowMatch(id), func(s string) bool { return strings.Contains(s, w.agent.ready) }, 90*time.Second)
}

// tell gives window cw its word and waits for the stand-in's answer on
// screen.
func (w *convWorld) tell(k *kittytest.Real, cw *convWindow) {
	w.t.Helper()
	w.typeLine(k, cw.id, "Remember the word "+cw.word)
	if !carriedWithin(w.stub, cw.word, 60*time.Second) {
		ctx, cancel := context.WithTimeout(w.t.Context(), 10*time.Second)
		screen, _ := k.Client.GetText(ctx, windowMatch(cw.id), "screen")
		cancel()
		w.t.Fatalf("%s: no request carried %q within 60 s; its screen:\n%s\nrequests:\n%s", cw.name, cw.word, screen, w.stub.Summary())
	}
	k.WaitForText(windowMatch(cw.id), func(s string) bool { return shows(s, "stub reply to") }, 60*time.Second)
}

// ask asks window id a question of its own and returns the turns carrying
// it, once the answer is on screen.
func (w *convWorld) ask(k *kittytest.Real, id int, question string) []modelstub.Request {
	w.t.Helper()
	w.typeLine(k, id, question)
	// An Enter that came while the TUI was busy may be lost: pressed
	// again while no request carries the question (on an empty prompt
	// it does nothing).
	for range 2 {
		if carriedWithin(w.stub, question, 20*time.Second) {
			break
		}
		if err := k.Client.SendText(w.t.Context(), windowMatch(id), w.agent.enter); err != nil {
			w.t.Fatal(err)
		}
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

var shortID = regexp.MustCompile(`resume session ([0-9a-f]{8})`)

// restoredWindow is a window of the restored kitty with a restore prompt.
type restoredWindow struct {
	id    int
	dir   string
	short string // the conversation its prompt offered, "" when none by id
	used  bool
}

// answerPrompts waits in each window of k in one of dirs for the restore
// prompt, reads the conversation it offers, presses Enter, and waits for
// the agent.
func (w *convWorld) answerPrompts(k *kittytest.Real, dirs map[string]int) []*restoredWindow {
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
	for _, rw := range rws {
		s := k.WaitForText(windowMatch(rw.id), func(s string) bool { return strings.Contains(s, "i commands") }, 60*time.Second)
		if m := shortID.FindStringSubmatch(s); m != nil {
			rw.short = m[1]
		}
		if err := k.Client.SendText(t.Context(), windowMatch(rw.id), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	for _, rw := range rws {
		w.waitReady(k, rw.id)
	}
	return rws
}

// restoredAs is the restored window that took over cw: the one whose prompt
// offered cw's conversation, else one in its directory that offered none.
// codex's ids (UUIDv7) begin with their time, so threads started within
// a minute share the 8 digits a prompt shows: among those, the first not
// yet taken, as kitty restores windows in their saved order.
func restoredAs(cw *convWindow, rws []*restoredWindow) *restoredWindow {
	for _, rw := range rws {
		if !rw.used && rw.short != "" && cw.conv != "" && strings.HasPrefix(cw.conv, rw.short) {
			rw.used = true
			return rw
		}
	}
	for _, rw := range rws {
		if !rw.used && rw.short == "" && rw.dir == cw.dir {
			rw.used = true
			return rw
		}
	}
	return nil
}

// convOf finds the conversation id that holds word in the agent's own
// files under the world's HOME.
func (w *convWorld) convOf(word string) string {
	w.t.Helper()
	var found []string
	// The agent writes its file as the turn goes: wait for it.
	for deadline := time.Now().Add(30 * time.Second); len(found) == 0 && time.Now().Before(deadline); {
		found = w.agent.conv(w, word)
		time.Sleep(100 * time.Millisecond)
	}
	if len(found) != 1 {
		var files []string
		_ = filepath.WalkDir(w.home, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, strings.TrimPrefix(path, w.home))
			}
			return nil
		})
		w.t.Fatalf("%s is in %d conversations, want 1: %q; the agent's HOME holds %q", word, len(found), found, files)
	}
	return found[0]
}

// filesWith returns the files under the world's HOME whose path matches re
// and that hold word.
func (w *convWorld) filesWith(re *regexp.Regexp, word string) []string {
	var found []string
	_ = filepath.WalkDir(w.home, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !re.MatchString(path) {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), word) {
			found = append(found, path)
		}
		return nil
	})
	return found
}

// convFile is a conversation's file named after its id: pi's
// sessions/--<dir>--/<time>_<uuid>.jsonl.
var convFile = regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$`)

// waitAutosave waits for an autosave of k written after since that holds
// every one of convs, and returns its name.
func (w *convWorld) waitAutosave(k *kittytest.Real, since time.Time, convs []string) string {
	w.t.Helper()
	store := autosave.Store{Paths: w.p}
	deadline := time.Now().Add(60 * time.Second)
	for {
		names, _ := store.Names(strconv.Itoa(k.PID))
		if len(names) > 0 {
			newest := names[len(names)-1]
			fi, err := os.Stat(w.p.Session(newest))
			data, _ := os.ReadFile(w.p.Session(newest))
			if err == nil && !fi.ModTime().Before(since) &&
				!slices.ContainsFunc(convs, func(c string) bool { return !strings.Contains(string(data), c) }) {
				return newest
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("no autosave since %v holds %v in 60 s (%v); scanner log:\n%s", since, convs, names, w.scanLog)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// kill ends kitty with SIGKILL, as a crash does, and waits until the
// scanner has seen it go and its agents have gone with it.
func (w *convWorld) kill(k *kittytest.Real) {
	w.t.Helper()
	if err := syscall.Kill(k.PID, syscall.SIGKILL); err != nil {
		w.t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(w.scanLog.String(), "went away") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
}

// convWant is how one window comes back.
type convWant struct {
	// mode and idSource are what `sessions list` says of the window before
	// the crash (mode only for recover, which lists nothing).
	mode, idSource string
	// back: its last word comes back (its own conversation); otherwise the
	// window starts a new conversation, and why says why.
	back bool
	why  string
	// reason is what `sessions list` gives as the reason (a part of it).
	reason string
}

// convCase is one row of the matrix: an agent, with its hooks or not,
// restored from an autosave or recovered from the journal.
type convCase struct {
	agent   convAgent
	hooks   bool
	recover bool // `sessions recover --since 1h` on kitty on PATH (0.26.5), else `sessions restore last`
	// want is, by window, how it comes back: api#1 and api#2 (two windows in
	// one directory), web (a second conversation started inside the agent).
	// docs, whose agent the user quit before the crash, never comes back.
	want map[string]convWant
}

func (c convCase) String() string {
	hooks, path := "no hooks", "restore last (kitty 0.48.2)"
	name := c.agent.command()
	if c.hooks {
		hooks = "hooks"
	}
	if c.recover {
		path = "recover (kitty 0.26.5)"
	}
	return name + " × " + hooks + " × " + path
}

// The words each window is told: web's second is told in a new
// conversation started inside the agent; docs' agent is then quit.
var convWords = map[string][]string{"api#1": {"ORCHID"}, "api#2": {"TULIP"}, "web": {"MAPLE", "CEDAR"}, "docs": {"LILAC"}}

// runConv runs one row of the matrix; it returns the row's report lines.
func runConv(t *testing.T, c convCase) []string {
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	if c.recover {
		kittytest.NeedReal(t)
		kittyBin = "kitty"
	}
	d := workDirs(t, "api", "web", "docs")
	api, web, docs := d[0], d[1], d[2]
	w := newConvWorld(t, c.agent, kittyBin, api, web, docs)
	if c.hooks {
		w.installHooks()
	}

	k1 := w.startKitty(kittyBin, "")
	stop := w.scanner(k1)
	ws := []*convWindow{{name: "api#1", dir: api}, {name: "api#2", dir: api}, {name: "web", dir: web}, {name: "docs", dir: docs}}
	// Each agent is told its first word before the next starts: gemini
	// 0.61.0, as it starts, deletes the session files of its directory
	// that hold no message yet, a running sibling's too (its
	// sessionRetention cleanup), and the sibling then writes its
	// conversation to a file without the header `gemini --resume` reads.
	for _, cw := range ws {
		cw.id = w.startAgent(k1, cw.dir)
		for i, word := range convWords[cw.name] {
			if i > 0 {
				w.newConversation(k1, cw.id)
			}
			cw.word = word
			w.tell(k1, cw)
		}
		cw.conv = w.convOf(cw.word)
	}
	quitAt := time.Now()
	w.quit(k1, ws[3].id)
	ws = ws[:3]

	// What kittymux makes of each window before the crash.
	var exact []string
	for _, cw := range ws {
		if c.want[cw.name].mode == "exact" {
			exact = append(exact, cw.conv)
		}
	}
	w.waitJournal(k1, ws, c.want)
	for _, inside := range []bool{true, false} {
		listed := w.list(k1, inside)
		for _, cw := range ws {
			want := c.want[cw.name]
			got := listed[cw.id]
			if !inside {
				t.Logf("%s: sessions list: %s %s (%s)", cw.name, got.Mode, got.Command, got.Reason)
			}
			if string(got.Mode) != want.mode || want.idSource != "" && got.IDSource != want.idSource ||
				want.mode == "exact" && got.ID != cw.conv || !strings.Contains(got.Reason, want.reason) {
				t.Errorf("%s: sessions list (inside kitty: %v) says %s, id %s from %q (%s); want %s from %q, id %s",
					cw.name, inside, got.Mode, got.ID, got.IDSource, got.Reason, want.mode, want.idSource, cw.conv)
			}
		}
	}
	if t.Failed() {
		jf, _ := os.ReadFile(w.p.Journal())
		hl, _ := os.ReadFile(filepath.Join(w.p.StateDir, "hook.log"))
		t.Logf("journal:\n%s\nhook.log:\n%s", jf, hl)
	}
	var saved string
	if !c.recover {
		saved = w.waitAutosave(k1, quitAt, exact)
	}
	w.kill(k1)
	stop()

	// Back: a new kitty on the newest autosave, or on what recover wrote.
	out := &kittytest.Buffer{}
	var k2 *kittytest.Real
	start := func(_, session string) error { k2 = w.startKitty(kittyBin, session); return nil }
	if c.recover {
		f := w.factory(out)
		f.Discover = func(context.Context) ([]kitty.Instance, error) { return nil, nil }
		err := sessions.Recover(t.Context(), &sessions.RecoverOptions{F: f, Since: time.Hour, Name: "recovered",
			StartKitty: start})
		if err != nil || k2 == nil {
			t.Fatalf("recover: %v\n%s", err, out)
		}
	} else {
		err := sessions.Restore(t.Context(), &sessions.RestoreOptions{F: w.factory(out), Name: "last", Wait: time.Second,
			StartKitty: start})
		if err != nil || k2 == nil {
			t.Fatalf("restore last: %v\n%s", err, out)
		}
		if !strings.Contains(out.String(), "restored "+saved+" in a new kitty") {
			t.Errorf("restore last said:\n%s", out)
		}
	}
	t.Logf("%s:\n%s", c, out)
	if c.recover {
		// A tab per conversation, named after its directory: nobody named
		// the one tab they shared, whose title was its active window's.
		var tabs []string
		for _, o := range k2.LS() {
			for _, tab := range o.Tabs {
				tabs = append(tabs, tab.Title)
			}
		}
		slices.Sort(tabs)
		if want := []string{"api", "api", "web"}; !slices.Equal(tabs, want) {
			t.Errorf("recovered tabs %q, want %q", tabs, want)
		}
	}
	before := len(w.stub.Requests())
	rws := w.answerPrompts(k2, map[string]int{api: 2, web: 1})

	// Each window asked again: whose words does its request carry?
	all := []string{}
	for _, words := range convWords {
		all = append(all, words...)
	}
	slices.Sort(all)
	var report []string
	for i, cw := range ws {
		want := c.want[cw.name]
		rw := restoredAs(cw, rws)
		if rw == nil {
			t.Errorf("%s: no restored window took it over", cw.name)
			continue
		}
		question := fmt.Sprintf("Which word did I tell you, question%d", i+1)
		reqs := w.ask(k2, rw.id, question)
		var got []string
		for _, word := range all {
			if slices.ContainsFunc(reqs, func(r modelstub.Request) bool { return r.Carries(word) }) {
				got = append(got, word)
			}
		}
		var wantWords []string
		outcome := "a new conversation: " + want.why
		if want.back {
			wantWords, outcome = []string{cw.word}, "its own conversation"
		}
		if !slices.Equal(got, wantWords) {
			t.Errorf("%s (%s, now window %d): asked again, its requests carry %v, want %v\n%s",
				cw.name, cw.conv, rw.id, got, wantWords, w.stub.Summary())
		}
		report = append(report, fmt.Sprintf("%s: %s (%s); told %s, asked again its request carries %v",
			cw.name, want.mode, want.idSource, strings.Join(convWords[cw.name], " then "), got))
		report[len(report)-1] += " → " + outcome
	}
	// docs: the agent the user quit is not back, and no request carries its word.
	for _, r := range w.stub.Requests()[before:] {
		if r.Carries("LILAC") {
			t.Errorf("docs' conversation came back: request #%d carries its word", r.N)
		}
	}
	for _, r := range kitty.Windows(k2.LS()) {
		if r.Window.Cwd == docs && strings.Contains(k2.WaitForText(windowMatch(r.Window.ID), func(string) bool { return true }, time.Second), "i commands") {
			t.Errorf("docs' window offers to resume its quit agent")
		}
	}
	report = append(report, "docs: quit before the crash → not resumed")
	if c.hooks {
		w.checkHookLog()
	}
	return report
}

// installHooks runs `kittymux integration install AGENT` for the agent's
// HOME, with a kittymux built for the hooks to run.
func (w *convWorld) installHooks() {
	t := w.t
	t.Helper()
	bin := filepath.Join(binDir, "kittymux")
	out := &kittytest.Buffer{}
	f := w.factory(out)
	f.Executable = bin
	env := maps.Clone(w.env)
	env["HOME"] = w.home
	f.Getenv = func(k string) string { return env[k] }
	if code := root.Main(f, []string{"integration", "install", w.agent.name}); code != 0 {
		t.Fatalf("integration install %s: exit %d\n%s", w.agent.name, code, out)
	}
	t.Logf("integration install %s:\n%s", w.agent.name, out)
	w.hookBin = bin
}

// integrationStatus is `kittymux integration status --json` of the agent
// for its HOME.
func (w *convWorld) integrationStatus() agenthooks.Status {
	t := w.t
	t.Helper()
	out := &kittytest.Buffer{}
	f := w.factory(out)
	f.Executable = w.hookBin
	env := maps.Clone(w.env)
	env["HOME"] = w.home
	f.Getenv = func(k string) string { return env[k] }
	if code := root.Main(f, []string{"integration", "status", "--json", w.agent.name}); code != 0 {
		t.Fatalf("integration status: exit %d\n%s", code, out)
	}
	var got struct{ Integrations []agenthooks.Status }
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil || len(got.Integrations) != 1 {
		t.Fatalf("integration status: %v\n%s", err, out)
	}
	return got.Integrations[0]
}

// newConversation starts a new conversation inside the running agent.
func (w *convWorld) newConversation(k *kittytest.Real, id int) {
	w.t.Helper()
	w.typeLine(k, id, w.agent.newConv)
	time.Sleep(time.Second)
	w.waitReady(k, id)
}

// quit quits the agent the way a user does, back to the shell.
func (w *convWorld) quit(k *kittytest.Real, id int) {
	w.t.Helper()
	w.typeLine(k, id, w.agent.quit)
	k.WaitFor(func(ls []kitty.OSWindow) bool {
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
	}, 90*time.Second)
}

// waitJournal waits until the scanner's journal has each window of k with
// the conversation it holds where it is to come back exactly, and the quit
// agent's record closed.
func (w *convWorld) waitJournal(k *kittytest.Real, ws []*convWindow, want map[string]convWant) {
	t := w.t
	t.Helper()
	j := journal.New(w.p.Journal(), false)
	deadline := time.Now().Add(60 * time.Second)
	for {
		var missing []string
		f, err := j.Read()
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
			if r, ok := open[cw.id]; !ok || want[cw.name].mode == "exact" && r.ID != cw.conv {
				missing = append(missing, fmt.Sprintf("%s: %+v", cw.name, r))
			}
		}
		if closed == 0 {
			missing = append(missing, "the quit agent's record is not closed")
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			jf, _ := os.ReadFile(w.p.Journal())
			hl, _ := os.ReadFile(filepath.Join(w.p.StateDir, "hook.log"))
			t.Fatalf("the journal lacks, after 60 s:\n%s\nscanner log:\n%s\njournal:\n%s\nhook.log:\n%s",
				strings.Join(missing, "\n"), w.scanLog, jf, hl)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// list runs `sessions list --json` on k, from inside it (KITTY_LISTEN_ON,
// KITTY_PID) or from outside (--to), and returns its rows by window.
func (w *convWorld) list(k *kittytest.Real, inside bool) map[int]sessions.ListedWindow {
	t := w.t
	t.Helper()
	out := &kittytest.Buffer{}
	f := w.factory(out)
	args := []string{"--to", k.Addr.String(), "sessions", "list", "--json"}
	if inside {
		env := maps.Clone(w.env)
		env["KITTY_LISTEN_ON"], env["KITTY_PID"] = k.Addr.String(), strconv.Itoa(k.PID)
		f.Getenv = func(k string) string { return env[k] }
		args = args[2:]
	}
	if code := root.Main(f, args); code != 0 {
		t.Fatalf("sessions list: exit %d\n%s", code, out)
	}
	var got struct{ Windows []sessions.ListedWindow }
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatalf("sessions list: %v\n%s", err, out)
	}
	rows := map[int]sessions.ListedWindow{}
	for _, r := range got.Windows {
		rows[r.WindowID] = r
	}
	return rows
}

// checkHookLog: the hooks ran and logged no error but marking the window
// (set-user-vars, which kitty before 0.30 lacks and a busy kitty may
// answer late: the journal has the id all the same).
func (w *convWorld) checkHookLog() {
	w.t.Helper()
	b, _ := os.ReadFile(filepath.Join(w.p.StateDir, "hook.log"))
	for line := range strings.Lines(string(b)) {
		if !strings.Contains(line, ": set user vars (kitty ≥ 0.30): ") {
			w.t.Errorf("hook.log: %s", line)
		}
	}
}

// The matrix of real conversations, one test per agent (one after the
// other: each holds a kitty and four agents, and the real tests of other
// packages run meanwhile):
// each agent CLI typed plainly into a shell (two windows in api, one in
// web, one in docs), each window told its own word; in web a second
// conversation is started inside the agent and told a second word; docs'
// agent is quit, back to its shell. The scanner runs; kitty is killed with
// SIGKILL and the windows are brought back, by `sessions restore last` from
// the newest autosave or by `sessions recover --since 1h` from the journal.
// Enter at each prompt; each window is asked again, and the request
// carrying its question shows whose conversation it holds.

func exactAll(source string) map[string]convWant {
	return map[string]convWant{
		"api#1": {mode: "exact", idSource: source, back: true},
		"api#2": {mode: "exact", idSource: source, back: true},
		"web":   {mode: "exact", idSource: source, back: true},
	}
}

func runMatrix(t *testing.T, cases []convCase) {
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.String(), " ", "_"), func(t *testing.T) {
			for _, line := range runConv(t, c) {
				t.Logf("%s: %s", c, line)
			}
		})
	}
}

// binDir holds the kittymux and kittymux-resume built for the tests: what
// the restored windows and the agents' hooks run.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "kittymux-realconv-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		binDir = dir
		if out, err := exec.Command("go", "build", "-o", dir, "github.com/kittymux/kittymux/cmd/...").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build kittymux: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}())
}

// workDirs makes a directory of each name under one temp directory: the
// projects the agents of a test run in.
func workDirs(t *testing.T, names ...string) []string {
	t.Helper()
	work := t.TempDir()
	dirs := make([]string, len(names))
	for i, name := range names {
		dirs[i] = filepath.Join(work, name)
		if err := os.Mkdir(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// TestRealConversationsGemini: gemini 0.61.0 keeps no record tying a
// process to its conversation and holds no file open; its hooks, installed
// by `kittymux integration install gemini`, report each window's session,
// which `gemini --resume ID` takes back. Without them no window has an id,
// and its latest is per project, which kittymux does not see: every window
// starts anew.
func TestRealConversationsGemini(t *testing.T) {
	why := "3 gemini windows and --resume latest is not per directory"
	noID := map[string]convWant{
		"api#1": {mode: "new", why: why, reason: why},
		"api#2": {mode: "new", why: why, reason: why},
		"web":   {mode: "new", why: why, reason: why},
	}
	runMatrix(t, []convCase{
		{agent: geminiConv, hooks: true, want: exactAll("hook")},
		{agent: geminiConv, hooks: true, recover: true, want: exactAll("hook")},
		{agent: geminiConv, want: noID},
	})
}

// TestRealConversationsPi: pi 0.73.1 keeps no record tying a process to
// its session and holds no file open; the extension `kittymux integration
// install pi` puts in its extensions directory reports each window's
// session on session_start (startup, new, resume), which `pi --session ID`
// takes back. Without it, two windows in one directory start anew and one
// alone continues its directory's latest (pi's --continue is per
// directory).
func TestRealConversationsPi(t *testing.T) {
	runMatrix(t, []convCase{
		{agent: piConv, hooks: true, want: exactAll("hook")},
		{agent: piConv, hooks: true, recover: true, want: exactAll("hook")},
		{agent: piConv, want: map[string]convWant{
			"api#1": {mode: "new", why: "two pi windows in api and no id"},
			"api#2": {mode: "new", why: "two pi windows in api and no id"},
			"web":   {mode: "latest", back: true},
		}},
	})
}

// TestRealConversationsOpenCode: opencode 1.18.33 keeps its sessions in
// SQLite and no record tying a process to one; the plugin `kittymux
// integration install opencode` puts in its plugins directory reports each
// window's session when it is created and on each message, which
// `opencode --session ID` takes back. Without it, no window has an id and
// --continue is not per directory: every window starts anew.
func TestRealConversationsOpenCode(t *testing.T) {
	runMatrix(t, []convCase{
		{agent: opencodeConv, hooks: true, want: exactAll("hook")},
		{agent: opencodeConv, hooks: true, recover: true, want: exactAll("hook")},
	})
}
