// Package hookrun is what `kittymux hook AGENT EVENT` does when an agent's
// hook runs it: it reads the event's JSON, finds the kitty window it runs
// in, records the conversation id and the state in the journal, and marks
// the window's user vars.
//
// It runs inside the agent's turn (claude waits for a UserPromptSubmit hook
// before it sends the prompt), so it is lean: no agent definitions loaded
// (only the agents' code: their hook events), no probes, no kitty discovery, every wait bounded, and it never fails the
// agent (Main always exits 0; what went wrong goes to hook.log).
package hookrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// Bounds of one hook run.
const (
	// RunWait bounds the whole run, the read of the event included: an
	// agent that never closes the hook's stdin, or writes it slowly, waits
	// no longer.
	RunWait = 2 * time.Second
	// JournalWait bounds the wait for the journal's lock: several hooks
	// and a scanner may write at once, each for a few milliseconds. An
	// event that could not wait is queued for the next writer (see
	// journal.AddHook), not lost.
	JournalWait = 100 * time.Millisecond
	// KittyWait bounds the set-user-vars request.
	KittyWait = 200 * time.Millisecond
	// MaxInput is the most of stdin read: a Stop event carries the last
	// message, which can be long, and only the first fields matter.
	MaxInput = 4 << 20
)

// Errors.
var (
	ErrNoWindow   = errors.New("not in a kitty window (no KITTY_WINDOW_ID)")
	ErrBadAgent   = errors.New("agent name is not a plain word")
	ErrBadID      = errors.New("session id is not a plain token")
	ErrUnknownEvt = errors.New("event is not one kittymux records")
)

// Payload is the part of an event's JSON the hook reads. claude, codex,
// qodercli and droid send these names; gemini too (its createBaseInput).
type Payload struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	// Source of a SessionStart: startup, resume, clear, compact.
	Source string `json:"source"`
	// Argv is the agent process's own argv, sent by an integration that
	// runs inside an agent which rewrites its command line (pi sets its
	// process title): kept by pid and start (procid.WriteArgv) so the
	// scanner and a save read the flags the process started with.
	Argv []string `json:"argv"`
}

// Proc is one process above the hook.
type Proc struct {
	PID  int
	Comm string
}

// maxDepth bounds the walk up: agent, a shell or two, kitty.
const maxDepth = 12

// Ancestors are the hook's parents, nearest first, up to and not including
// stop (each OS reads a process's parent its own way: parentOf).
func Ancestors(stop int) []Proc {
	var out []Proc
	pid := os.Getppid()
	for range maxDepth {
		if pid <= 1 || pid == stop {
			break
		}
		comm, ppid, ok := parentOf(pid)
		if !ok {
			break
		}
		out = append(out, Proc{PID: pid, Comm: comm})
		pid = ppid
	}
	return out
}

// Options is what Run touches outside itself; Main fills it from the
// process.
type Options struct {
	Paths  paths.Paths
	Getenv func(string) string
	Clock  clock.Clock // nil: the system's
	// Ancestors returns the hook's parent and its parents, nearest first,
	// up to and not including stop (kitty), at most a few levels.
	Ancestors func(stop int) []Proc
	// SetUserVars marks the window; nil sends set-user-vars to kitty.
	SetUserVars func(ctx context.Context, addr kitty.Address, match string, vars []string) error
	// JournalOff: KITTYMUX_JOURNAL=0 or journal-off.
	JournalOff bool
	// JournalWait overrides the bound of the wait for the journal's lock.
	JournalWait time.Duration
	// Cmdline reads a process's argv; nil reads the OS's.
	Cmdline func(pid int) []string
	// IsAgent reports whether a process name is an agent CLI's; nil: one
	// of the shipped agents' programs.
	IsAgent func(comm string) bool
	// MoveLease moves the lease held by one of pids (the hook's parents)
	// to conversation id, as lease.Move does: the agent now runs another
	// conversation. nil: no lease is moved.
	MoveLease func(stateDir string, pids []int, agent, id string) error
	// On a host reached over ssh (OnHost): Start reads when a process
	// started (nil: procid.Start), Hostname names the host (nil:
	// os.Hostname), OpenTTY opens the agent's terminal (nil: /dev/tty).
	Start    func(pid int) string
	Hostname func() (string, error)
	OpenTTY  func() (io.WriteCloser, error)
}

func (o Options) now() time.Time { return clock.Or(o.Clock).Now() }

func joinErrs(errs []error) error { return errors.Join(errs...) }

// Result is what one run did, for tests and the log.
type Result struct {
	Agent    string
	Event    string
	ID       string
	State    string
	Key      string
	AgentPID int
	// Queued: the journal was busy; the event waits in its spool.
	Queued bool
	// Nested: the event came from an agent run inside the window's own
	// agent; it was recorded as its own session and moved nothing of the
	// window's.
	Nested bool
}

// Known reports whether kittymux records event: one that an agent's hooks
// send (agents.Hooks; claude, codex, qodercli and droid use claude's
// names, gemini has BeforeAgent and AfterAgent).
func Known(event string) bool { return agents.HookState("", event) != "" }

