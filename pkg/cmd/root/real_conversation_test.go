//go:build linux

package root_test

import (
	"context"
	"fmt"
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

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/cmd/sessions"
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
}

var claudeConv = convAgent{
	name:  "claude",
	ready: "? for shortcuts",
	enter: "\r",
	home: func(t *testing.T, s *modelstub.Server, home string, dirs ...string) []string {
		return s.ClaudeHome(t, home, dirs...)
	},
}

// convWindow is one agent window of a conversation test.
type convWindow struct {
	name string // "api#1": its directory and number
	dir  string
	word string // what it was told before the crash
	id   int    // its kitty window id
	conv string // the conversation id it held (from the agent's files)
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
		"XDG_STATE_HOME": xdgState, "KITTYMUX_RESUME_BIN": resumeBin(t), "KITTYMUX_PROBE_TIMEOUT": "60s",
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
			Signals: []os.Signal{syscall.SIGUSR1}})
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
	return kittytest.StartReal(w.t, kittytest.RealOptions{Env: w.kitty, Kitty: bin, Session: session, Cwd: w.home})
}

func match(id int) string { return "id:" + strconv.Itoa(id) }

// typeLine types text into window id, waits until it shows, then submits it
// with the agent's Enter (codex reads a fast burst of keys as a paste).
func (w *convWorld) typeLine(k *kittytest.Real, id int, text string) {
	w.t.Helper()
	if err := k.Client.SendText(w.t.Context(), match(id), text); err != nil {
		w.t.Fatal(err)
	}
	k.WaitForText(match(id), func(s string) bool { return strings.Contains(flat(s), text) }, 30*time.Second)
	if err := k.Client.SendText(w.t.Context(), match(id), w.agent.enter); err != nil {
		w.t.Fatal(err)
	}
}

// flat joins a screen's lines: a long line the TUI wrapped reads whole.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// shellPrompt reports whether a screen ends at a shell's prompt.
func shellPrompt(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasSuffix(s, "$") || strings.HasSuffix(s, "#")
}

// startAgent opens a shell in dir, types the agent's plain name into it and
// waits for its TUI.
func (w *convWorld) startAgent(k *kittytest.Real, dir string) int {
	w.t.Helper()
	id := k.LaunchWith(kitty.LaunchOptions{Cwd: dir})
	k.WaitForText(match(id), shellPrompt, 30*time.Second)
	if err := k.Client.SendText(w.t.Context(), match(id), w.agent.name+"\r"); err != nil {
		w.t.Fatal(err)
	}
	w.waitReady(k, id)
	return id
}

func (w *convWorld) waitReady(k *kittytest.Real, id int) {
	w.t.Helper()
	k.WaitForText(match(id), func(s string) bool { return strings.Contains(s, w.agent.ready) }, 90*time.Second)
}

// tell gives window cw its word and waits for the stand-in's answer on
// screen.
func (w *convWorld) tell(k *kittytest.Real, cw *convWindow) {
	w.t.Helper()
	w.typeLine(k, cw.id, "Remember the word "+cw.word)
	w.stub.WaitCarrying(w.t, cw.word, 60*time.Second)
	k.WaitForText(match(cw.id), func(s string) bool { return strings.Contains(flat(s), "stub reply to") }, 60*time.Second)
}

// ask asks window id a question of its own and returns the turns carrying
// it, once the answer is on screen.
func (w *convWorld) ask(k *kittytest.Real, id int, question string) []modelstub.Request {
	w.t.Helper()
	w.typeLine(k, id, question)
	reqs := w.stub.WaitCarrying(w.t, question, 60*time.Second)
	k.WaitForText(match(id), func(s string) bool { return strings.Contains(flat(s), "stub reply to: "+question) }, 60*time.Second)
	return reqs
}

// words returns which of the windows' words the requests carry.
func words(reqs []modelstub.Request, ws []*convWindow) []string {
	var out []string
	for _, cw := range ws {
		if slices.ContainsFunc(reqs, func(r modelstub.Request) bool { return r.Carries(cw.word) }) {
			out = append(out, cw.word)
		}
	}
	return out
}

var shortID = regexp.MustCompile(`resume session ([0-9a-f]{8})`)

// answerPrompts waits in each restored window of k in the windows' dirs
// for the restore prompt, reads the conversation it offers, presses Enter,
// and waits for the agent. It returns the restored windows' ids by the
// short conversation id their prompt named.
func (w *convWorld) answerPrompts(k *kittytest.Real, ws []*convWindow) map[string]int {
	t := w.t
	t.Helper()
	dirs := map[string]bool{}
	for _, cw := range ws {
		dirs[cw.dir] = true
	}
	var ids []int
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		ids = ids[:0]
		for _, r := range kitty.Windows(ls) {
			if dirs[r.Window.Cwd] {
				ids = append(ids, r.Window.ID)
			}
		}
		return len(ids) >= len(ws)
	}, 30*time.Second)
	byConv := map[string]int{}
	for _, id := range ids {
		s := k.WaitForText(match(id), func(s string) bool { return strings.Contains(s, "i commands") }, 60*time.Second)
		m := shortID.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("window %d: the prompt names no conversation:\n%s", id, s)
		}
		byConv[m[1]] = id
		if err := k.Client.SendText(t.Context(), match(id), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range ids {
		w.waitReady(k, id)
	}
	return byConv
}

