// Package scanner watches kitty's windows for agent sessions and keeps
// kittymux's journal of them; which live windows run which agent it reads
// through package live.
package scanner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/logs"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// Defaults of Options.
const (
	DefaultRequestTimeout = 2 * time.Second
	DefaultHeartbeat      = time.Minute
	DefaultBackoffBase    = 2 * time.Second
	DefaultBackoffCap     = time.Minute
	// DefaultForegroundSettle is how long an agent must be alone in its
	// window's foreground, after a tool it ran there ended, before it counts
	// as idle: between two tools it is still thinking.
	DefaultForegroundSettle = 10 * time.Second
)

// KittyClient is what the scanner asks of one kitty.
type KittyClient interface {
	LS(ctx context.Context) ([]kitty.OSWindow, error)
	SetUserVars(ctx context.Context, match string, vars []string) error
}

// leanClient asks kitty for its windows without what the scanner does not
// read (windows' env and cmdline, layouts).
type leanClient struct{ *kitty.Client }

func (c leanClient) LS(ctx context.Context) ([]kitty.OSWindow, error) { return c.Client.LSLean(ctx) }

// Options configure a Scanner. Set and Discover are required.
type Options struct {
	Set *agents.Set
	// Journal records the sessions; nil records nothing.
	Journal *journal.Journal
	// Discover finds the running kitties (utility ones are left out).
	Discover func(context.Context) ([]kitty.Instance, error)
	// Client talks to one kitty; default kitty.NewClient.
	Client  func(kitty.Instance) KittyClient
	Records live.Records
	Clock   clock.Clock // nil: the system's
	Logf    logs.Logf
	// RequestTimeout bounds each request to a kitty, so a hung kitty costs
	// one timeout per backoff step, not a stuck scanner.
	RequestTimeout time.Duration
	// Heartbeat: an open session's record is rewritten at least this often.
	Heartbeat time.Duration
	// BackoffBase and BackoffCap bound the wait before a failing kitty is
	// asked again; Jitter returns [0,1) and spreads the waits.
	BackoffBase, BackoffCap time.Duration
	Jitter                  func() float64
	// Autosave is told what each poll saw; nil saves nothing.
	Autosave Autosave
	// ForegroundSettle: see DefaultForegroundSettle.
	ForegroundSettle time.Duration
	// RemoteJournal records the agents hosts reached over ssh report in
	// the windows (their ssh processes read with ReadProc, the OS); nil
	// records none.
	RemoteJournal *journal.Journal
	ReadProc      func(pid int) (recognize.Proc, bool)
}

// Scanner follows the agent sessions of every kitty of the user, one Poll
// at a time. Its methods must not be called concurrently, except Report.
type Scanner struct {
	o Options

	kitties  map[string]*kittyState // by kittyID
	sessions map[string]*session    // open sessions, by journal key
	closed   []journal.Record       // closed, not yet written
	scanned  bool                   // Rescan ran once
	loaded   bool                   // the journal's open records were taken over

	hooks   hookWatch
	dropped []string // keys of hook records folded into others
}

type kittyState struct {
	inst   kitty.Instance
	client KittyClient
	status KittyStatus
}

type session struct {
	rec   journal.Record
	kitty string // kittyID
	// accounted is up to when working time has been added to the record.
	accounted   time.Time
	lastWritten time.Time
	dirty       bool
	seen        bool // in this pass
	// unseen: taken over from the journal and not seen by this scanner
	// yet; closing it must not claim it ran until now.
	unseen bool
	// hookOnly: known from an agent's hook, not seen in kitty yet.
	hookOnly bool
	// toolSeen is when a process other than the agent was last seen in the
	// window's foreground (a command the agent runs as a tool).
	toolSeen time.Time
}