// Compiled on first use, which only the hook makes: every other command
// would pay for them at start-up.
var (
	wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`) })
	// An id is used as a resume argument and a user var: a plain token,
	// never an option.
	idRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`) })
)

// Run records one event. in is the event's JSON, read only until ctx
// ends.
func Run(ctx context.Context, o Options, agent, event string, in io.Reader) (Result, error) {
	res := Result{Agent: agent, Event: event}
	p, err := readPayload(ctx, &res, in)
	if err != nil {
		return res, err
	}
	if OnHost(o.Getenv) {
		return runHost(ctx, o, &res, p)
	}
	win, err := window(o.Getenv)
	if err != nil {
		return res, err
	}
	procs := o.Ancestors(win.kittyPID)
	pids := make([]int, len(procs))
	for i, pr := range procs {
		pids[i] = pr.PID
	}
	chain, err := findAgent(o, &res, procs, win)
	if err != nil {
		return res, err
	}
	var errs []error
	// The argv before the journal: a reader that sees the id the event
	// brings sees the flags too.
	if err := keepArgv(o, &res, event, procs, p.Argv); err != nil {
		errs = append(errs, err)
	}
	// Then the journal: it says whether the event came from a run nested
	// in the window's agent, which must not move the window's id, its user
	// vars or its lease.
	if err := record(ctx, o, &res, win, pids, chain, p.Cwd); err != nil {
		errs = append(errs, err)
	}
	if res.Nested {
		return res, errors.Join(errs...)
	}
	if err := markWindow(ctx, o, res, win); err != nil {
		errs = append(errs, err)
	}
	if event == "SessionStart" && res.ID != "" && o.MoveLease != nil {
		if err := o.MoveLease(o.Paths.StateDir, pids, agent, res.ID); err != nil {
			errs = append(errs, err)
		}
	}
	return res, errors.Join(errs...)
}

// readPayload reads and checks the event's JSON, and sets res's id and
// the state the event reports.
func readPayload(ctx context.Context, res *Result, in io.Reader) (Payload, error) {
	var p Payload
	if !wordRE().MatchString(res.Agent) {
		return p, fmt.Errorf("%q: %w", res.Agent, ErrBadAgent)
	}
	state := agents.HookState(res.Agent, res.Event)
	if state == "" {
		return p, fmt.Errorf("%q: %w", res.Event, ErrUnknownEvt)
	}
	data, err := readEvent(ctx, in)
	if err != nil {
		return p, fmt.Errorf("read event: %w", err)
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("decode event: %w", err)
	}
	if p.SessionID != "" && !idRE().MatchString(p.SessionID) {
		return p, fmt.Errorf("%q: %w", p.SessionID, ErrBadID)
	}
	res.ID = p.SessionID
	switch {
	case state == agents.HookWorking:
		res.State = agents.StateWorking
	case state == agents.HookIdle:
		res.State = agents.StateIdle
	case p.Source != "compact":
		// A new or resumed session waits at its prompt. After compaction
		// (which can happen mid-turn) the state is what it was.
		res.State = agents.StateIdle
	}
	return p, nil
}

// findAgent sets res.AgentPID to the agent process that ran the hook among
// its ancestors procs, and returns that agent's own processes (ownChain).
// A hook run by an agent's shared server names no window: an error.
func findAgent(o Options, res *Result, procs []Proc, win where) ([]int, error) {
	cmdline := o.Cmdline
	if cmdline == nil {
		cmdline = cmdlineOf
	}
	if pid := sharedServer(procs, cmdline); pid > 0 {
		return nil, fmt.Errorf("pid %d: %w", pid, ErrSharedServer)
	}
	res.AgentPID = agentPID(procs, win.kittyPID > 0)
	isAgent := o.IsAgent
	if isAgent == nil {
		isAgent = shippedPrograms
	}
	chain, nested := ownChain(procs, res.Agent, isAgent)
	if len(chain) > 0 && win.kittyPID > 0 {
		// The agent that ran the hook, at its outer end: the window's
		// agent process unless the run is nested, whatever launched it
		// (npx's node is no agent).
		res.AgentPID = chain[len(chain)-1]
	}
	res.Nested = nested
	return chain, nil
}

// keepArgv keeps the argv the agent's integration reported for its process
// (Payload.Argv), on a session start of the window's own agent, whose
// process among the hook's parents (procs) bears the agent's name (pi's
// title), where the journal is on (the report is kept beside it). Only
// Linux's readers of processes take it (elsewhere a process is read from
// kitty's ls alone), so only there is it kept.
func keepArgv(o Options, res *Result, event string, procs []Proc, argv []string) error {
	if len(argv) == 0 || event != "SessionStart" || res.Nested || res.AgentPID <= 0 || o.JournalOff || runtime.GOOS != "linux" {
		return nil
	}
	if !slices.ContainsFunc(procs, func(p Proc) bool { return p.PID == res.AgentPID && p.Comm == res.Agent }) {
		return nil
	}
	start := o.Start
	if start == nil {
		start = procid.Start
	}
	return procid.WriteArgv(o.Paths.StateDir, procid.ID{PID: res.AgentPID, Start: start(res.AgentPID)},
		withoutSecrets(argv, agents.ShippedSecretFlags(res.Agent)))
}