// convOf finds the conversation id that holds word in the agent's own files
// under the world's HOME: claude's projects/<dir>/<id>.jsonl.
func (w *convWorld) convOf(word string) string {
	w.t.Helper()
	var found []string
	// The agent writes its file as the turn goes: wait for it.
	for deadline := time.Now().Add(30 * time.Second); len(found) == 0 && time.Now().Before(deadline); {
		found = w.filesWith(word)
		time.Sleep(100 * time.Millisecond)
	}
	if len(found) != 1 {
		w.t.Fatalf("%s is in %d conversation files, want 1: %q", word, len(found), found)
	}
	return convFile.FindStringSubmatch(found[0])[1]
}

// filesWith returns the agent's conversation files under the world's HOME
// that hold word.
func (w *convWorld) filesWith(word string) []string {
	var found []string
	_ = filepath.WalkDir(w.home, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !convFile.MatchString(path) {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), word) {
			found = append(found, path)
		}
		return nil
	})
	return found
}

// convFile is a conversation's file: claude's projects/<dir>/<id>.jsonl,
// codex's sessions/…/rollout-<time>-<id>.jsonl.
var convFile = regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$`)

// waitAutosave waits for an autosave of k that holds every window's
// conversation and returns its name.
func (w *convWorld) waitAutosave(k *kittytest.Real, ws []*convWindow) string {
	w.t.Helper()
	store := autosave.Store{Paths: w.p}
	deadline := time.Now().Add(60 * time.Second)
	for {
		names, _ := store.Names(strconv.Itoa(k.PID))
		if len(names) > 0 {
			newest := names[len(names)-1]
			data, _ := os.ReadFile(w.p.Session(newest))
			if !slices.ContainsFunc(ws, func(cw *convWindow) bool { return !strings.Contains(string(data), cw.conv) }) {
				return newest
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("no autosave holds every conversation in 60 s (%v); scanner log:\n%s", names, w.scanLog)
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

// restored checks, for each window, the turns its question after the
// restore carried: its own word and no other window's. It returns one line
// of the matrix per window.
func (w *convWorld) restored(k *kittytest.Real, ws []*convWindow, byConv map[string]int) []string {
	t := w.t
	t.Helper()
	var lines []string
	for i, cw := range ws {
		id, ok := byConv[cw.conv[:8]]
		if !ok {
			t.Errorf("%s: no restored window offers its conversation %s (offered: %v)", cw.name, cw.conv, byConv)
			continue
		}
		question := fmt.Sprintf("Which word did I tell you? question%d", i+1)
		reqs := w.ask(k, id, question)
		got := words(reqs, ws)
		lines = append(lines, fmt.Sprintf("%s: told %s, asked again: %v", cw.name, cw.word, got))
		if !slices.Equal(got, []string{cw.word}) {
			t.Errorf("%s (conversation %s, now window %d): the question's requests carry %v, want only %s\n%s",
				cw.name, cw.conv, id, got, cw.word, w.stub.Summary())
		}
	}
	return lines
}

// TestRealConversationsRestoreLast: claude typed plainly into a shell, two
// windows in one directory and a third in another, each told its own word;
// the scanner running, an autosave, kitty SIGKILLed, `sessions restore last`
// from outside kitty, Enter at each prompt: each window is back in its own
// conversation.
//
// Matrix:
//
//	claude × two windows in api + one in web × no hooks × autosave restore
//	  → exact for all three (ids from claude's sessions/<pid>.json);
//	    each window's next request carries its own word and no other's.
func TestRealConversationsRestoreLast(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	d := workDirs(t, "api", "web")
	api, web := d[0], d[1]
	w := newConvWorld(t, claudeConv, kittyBin, api, web)

	k1 := w.startKitty(kittyBin, "")
	stop := w.scanner(k1)
	ws := []*convWindow{
		{name: "api#1", dir: api, word: "ORCHID"},
		{name: "api#2", dir: api, word: "TULIP"},
		{name: "web", dir: web, word: "MAPLE"},
	}
	for _, cw := range ws {
		cw.id = w.startAgent(k1, cw.dir)
	}
	for _, cw := range ws {
		w.tell(k1, cw)
		cw.conv = w.convOf(cw.word)
	}
	saved := w.waitAutosave(k1, ws)
	w.kill(k1)
	stop()

	out := &kittytest.Buffer{}
	var k2 *kittytest.Real
	err := sessions.Restore(t.Context(), &sessions.RestoreOptions{F: w.factory(out), Name: "last", Wait: time.Second,
		StartKitty: func(_, session string) error { k2 = w.startKitty(kittyBin, session); return nil }})
	if err != nil || k2 == nil {
		t.Fatalf("restore last: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "restored "+saved+" in a new kitty") {
		t.Errorf("restore last said:\n%s", out)
	}
	byConv := w.answerPrompts(k2, ws)
	for _, line := range w.restored(k2, ws, byConv) {
		t.Log("claude × 2 in api + 1 in web × no hooks × restore last → exact: " + line)
	}
}
