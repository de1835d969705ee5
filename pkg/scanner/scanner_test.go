package scanner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/scanner"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func newClock() *clock.Fake { return clock.NewFake(t0) }

// fakeKitty answers ls with whatever the test sets.
type fakeKitty struct {
	mu    sync.Mutex
	ls    []kitty.OSWindow
	err   error
	calls int
	vars  map[int][]string // window id → the last set-user-vars
}

func (k *fakeKitty) LS(ctx context.Context) ([]kitty.OSWindow, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if k.err != nil {
		return nil, k.err
	}
	return k.ls, nil
}

func (k *fakeKitty) SetUserVars(ctx context.Context, match string, vars []string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	id, _ := strconv.Atoi(match[len("id:"):])
	if k.vars == nil {
		k.vars = map[int][]string{}
	}
	k.vars[id] = vars
	return nil
}

func (k *fakeKitty) set(ls []kitty.OSWindow, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.ls, k.err = ls, err
}

type win struct {
	id    int
	title string
	pid   int
	argv  []string
	cwd   string
	vars  map[string]string
	// tool is a command the agent runs in the window's foreground.
	tool []string
}

// lsOf is one OS window with one tab "work" holding the windows.
func lsOf(ws ...win) []kitty.OSWindow {
	tab := kitty.Tab{ID: 1, Title: "work"}
	for _, w := range ws {
		kw := kitty.Window{ID: w.id, Title: w.title, PID: 100 + w.id, Cwd: w.cwd, UserVars: w.vars}
		if w.argv != nil {
			kw.ForegroundProcesses = []kitty.Process{{PID: w.pid, Cmdline: w.argv, Cwd: w.cwd}}
		}
		if w.tool != nil {
			kw.ForegroundProcesses = append(kw.ForegroundProcesses, kitty.Process{PID: w.pid + 1000, Cmdline: w.tool, Cwd: w.cwd})
		}
		tab.Windows = append(tab.Windows, kw)
	}
	return []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{tab}}}
}

type rig struct {
	clock   *clock.Fake
	kitty   *fakeKitty
	inst    kitty.Instance
	journal *journal.Journal
	sc      *scanner.Scanner
	proc    string // fake /proc
	claude  string // CLAUDE_CONFIG_DIR of the fake claude processes
}

func newRig(t *testing.T, version kitty.Version, opts ...func(*scanner.Options)) *rig {
	t.Helper()
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &rig{clock: newClock(), kitty: &fakeKitty{}, proc: filepath.Join(dir, "proc"), claude: filepath.Join(dir, "claude")}
	r.inst = kitty.Instance{Addr: kitty.Address{Path: "/tmp/kitty-7"}, Socket: "unix:/tmp/kitty-7", PID: 7, Version: version}
	r.journal = journal.New(filepath.Join(dir, "state", "agent-sessions.json"), false)
	r.journal.Clock = r.clock
	o := scanner.Options{
		Set:      set,
		Journal:  r.journal,
		Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{r.inst}, nil },
		Client:   func(kitty.Instance) scanner.KittyClient { return r.kitty },
		Records:  live.Records{ProcRoot: r.proc, Getenv: func(string) string { return "" }},
		Clock:    r.clock,
		Logf:     t.Logf,
		Jitter:   func() float64 { return 0 },
	}
	for _, f := range opts {
		f(&o)
	}
	r.sc = scanner.New(o)
	return r
}