// KittyStatus is how the scanner's polls of one kitty go. Field names are
// stable: status and poll --json print them.
type KittyStatus struct {
	Socket   string    `json:"socket"`
	PID      int       `json:"pid,omitempty"`
	Version  string    `json:"version"`
	Source   string    `json:"source"`
	OK       bool      `json:"ok"`
	Error    string    `json:"error,omitempty"`
	Failures int       `json:"failures"`
	LastPoll time.Time `json:"last_poll"`
	LastOK   time.Time `json:"last_ok"`
	NextPoll time.Time `json:"next_poll"`
	Windows  int       `json:"windows"`
	Agents   int       `json:"agents"`
	// Autosave says how autosave of this kitty goes, or why it is off.
	Autosave string `json:"autosave,omitempty"`
}

// Pass is what one Poll saw.
type Pass struct {
	At      time.Time     `json:"at"`
	Kitties []KittyStatus `json:"kitties"`
	// Sessions are the open agent sessions, as recorded.
	Sessions []journal.Record `json:"sessions"`
	// Closed are sessions this pass found ended.
	Closed []journal.Record `json:"closed"`
	// Written: the journal was updated.
	Written      bool   `json:"journal_written"`
	JournalError string `json:"journal_error,omitempty"`
	// MovedAside is where a corrupt journal was moved this pass.
	MovedAside string `json:"journal_moved_aside,omitempty"`
}