// withoutSecrets is argv without the flags whose value is a secret and
// their values (`-k KEY`, `--api-key=KEY`, `-kKEY`): a key is never kept,
// and a save would drop it all the same.
func withoutSecrets(argv, secret []string) []string {
	if len(secret) == 0 || len(argv) == 0 {
		return argv
	}
	joined := func(a string) bool {
		return slices.ContainsFunc(secret, func(f string) bool {
			short := len(f) == 2 && f[0] == '-' && f[1] != '-'
			return strings.HasPrefix(a, f+"=") || short && strings.HasPrefix(a, f)
		})
	}
	out := []string{argv[0]}
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case slices.Contains(secret, a):
			i++ // and its value
		case joined(a):
		default:
			out = append(out, a)
		}
	}
	return out
}

// record writes the event into the journal, and sets res's key, whether it
// was queued, and whether the journal found it nested in the window's
// agent.
func record(ctx context.Context, o Options, res *Result, win where, pids, chain []int, dir string) error {
	if o.JournalOff {
		return nil
	}
	j := journal.New(o.Paths.Journal(), false)
	j.Clock = o.Clock
	wait := o.JournalWait
	if wait == 0 {
		wait = JournalWait
	}
	h := journal.HookRun{Agent: res.Agent, Socket: win.socket, KittyPID: win.kittyPID, WindowID: win.windowID,
		AgentPID: res.AgentPID, PIDs: pids, Chain: chain, Nested: res.Nested,
		Event: journal.HookEvent{ID: res.ID, State: res.State, Dir: dir, At: clock.Or(o.Clock).Now()}}
	out, err := j.AddHookRun(ctx, wait, h)
	res.Key, res.Queued, res.Nested = out.Key, out.Queued, out.Nested
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// markWindow sets the window's user vars to the agent, its id and its
// process, where kitty can be reached and takes them.
func markWindow(ctx context.Context, o Options, res Result, win where) error {
	if !win.hasAddr || res.ID == "" || res.AgentPID <= 0 || !canSetUserVars(o.Getenv) {
		return nil
	}
	kctx, cancel := context.WithTimeout(ctx, KittyWait)
	defer cancel()
	set := o.SetUserVars
	if set == nil {
		set = func(ctx context.Context, a kitty.Address, match string, vars []string) error {
			return kitty.NewClient(a).SetUserVars(ctx, match, vars)
		}
	}
	err := set(kctx, win.addr, "id:"+strconv.Itoa(win.windowID), []string{
		uservars.Agent + "=" + res.Agent, uservars.Session + "=" + res.ID, uservars.PID + "=" + strconv.Itoa(res.AgentPID)})
	if err != nil {
		return fmt.Errorf("set user vars (kitty ≥ 0.30): %w", err)
	}
	return nil
}

type where struct {
	socket   string
	addr     kitty.Address
	hasAddr  bool
	kittyPID int
	windowID int
}

// window is the kitty window the hook runs in, from the environment kitty
// gives every process of a window.
func window(getenv func(string) string) (where, error) {
	var w where
	id, err := strconv.Atoi(getenv("KITTY_WINDOW_ID"))
	if err != nil || id <= 0 {
		return w, ErrNoWindow
	}
	w.windowID = id
	w.kittyPID, _ = strconv.Atoi(getenv("KITTY_PID"))
	if on := getenv("KITTY_LISTEN_ON"); on != "" {
		if a, err := kitty.ParseAddress(on); err == nil {
			w.addr, w.hasAddr, w.socket = a, true, a.String()
		}
	}
	return w, nil
}

// shells are the programs a hook's command may run under, between the
// agent and the hook, or between kitty and the agent: not the agent.
var shells = []string{"sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "oksh", "yash", "tcsh", "csh", "nu", "xonsh", "elvish", "pwsh", "busybox"}

// agentPID picks the agent among the hook's ancestors: the outermost one
// below kitty that is not a shell (the scanner keys a session by the
// window's outermost agent process: node, not codex's native child). Not
// knowing kitty, the nearest non-shell is all that can be said.
func agentPID(procs []Proc, belowKitty bool) int {
	pick := 0
	for _, p := range procs {
		if slices.Contains(shells, strings.TrimPrefix(p.Comm, "-")) {
			continue
		}
		if !belowKitty {
			return p.PID
		}
		pick = p.PID
	}
	if pick == 0 && len(procs) > 0 {
		pick = procs[0].PID
	}
	return pick
}

// readEvent reads the event's JSON, at most MaxInput, until ctx ends. A
// reader the kernel does not interrupt (a pipe whose writer is slow, or
// never closes it) is left behind: the process ends soon after.
func readEvent(ctx context.Context, in io.Reader) ([]byte, error) {
	type read struct {
		data []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(in, MaxInput))
		got <- read{data, err}
	}()
	select {
	case r := <-got:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