// claudeProcess makes pid look like a claude process whose environment
// names CLAUDE_CONFIG_DIR, and writes its sessions/<pid>.json as claude does.
func (r *rig) claudeProcess(t *testing.T, pid int, id, status string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(r.proc, strconv.Itoa(pid)), 0o755); err != nil {
		t.Fatal(err)
	}
	env := "HOME=/nonexistent\x00CLAUDE_CONFIG_DIR=" + r.claude + "\x00"
	if err := os.WriteFile(filepath.Join(r.proc, strconv.Itoa(pid), "environ"), []byte(env), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.MkdirAll(filepath.Join(r.claude, "sessions"), 0o700)
	rec := fmt.Sprintf(`{"pid":%d,"sessionId":%q,"cwd":"/a","startedAt":1,"status":%q,"version":"2.1.197","kind":"interactive"}`, pid, id, status)
	if err := os.WriteFile(filepath.Join(r.claude, "sessions", strconv.Itoa(pid)+".json"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) poll(t *testing.T) scanner.Pass {
	t.Helper()
	p, err := r.sc.Poll(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if p.JournalError != "" {
		t.Fatal(p.JournalError)
	}
	return p
}

func (r *rig) records(t *testing.T) map[int]journal.Record {
	t.Helper()
	f, err := r.journal.Read()
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]journal.Record{}
	for _, rec := range f.Records {
		out[rec.WindowID] = rec
	}
	return out
}

const (
	uuidArgv  = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	uuidRec   = "0199a213-81c0-7800-8aa1-bbab2a035a53"
	uuidClear = "7d3f1c2e-9a8b-4c5d-8e6f-0a1b2c3d4e5f"
	idle      = "\u2733 Fix the tests"
	busy      = "\u2802 Fix the tests"
)

// summary is the part of a record the tests compare.
type summary struct {
	Agent, ID, IDFrom, Dir, TabTitle, State string
	Argv                                    []string
	Runs                                    int
	Working                                 time.Duration
	Open                                    bool
	Reason                                  string
	PreviousIDs                             []string
}

func sum(r journal.Record) summary {
	return summary{Agent: r.Agent, ID: r.ID, IDFrom: r.IDFrom, Dir: r.Dir, TabTitle: r.TabTitle, State: r.State,
		Argv: r.Argv, Runs: r.RunsFinished, Working: r.Working(), Open: r.Open, Reason: r.CloseReason, PreviousIDs: r.PreviousIDs}
}

func sums(rs map[int]journal.Record) map[int]summary {
	out := map[int]summary{}
	for k, r := range rs {
		out[k] = sum(r)
	}
	return out
}

// TestPollSessions follows two claude windows through a scanner's life: ids
// from the command line and from claude's sessions/<pid>.json (which /clear
// changes), state from the title and from claude's record, runs and working
// time, a window closed, then the kitty gone.
func TestPollSessions(t *testing.T) {
	r := newRig(t, kitty.Version{Major: 0, Minor: 26, Patch: 5})
	r.claudeProcess(t, 2002, uuidRec, "idle")
	argvWin := win{id: 1, title: idle, pid: 2001, argv: []string{"/usr/bin/claude", "--model", "opus", "--resume", uuidArgv}, cwd: "/a"}
	recWin := win{id: 2, title: "claude", pid: 2002, argv: []string{"/usr/bin/claude"}, cwd: "/b"}
	shell := win{id: 3, title: "bash", cwd: "/c"}
	r.kitty.set(lsOf(argvWin, recWin, shell), nil)
	p := r.poll(t)
	if !p.Written || len(p.Sessions) != 2 {
		t.Fatalf("first pass: %+v", p)
	}

	// Window 1 works for 90 s, then is idle: one run, 90 s of work.
	r.clock.Advance(2 * time.Second)
	argvWin.title = busy
	r.kitty.set(lsOf(argvWin, recWin, shell), nil)
	r.poll(t)
	r.clock.Advance(90 * time.Second)
	argvWin.title = idle
	// Window 2's claude works (its record says busy), then /clear gives it
	// a new id.
	r.claudeProcess(t, 2002, uuidRec, "busy")
	r.kitty.set(lsOf(argvWin, recWin, shell), nil)
	r.poll(t)
	r.clock.Advance(30 * time.Second)
	r.claudeProcess(t, 2002, uuidClear, "idle")
	r.poll(t)

	want := map[int]summary{
		1: {Agent: "claude", ID: uuidArgv, IDFrom: "command line --resume", Dir: "/a", TabTitle: "work", State: agents.StateIdle,
			Argv: []string{"/usr/bin/claude", "--model", "opus"}, Runs: 1, Working: 90 * time.Second, Open: true},
		2: {Agent: "claude", ID: uuidClear, IDFrom: "claude sessions/2002.json", Dir: "/b", TabTitle: "work", State: agents.StateIdle,
			Argv: []string{"/usr/bin/claude"}, Runs: 1, Working: 30 * time.Second, Open: true, PreviousIDs: []string{uuidRec}},
	}
	if diff := cmp.Diff(want, sums(r.records(t))); diff != "" {
		t.Errorf("journal (-want +got):\n%s", diff)
	}

	// Window 2 is closed.
	r.clock.Advance(2 * time.Second)
	r.kitty.set(lsOf(argvWin, shell), nil)
	p = r.poll(t)
	if len(p.Closed) != 1 || p.Closed[0].WindowID != 2 || p.Closed[0].CloseReason != journal.ClosedWindow {
		t.Errorf("closed: %+v", p.Closed)
	}
	// The agent of window 1 exits, its window stays: closed by the window
	// too, with a detail saying so.
	r.clock.Advance(2 * time.Second)
	argvWin.argv = nil
	r.kitty.set(lsOf(argvWin, shell), nil)
	p = r.poll(t)
	if len(p.Closed) != 1 || p.Closed[0].CloseReason != journal.ClosedWindow || p.Closed[0].CloseDetail == "" {
		t.Errorf("agent exited: %+v", p.Closed)
	}
	// A new agent in window 3, then the kitty goes away.
	r.clock.Advance(2 * time.Second)
	shell.argv, shell.pid = []string{"/usr/bin/claude"}, 2003
	r.kitty.set(lsOf(argvWin, shell), nil)
	r.poll(t)
	r.clock.Advance(2 * time.Second)
	r.kitty.set(nil, fmt.Errorf("connect: %w", kitty.ErrNoSocket))
	p = r.poll(t)
	if len(p.Kitties) != 0 || len(p.Sessions) != 0 {
		t.Errorf("the kitty is gone, yet: %+v", p)
	}
	got := map[int]string{}
	for id, rec := range r.records(t) {
		got[id] = fmt.Sprintf("open=%v %s", rec.Open, rec.CloseReason)
	}
	wantClosed := map[int]string{1: "open=false window-closed", 2: "open=false window-closed", 3: "open=false kitty-gone"}
	if diff := cmp.Diff(wantClosed, got); diff != "" {
		t.Errorf("closes (-want +got):\n%s", diff)
	}
}

// TestPollUserVars: on kitty ≥ 0.30 the window is marked with the id and the
// pid it belongs to, once; again when the id changes.
func TestPollUserVars(t *testing.T) {
	r := newRig(t, kitty.Version{Major: 0, Minor: 48, Patch: 2})
	r.claudeProcess(t, 2002, uuidRec, "idle")
	w := win{id: 2, title: idle, pid: 2002, argv: []string{"/usr/bin/claude"}, cwd: "/b"}
	noID := win{id: 4, title: idle, pid: 2004, argv: []string{"/usr/bin/claude"}, cwd: "/b"}
	r.kitty.set(lsOf(w, noID), nil)
	r.poll(t)
	want := map[int][]string{2: {"kittymux_agent=claude", "kittymux_session=" + uuidRec, "kittymux_pid=2002"}}
	if diff := cmp.Diff(want, r.kitty.vars); diff != "" {
		t.Fatalf("user vars (-want +got):\n%s", diff)
	}
	// kitty now shows them: nothing is sent again.
	r.kitty.vars = nil
	w.vars = map[string]string{"kittymux_agent": "claude", "kittymux_session": uuidRec, "kittymux_pid": "2002"}
	r.kitty.set(lsOf(w, noID), nil)
	r.poll(t)
	if r.kitty.vars != nil {
		t.Errorf("vars sent again: %v", r.kitty.vars)
	}
	r.claudeProcess(t, 2002, uuidClear, "idle")
	r.poll(t)
	want = map[int][]string{2: {"kittymux_agent=claude", "kittymux_session=" + uuidClear, "kittymux_pid=2002"}}
	if diff := cmp.Diff(want, r.kitty.vars); diff != "" {
		t.Errorf("after /clear (-want +got):\n%s", diff)
	}
}

// TestPollBackoff: a kitty that hangs is asked again after 2, 4, 8, ... s,
// never more than a minute apart, with jitter taking up to a fifth off;
// once it answers it is polled at every pass again.
func TestPollBackoff(t *testing.T) {
	r := newRig(t, kitty.Version{})
	jitter := 0.0
	set, _ := agents.Load("")
	r.sc = scanner.New(scanner.Options{Set: set, Journal: r.journal, Clock: r.clock, Logf: t.Logf,
		Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{r.inst}, nil },
		Client:   func(kitty.Instance) scanner.KittyClient { return r.kitty },
		Jitter:   func() float64 { return jitter }})
	r.kitty.set(nil, fmt.Errorf("ls: %w", kitty.ErrTimeout))
	var waits []time.Duration
	for range 8 {
		p := r.poll(t)
		k := p.Kitties[0]
		waits = append(waits, k.NextPoll.Sub(r.clock.Now()))
		if k.OK || k.Error == "" {
			t.Fatalf("failing kitty reported ok: %+v", k)
		}
		// Not asked again before it is due.
		calls := r.kitty.calls
		r.clock.Advance(k.NextPoll.Sub(r.clock.Now()) - time.Millisecond)
		r.poll(t)
		if r.kitty.calls != calls {
			t.Fatalf("asked before its backoff ended")
		}
		r.clock.Advance(time.Millisecond)
	}
	s := time.Second
	if diff := cmp.Diff([]time.Duration{2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s, 60 * s, 60 * s}, waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	jitter = 0.99
	p := r.poll(t)
	if got := p.Kitties[0].NextPoll.Sub(r.clock.Now()); got < 48*s || got >= 60*s {
		t.Errorf("jittered wait %v, want in [48s, 60s)", got)
	}
	r.clock.Advance(time.Minute)
	r.kitty.set(lsOf(win{id: 1, title: "bash"}), nil)
	p = r.poll(t)
	if k := p.Kitties[0]; !k.OK || k.Failures != 0 || !k.NextPoll.Equal(r.clock.Now()) {
		t.Errorf("recovered kitty: %+v", k)
	}
}

// TestLoop: the loop on a fake clock: the journal is rewritten at least once
// a minute while an agent runs, and once more when the loop stops.
func TestLoop(t *testing.T) {
	r := newRig(t, kitty.Version{})
	r.kitty.set(lsOf(win{id: 1, title: idle, pid: 2001, argv: []string{"/usr/bin/claude"}, cwd: "/a"}), nil)
	ctx, cancel := context.WithCancel(t.Context())
	passes := make(chan scanner.Pass, 100)
	done := make(chan error)
	go func() {
		done <- r.sc.Loop(ctx, scanner.LoopOptions{Interval: 2 * time.Second, AfterPass: func(p scanner.Pass) { passes <- p }})
	}()
	next := func() scanner.Pass {
		select {
		case p := <-passes:
			return p
		case <-time.After(10 * time.Second):
			t.Fatal("no pass")
		}
		return scanner.Pass{}
	}
	tick := func() {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		if !r.clock.WaitArmed(ctx, 1) { // the loop waits on the clock
			t.Fatal("the loop does not wait on its clock")
		}
		r.clock.Advance(2 * time.Second)
	}
	if p := next(); !p.Written {
		t.Fatalf("first pass did not write: %+v", p)
	}
	var written []time.Duration
	for range 70 { // 140 s with nothing changing
		tick()
		if p := next(); p.Written {
			written = append(written, p.At.Sub(t0))
		}
	}
	if diff := cmp.Diff([]time.Duration{60 * time.Second, 120 * time.Second}, written); diff != "" {
		t.Errorf("heartbeat writes (-want +got):\n%s", diff)
	}
	r.clock.WaitArmed(t.Context(), 1)
	r.clock.Advance(5 * time.Second) // not a tick's worth of waiting: the loop is cancelled mid-wait
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if p := next(); !p.Written {
		t.Errorf("stop did not write the journal: %+v", p)
	}
	recs := r.records(t)
	if got := recs[1]; !got.Open || !got.LastSeen.Equal(r.clock.Now()) {
		t.Errorf("after stop: open %v, last seen %v, want %v", got.Open, got.LastSeen, r.clock.Now())
	}
}

// TestRestartTakesOver: a new scanner continues the open records of the
// last one, and closes those of kitties that went away meanwhile.
func TestRestartTakesOver(t *testing.T) {
	r := newRig(t, kitty.Version{})
	w := win{id: 1, title: idle, pid: 2001, argv: []string{"/usr/bin/claude", "--resume", uuidArgv}, cwd: "/a"}
	r.kitty.set(lsOf(w), nil)
	r.poll(t)
	_, err := r.journal.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: "unix:/tmp/gone|9|1|5", Agent: "codex", Open: true, KittySocket: "unix:/tmp/gone", KittyPID: 9,
			WindowID: 9, LastSeen: t0, FirstSeen: t0, State: agents.StateIdle})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	set, _ := agents.Load("")
	r.clock.Advance(time.Minute)
	again := scanner.New(scanner.Options{Set: set, Journal: r.journal, Clock: r.clock, Logf: t.Logf,
		Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{r.inst}, nil },
		Client:   func(kitty.Instance) scanner.KittyClient { return r.kitty }})
	if _, err := again.Poll(t.Context()); err != nil {
		t.Fatal(err)
	}
	recs := r.records(t)
	// The gone kitty's record keeps its last sighting: this scanner never
	// saw it run.
	want := map[int]string{1: "open=true  first=0s last=1m0s", 9: "open=false kitty-gone first=0s last=0s"}
	got := map[int]string{}
	for id, rec := range recs {
		got[id] = fmt.Sprintf("open=%v %s first=%v last=%v", rec.Open, rec.CloseReason, rec.FirstSeen.Sub(t0), rec.LastSeen.Sub(t0))
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestReadIDs: `sessions list` and `save` take the id claude's record gives
// over an earlier save's user var.
func TestReadIDs(t *testing.T) {
	r := newRig(t, kitty.Version{})
	r.claudeProcess(t, 2002, uuidClear, "idle")
	set, _ := agents.Load("")
	ls := lsOf(
		win{id: 2, pid: 2002, argv: []string{"/usr/bin/claude"}, cwd: "/b",
			vars: map[string]string{"kittymux_agent": "claude", "kittymux_session": uuidRec, "kittymux_pid": "2002"}},
		win{id: 3, pid: 2003, argv: []string{"/usr/bin/claude"}, cwd: "/b"})
	ws := live.Records{}.AgentWindows(set, ls)
	live.Records{ProcRoot: r.proc}.ReadIDs(ws)
	got := map[int][2]string{}
	for _, w := range ws {
		got[w.Ref.Window.ID] = [2]string{w.KnownID, w.KnownIDFrom}
	}
	want := map[int][2]string{2: {uuidClear, "claude sessions/2002.json"}, 3: {"", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestPollForeground: an agent whose title says nothing (codex) is working
// while a tool it runs is in the window's foreground, and idle once it has
// been alone there for the settle time; a run is counted.
func TestPollForeground(t *testing.T) {
	r := newRig(t, kitty.Version{Major: 0, Minor: 26, Patch: 5})
	w := win{id: 1, title: "codex", pid: 3001, argv: []string{"/usr/bin/codex", "--model", "o3"}, cwd: "/a"}
	type step struct {
		advance time.Duration
		tool    []string
		want    string
	}
	steps := []step{
		{want: agents.StateUnknown}, // never seen running a tool: no word
		{advance: 2 * time.Second, tool: []string{"/bin/bash", "-c", "go test ./..."}, want: agents.StateWorking},
		{advance: 20 * time.Second, tool: []string{"git", "diff"}, want: agents.StateWorking},
		{advance: 2 * time.Second, want: agents.StateWorking}, // alone, still settling
		{advance: 8 * time.Second, want: agents.StateIdle},
	}
	var got []string
	for _, st := range steps {
		r.clock.Advance(st.advance)
		w.tool = st.tool
		r.kitty.set(lsOf(w), nil)
		r.poll(t)
		got = append(got, r.records(t)[1].State)
	}
	var want []string
	for _, st := range steps {
		want = append(want, st.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	rec := r.records(t)[1]
	if rec.RunsFinished != 1 || rec.Working() != 30*time.Second || rec.StateFrom != "foreground process" {
		t.Errorf("runs %d, working %v, from %q; want 1, 30s, foreground process", rec.RunsFinished, rec.Working(), rec.StateFrom)
	}
}