// New returns a Scanner.
func New(o Options) *Scanner {
	if o.Client == nil {
		o.Client = func(in kitty.Instance) KittyClient { return leanClient{kitty.NewClient(in.Addr)} }
	}
	o.Clock = clock.Or(o.Clock)
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.BackoffBase <= 0 {
		o.BackoffBase = DefaultBackoffBase
	}
	if o.BackoffCap <= 0 {
		o.BackoffCap = DefaultBackoffCap
	}
	if o.ForegroundSettle <= 0 {
		o.ForegroundSettle = DefaultForegroundSettle
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
	o.Records = o.Records.Cached()
	return &Scanner{o: o, kitties: map[string]*kittyState{}, sessions: map[string]*session{}}
}

func kittyID(in kitty.Instance) string { return in.Addr.String() + "|" + strconv.Itoa(in.PID) }

// Rescan discovers the kitties again: new ones are polled at the next Poll,
// and the sessions of kitties that went away are closed as kitty-gone.
func (s *Scanner) Rescan(ctx context.Context) error {
	insts, err := s.o.Discover(ctx)
	if err != nil {
		return fmt.Errorf("discover kitties: %w", err)
	}
	s.scanned = true
	now := s.o.Clock.Now()
	live := map[string]bool{}
	for _, in := range insts {
		if in.Utility != "" {
			continue
		}
		id := kittyID(in)
		live[id] = true
		if _, ok := s.kitties[id]; ok {
			continue
		}
		s.kitties[id] = &kittyState{inst: in, client: s.o.Client(in), status: KittyStatus{
			Socket: in.Addr.String(), PID: in.PID, Version: in.Version.String(), Source: in.Source, NextPoll: now}}
	}
	for id := range s.kitties {
		if !live[id] {
			s.forget(id, now)
		}
	}
	s.loadJournal(live, now)
	return nil
}

// forget drops a kitty that went away and closes its sessions.
func (s *Scanner) forget(id string, now time.Time) {
	if k := s.kitties[id]; k != nil && s.o.Autosave != nil {
		s.o.Autosave.Gone(k.inst)
	}
	delete(s.kitties, id)
	for key, se := range s.sessions {
		if se.kitty == id {
			s.close(key, journal.ClosedKittyGone, "", now)
		}
	}
}

// loadJournal, on the first rescan, takes over the open records an earlier
// scanner left: those of live kitties are followed on (closed when their
// window is not there), those of kitties gone are closed as kitty-gone.
func (s *Scanner) loadJournal(live map[string]bool, now time.Time) {
	if s.loaded {
		return
	}
	s.loaded = true
	for _, j := range []*journal.Journal{s.o.Journal, s.o.RemoteJournal} {
		s.loadOpen(j, live, now)
	}
}

// loadOpen takes over the open records of j.
func (s *Scanner) loadOpen(j *journal.Journal, live map[string]bool, now time.Time) {
	if j == nil || j.Off {
		return
	}
	f, err := j.Read()
	if err != nil {
		s.o.Logf.Printf("journal: %v", err)
		return
	}
	for _, r := range f.Records {
		if !r.Open {
			continue
		}
		id := r.KittySocket + "|" + strconv.Itoa(r.KittyPID)
		se := &session{rec: r, kitty: id, accounted: now, lastWritten: r.LastSeen, unseen: true, hookOnly: r.HookAt != nil}
		s.sessions[r.Key] = se
		if !live[id] {
			s.close(r.Key, journal.ClosedKittyGone, "", now)
		}
	}
}

// close ends an open session.
func (s *Scanner) close(key, reason, detail string, now time.Time) {
	se, ok := s.sessions[key]
	if !ok {
		return
	}
	delete(s.sessions, key)
	s.o.Records.Forget(se.rec.PID)
	if !se.unseen {
		se.account(now)
	}
	r := se.rec
	r.Open = false
	t := now
	r.ClosedAt = &t
	r.CloseReason = reason
	r.CloseDetail = detail
	s.closed = append(s.closed, r)
}

func (se *session) account(now time.Time) {
	if se.rec.State == agents.StateWorking && now.After(se.accounted) {
		se.rec.WorkingSeconds += now.Sub(se.accounted).Seconds()
	}
	if now.After(se.accounted) {
		se.accounted = now
	}
	if now.After(se.rec.LastSeen) {
		se.rec.LastSeen = now
	}
}

func (se *session) setState(state, from string, now time.Time) {
	se.account(now)
	if state != se.rec.State {
		if se.rec.State == agents.StateWorking && (state == agents.StateIdle || state == agents.StateAttention) {
			se.rec.RunsFinished++
		}
		se.rec.State = state
		se.rec.StateSince = now
		se.dirty = true
	}
	se.rec.StateFrom = from
}

type lsResult struct {
	id  string
	ls  []kitty.OSWindow
	err error
}

// Poll does one pass: asks every kitty that is due for its windows,
// recognises the agents, reads their ids and states, and writes what
// changed to the journal. Kitties are asked at once, each with its own
// deadline. The first Poll discovers the kitties itself; after that the
// caller calls Rescan when sockets come or go.
func (s *Scanner) Poll(ctx context.Context) (Pass, error) {
	if !s.scanned {
		if err := s.Rescan(ctx); err != nil {
			return Pass{}, err
		}
	}
	now := s.o.Clock.Now()
	var due []*kittyState
	ids := make([]string, 0, len(s.kitties))
	for id := range s.kitties {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if k := s.kitties[id]; !now.Before(k.status.NextPoll) {
			due = append(due, k)
		}
	}
	results := make([]lsResult, len(due))
	var wg sync.WaitGroup
	for i, k := range due {
		wg.Go(func() {
			rctx, cancel := context.WithTimeout(ctx, s.o.RequestTimeout)
			defer cancel()
			ls, err := k.client.LS(rctx)
			results[i] = lsResult{id: kittyID(k.inst), ls: ls, err: err}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Pass{}, err
	}
	s.readHooks(now)
	for _, r := range results {
		k := s.kitties[r.id]
		k.status.LastPoll = now
		if r.err != nil {
			s.failed(k, r.err, now)
			continue
		}
		k.status.OK, k.status.Error, k.status.Failures = true, "", 0
		k.status.LastOK = now
		k.status.NextPoll = now
		s.scan(ctx, k, r.ls, now)
		if s.o.Autosave != nil {
			key, n := s.layout(r.id, r.ls)
			k.status.Autosave = s.o.Autosave.Polled(ctx, k.inst, key, n, now)
		}
	}
	return s.flush(now), nil
}

// failed handles a kitty that did not answer. No socket, or a refusing
// socket whose kitty process is gone, means the kitty went away: its
// sessions end as kitty-gone. Anything else (a hang, garbage) is retried
// after a backoff that doubles up to the cap, with jitter.
func (s *Scanner) failed(k *kittyState, err error, now time.Time) {
	id := kittyID(k.inst)
	gone := errors.Is(err, kitty.ErrNoSocket) ||
		errors.Is(err, kitty.ErrRefused) && k.inst.PID > 0 && !processAlive(k.inst.PID)
	if gone {
		s.o.Logf.Printf("kitty %s went away: %v", k.status.Socket, err)
		s.forget(id, now)
		return
	}
	k.status.OK, k.status.Error = false, err.Error()
	k.status.Failures++
	wait := s.o.BackoffBase
	for i := 1; i < k.status.Failures && wait < s.o.BackoffCap; i++ {
		wait *= 2
	}
	wait = min(wait, s.o.BackoffCap)
	// Jitter takes up to a fifth off, so kitties that failed together do
	// not retry together, and the cap stays a cap.
	wait -= time.Duration(float64(wait) * 0.2 * s.o.Jitter())
	k.status.NextPoll = now.Add(wait)
	s.o.Logf.Printf("kitty %s: %v (failure %d, next try in %v)", k.status.Socket, err, k.status.Failures, wait.Round(time.Millisecond))
}

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// scan diffs one kitty's windows against its open sessions.
func (s *Scanner) scan(ctx context.Context, k *kittyState, ls []kitty.OSWindow, now time.Time) {
	id := kittyID(k.inst)
	aws := s.o.Records.AgentWindows(s.o.Set, ls)
	windows := map[int]bool{}
	for _, ref := range kitty.Windows(ls) {
		windows[ref.Window.ID] = true
	}
	k.status.Windows, k.status.Agents = len(windows), len(aws)
	for _, se := range s.sessions {
		if se.kitty == id {
			se.seen = false
		}
	}
	for _, aw := range aws {
		key := journal.Key(k.status.Socket, k.inst.PID, aw.Ref.Window.ID, aw.PID)
		se, isNew := s.follow(k, key, aw.Cmd.Agent, aw.Ref.Window.ID, aw.PID, aw.Start, "the agent exited; its window stayed open", now)
		if isNew {
			s.foldHook(se, aw, now)
		}
		se.seen, se.unseen, se.hookOnly = true, false, false
		s.update(se, aw, now)
		s.markWindow(ctx, k, aw, se.rec)
	}
	s.scanRemote(k, ls, now)
	for key, se := range s.sessions {
		if se.kitty != id || se.seen || se.keepHookOnly(windows) {
			continue
		}
		detail := ""
		if windows[se.rec.WindowID] {
			detail = "the agent exited; its window stayed open"
		}
		s.close(key, journal.ClosedWindow, detail, now)
	}
}

// follow returns the session of the process pid (started at start) in
// window windowID of kitty k, under key, and whether it is new: one the
// scanner followed whose start differs was another process that got the
// pid in the same window, and is closed (ended says how) before a new one
// is made.
func (s *Scanner) follow(k *kittyState, key, agent string, windowID, pid int, start, ended string, now time.Time) (*session, bool) {
	se, ok := s.sessions[key]
	if ok && se.rec.Start != "" && start != "" && se.rec.Start != start {
		s.close(key, journal.ClosedWindow, ended, now)
		ok = false
	}
	if ok {
		return se, false
	}
	se = &session{kitty: kittyID(k.inst), accounted: now, dirty: true, rec: journal.Record{
		Key: key, Agent: agent, FirstSeen: now, LastSeen: now, State: agents.StateUnknown,
		StateSince: now, Open: true, KittyPID: k.inst.PID, KittySocket: k.status.Socket,
		WindowID: windowID, PID: pid, Start: start}}
	s.sessions[key] = se
	return se, true
}

// update brings a session's record up to date with its window.
func (s *Scanner) update(se *session, aw live.AgentWindow, now time.Time) {
	r := &se.rec
	w := aw.Ref.Window
	set := func(dst *string, v string) {
		if *dst != v {
			*dst, se.dirty = v, true
		}
	}
	set(&r.Dir, aw.Cwd)
	set(&r.TabTitle, tabName(aw.Ref.Tab))
	set(&r.Start, aw.Start)
	if argv := append(slices.Clone(aw.Cmd.Program), aw.Cmd.Flags...); !slices.Equal(argv, r.Argv) {
		r.Argv, se.dirty = argv, true
	}
	if !slices.Equal(aw.Seen, r.Exe) || !slices.Equal(aw.Cmd.Env, r.Env) {
		r.Exe, r.Env, se.dirty = slices.Clone(aw.Seen), slices.Clone(aw.Cmd.Env), true
	}

	if r.HookAt != nil {
		// The agent's hook reports the id and the state as they change.
		se.account(now)
		if now.Sub(se.lastWritten) >= s.o.Heartbeat {
			se.dirty = true
		}
		return
	}

	// The id: what the agent says now beats the command line it started
	// with (claude's /clear changes it), which beats an earlier save's mark.
	rec, hasRec := s.o.Records.Read(r.Agent, aw.PIDs)
	id, from := "", ""
	switch {
	case hasRec:
		id, from = rec.ID, rec.IDFrom
	case aw.Cmd.ID != "":
		id, from = aw.Cmd.ID, "command line "+aw.Cmd.IDFrom
	case aw.KnownID != "":
		id, from = aw.KnownID, aw.KnownIDFrom
	}
	if id != "" && id != r.ID {
		if r.ID != "" {
			r.PreviousIDs = append(r.PreviousIDs, r.ID)
		}
		r.ID, se.dirty = id, true
	}
	if id != "" {
		set(&r.IDFrom, from)
	}

	// The state: the agent's own word first, then kitty's.
	state, stateFrom := agents.StateUnknown, ""
	switch {
	case hasRec && rec.State != "":
		state, stateFrom = rec.State, rec.IDFrom
	case w.NeedsAttention:
		state, stateFrom = agents.StateAttention, "kitty needs_attention"
	default:
		if st := s.o.Set.TitleState(r.Agent, w.Title); st != "" {
			state, stateFrom = st, "title"
		} else if st := se.foreground(aw, now, s.o.ForegroundSettle); st != "" {
			state, stateFrom = st, "foreground process"
		}
	}
	se.setState(state, stateFrom, now)
	if now.Sub(se.lastWritten) >= s.o.Heartbeat {
		se.dirty = true
	}
}

// foreground reads the state from the window's foreground processes, for
// agents whose title says nothing: the agent runs its tools (a shell
// command, a test run, git) as children in its terminal's foreground
// process group, where kitty lists them beside the agent. One there means
// working; the agent alone again, for settle, means idle. An agent never
// seen running a tool gets no state from this ("").
func (se *session) foreground(aw live.AgentWindow, now time.Time, settle time.Duration) string {
	if len(aw.PIDs) == 0 {
		// The agent's own processes are unknown: every process would look
		// like a tool.
		return ""
	}
	for _, p := range aw.Ref.Window.ForegroundProcesses {
		if p.PID > 0 && !slices.Contains(aw.PIDs, p.PID) {
			se.toolSeen = now
			return agents.StateWorking
		}
	}
	switch {
	case se.toolSeen.IsZero():
		return ""
	case now.Sub(se.toolSeen) < settle:
		return agents.StateWorking
	}
	return agents.StateIdle
}

// markWindow sets the window's user vars to the session's id (kitty ≥ 0.30),
// so a raw save of this kitty carries it, when they say something else.
func (s *Scanner) markWindow(ctx context.Context, k *kittyState, aw live.AgentWindow, r journal.Record) {
	if r.ID == "" || aw.PID <= 0 || !k.inst.Version.Has("user_vars") {
		return
	}
	uv := aw.Ref.Window.UserVars
	pid := strconv.Itoa(aw.PID)
	if uv[uservars.Agent] == r.Agent && uv[uservars.Session] == r.ID && uv[uservars.PID] == pid {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, s.o.RequestTimeout)
	defer cancel()
	vars := []string{uservars.Agent + "=" + r.Agent, uservars.Session + "=" + r.ID, uservars.PID + "=" + pid}
	if err := k.client.SetUserVars(rctx, "id:"+strconv.Itoa(aw.Ref.Window.ID), vars); err != nil {
		s.o.Logf.Printf("kitty %s: mark window %d: %v", k.status.Socket, aw.Ref.Window.ID, err)
	}
}

// flush writes what changed and returns the pass.
func (s *Scanner) flush(now time.Time) Pass {
	p := Pass{At: now, Kitties: []KittyStatus{}, Sessions: []journal.Record{}, Closed: slices.Clone(s.closed)}
	if p.Closed == nil {
		p.Closed = []journal.Record{}
	}
	for _, k := range s.kitties {
		p.Kitties = append(p.Kitties, k.status)
	}
	sort.Slice(p.Kitties, func(i, j int) bool { return p.Kitties[i].Socket < p.Kitties[j].Socket })
	var dirty []*session
	for _, se := range s.sessions {
		p.Sessions = append(p.Sessions, se.rec)
		if se.dirty {
			dirty = append(dirty, se)
		}
	}
	sort.Slice(p.Sessions, func(i, j int) bool { return p.Sessions[i].Key < p.Sessions[j].Key })
	if len(dirty) == 0 && len(s.closed) == 0 && len(s.dropped) == 0 {
		return p
	}
	if err := s.flushRemote(dirty); err != nil {
		// Kept dirty: the next pass tries again.
		p.JournalError = "remote journal: " + err.Error()
		s.o.Logf.Printf("remote journal: %v", err)
		return p
	}
	if s.o.Journal == nil || s.o.Journal.Off {
		s.clean(dirty, now)
		return p
	}
	res, err := s.o.Journal.Update(func(f *journal.File) error {
		s.mergeHooks(f, now)
		for _, r := range s.closed {
			if r.Host != "" {
				continue // in the remote journal
			}
			// A hook may have written since the scanner last read the
			// journal (the kitty went away meanwhile): its id is kept.
			if cur := f.Find(r.Key); cur != nil {
				r.AdoptHook(*cur)
			}
			f.Upsert(r)
		}
		for _, se := range dirty {
			if se.rec.Host == "" {
				f.Upsert(se.rec)
			}
		}
		return nil
	})
	p.MovedAside = res.MovedAside
	if err != nil {
		// Kept dirty: the next pass tries again.
		p.JournalError = err.Error()
		s.o.Logf.Printf("journal: %v", err)
		return p
	}
	if res.MovedAside != "" {
		s.o.Logf.Printf("journal was corrupt: moved aside to %s, a new one started", res.MovedAside)
	}
	p.Written = true
	s.dropped = nil
	s.clean(dirty, now)
	return p
}

func (s *Scanner) clean(dirty []*session, now time.Time) {
	for _, se := range dirty {
		se.dirty = false
		se.lastWritten = now
	}
	s.closed = nil
}

// Stop writes every open session's record as it is now: the scanner's last
// word before it exits. Sessions stay open: the scanner stopping ends none.
func (s *Scanner) Stop() Pass {
	now := s.o.Clock.Now()
	for _, se := range s.sessions {
		se.account(now)
		se.dirty = true
	}
	return s.flush(now)
}
