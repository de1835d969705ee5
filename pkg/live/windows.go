package live

import (
	"time"

	"fmt"
	"slices"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// AgentWindow is an agent window: a live kitty window running a recognised
// agent (AgentWindows: kitty's window, the agent in it as the rules see it,
// and its processes), or one the rules decide on that a save or the journal
// describes (no Ref, no processes).
type AgentWindow struct {
	// ID is the kitty window id.
	ID  int
	Cwd string
	Cmd recognize.Command
	// KnownID is the conversation id reported for the window's agent
	// process (its own records, its hook, kittymux's journal; never a user
	// var alone). It wins over an id in argv:
	// the agent reports the id it is in now, which changes after /clear or
	// /resume, while argv keeps the one it started with.
	KnownID string
	// KnownIDFrom names the source of KnownID for reasons ("journal").
	KnownIDFrom string
	// Seen are the files the window's agent process ran (its executable
	// and, for an interpreter, the agent's script), symlinks resolved, as
	// read from the OS: what a sealed record may name as its program.
	Seen []string
	// Unverified says why Cmd rests on kitty's word rather than on the
	// process read from the OS (no /proc, a process that could not be
	// read); a record made from it is not sealed and asks first.
	Unverified string
	// ProcEnv is the agent process's environment as read from the OS: an
	// environment a restore record set is kept only where the process
	// holds it.
	ProcEnv []string
	// Since is when the window's agent process started, zero when not
	// known: the conversations written since are the ones it could hold.
	Since time.Time
	// LastSeen is when that process was last seen running (when it was read),
	// zero with Since.
	LastSeen time.Time
	// Origin names kittymux's journal record of the window's agent process
	// (journal.Record.Origin), "" when it has none: a restore record that
	// does not name the conversation carries it, for the prompt to find the
	// id the agent reported for that process after the save.
	Origin string

	// Ref is kitty's window, with its tab and OS window.
	Ref kitty.WindowRef
	// PID is the pid of the window's outermost process running the agent.
	PID int
	// PIDs are all its foreground processes running the agent, outermost
	// first: a node launcher and its native child (codex, copilot) are one
	// agent, and the child may be the one holding the conversation's file.
	PIDs []int
	// Start is when process PID started (recognize.Proc.Start): with PID, the
	// identity by which the journal's record of it is found. "" when the
	// process was not read from the OS.
	Start string
}

// WithSince is w with when its agent process started, where that process
// was read from the OS: the conversations written since are the ones it
// could hold.
func (w AgentWindow) WithSince() AgentWindow {
	if w.Unverified == "" && w.PID > 0 {
		if w.Since = procid.Started(w.PID); !w.Since.IsZero() {
			w.LastSeen = time.Now()
		}
	}
	return w
}

// ProcReader reads a process from the OS; ok is false when it cannot.
type ProcReader func(pid int) (recognize.Proc, bool)

// ReadProc reads a process from /proc (Linux); elsewhere it reads nothing.
func ReadProc(pid int) (recognize.Proc, bool) { return readProc("/proc", pid) }

// ReadProc reads a process as live.ReadProc does, and, for an interpreter
// that shows only its title, the argv its agent's integration reported in
// r.StateDir (reported).
func (r Records) ReadProc(pid int) (recognize.Proc, bool) {
	p, ok := readProc("/proc", pid)
	if ok {
		p.Reported = r.reported(p)
	}
	return p, ok
}

// AgentWindows recognises the agent in each window of ls from the processes
// the OS shows (r.ReadProc).
func (r Records) AgentWindows(set *agents.Set, ls []kitty.OSWindow) []AgentWindow {
	return AgentWindowsFrom(set, ls, r.ReadProc)
}

// candidate is one foreground process running an agent.
type candidate struct {
	pos  int // in kitty's list
	pid  int
	cmd  recognize.Command
	seen []string
	proc recognize.Proc
	read bool // proc was read from the OS
	// titled: the process shows its name alone (it set its process
	// title): its flags are not visible (agents.RecognizeTitled).
	titled bool
}

// maxDepth bounds a walk up the process tree.
const maxDepth = 64

// AgentWindowsFrom recognises the agent in each window of ls, reading its
// processes with read. Only what kittymux sees run counts:
//
//   - The window's one candidate is its outermost agent process below its
//     shell: an agent process whose parent chain holds another agent
//     process of the window is that agent's child (codex's native binary, a
//     tool it runs) and never replaces it, whatever its argv shows.
//   - The program is the file the process executes and the flags are its
//     argv (recognize.Process); a process whose argv names an agent
//     that its executable is not is no agent.
//   - Environment comes only from the process: of the assignments kitty's
//     report of the typed line shows (`FOO=1 claude`, last_reported_cmdline),
//     those the process's own environment holds with the same value. The
//     report's program and flags are never used.
//   - Where the process cannot be read (no /proc: macOS), kitty's ls is all
//     there is: the window is Unverified, and a record made from it is not
//     sealed, so the restore asks first, showing the whole command.
//
// User vars (kittymux_session) are not read here: they are hints that only
// kittymux's journal can confirm (JournalIDs).
func AgentWindowsFrom(set *agents.Set, ls []kitty.OSWindow, read ProcReader) []AgentWindow {
	read = readOnce(read)
	var out []AgentWindow
	for _, ref := range kitty.Windows(ls) {
		if a, ok := agentWindow(set, ref, read); ok {
			out = append(out, a)
		}
	}
	return out
}

// readOnce reads each process once per call: parents are shared by
// windows.
func readOnce(read ProcReader) ProcReader {
	type readResult struct {
		p  recognize.Proc
		ok bool
	}
	seen := map[int]readResult{}
	return func(pid int) (recognize.Proc, bool) {
		r, ok := seen[pid]
		if !ok {
			r.p, r.ok = read(pid)
			seen[pid] = r
		}
		return r.p, r.ok
	}
}

// agentWindow is the agent window ref is, if one of its foreground
// processes runs an agent.
func agentWindow(set *agents.Set, ref kitty.WindowRef, read ProcReader) (AgentWindow, bool) {
	w := ref.Window
	cands := candidates(set, w, read)
	best, unverified, ok := outermost(cands, w.PID, read)
	if !ok {
		return AgentWindow{}, false
	}
	if best.titled && unverified == "" {
		unverified = fmt.Sprintf("process %d shows only its name (it set its process title), not its flags, and its integration did not report them (kittymux integration install %s)", best.pid, best.cmd.Agent)
	}
	cmd := withTypedEnv(set, best, w, read)
	pids := agentPIDs(cands, best, read)
	a := AgentWindow{ID: w.ID, Cwd: agentCwd(w, best), Cmd: cmd, Unverified: unverified, Ref: ref, PIDs: pids}
	if unverified == "" {
		a.Seen, a.ProcEnv = best.seen, best.proc.Env
	}
	if len(pids) > 0 {
		a.PID = pids[0]
	}
	if best.read && best.pid == a.PID {
		a.Start = best.proc.Start
	}
	return a, true
}

// candidates are the window's foreground processes that run an agent.
func candidates(set *agents.Set, w *kitty.Window, read ProcReader) []candidate {
	var cands []candidate
	for i, p := range w.ForegroundProcesses {
		// A process whose argv is not what kitty just listed for that
		// pid is another one (a pid reused, a title changed meanwhile):
		// kitty's word alone stands for it.
		if proc, ok := read(p.PID); ok && (p.Cmdline == nil || sameArgv(proc.Argv, p.Cmdline)) {
			if c, seen, ok := recognize.Process(set, proc); ok {
				cands = append(cands, candidate{pos: i, pid: p.PID, cmd: c, seen: seen, proc: proc, read: true})
			} else if c, seen, ok := recognize.Titled(set, proc); ok {
				if rc, rseen, rproc, ok := reported(set, proc, c.Agent); ok {
					cands = append(cands, candidate{pos: i, pid: p.PID, cmd: rc, seen: rseen, proc: rproc, read: true})
				} else {
					cands = append(cands, candidate{pos: i, pid: p.PID, cmd: c, seen: seen, proc: proc, read: true, titled: true})
				}
			}
			continue
		}
		if c, ok := recognize.Argv(set, p.Cmdline); ok {
			cands = append(cands, candidate{pos: i, pid: p.PID, cmd: c})
		}
	}
	return cands
}

// reported recognises a process that shows only its title (of agent) by
// the argv its integration reported from inside it (proc.Reported, for
// this pid and start): as any process is, the program checked against the
// file it executes. The process with that argv is returned for the rest
// (its environment and parent are the OS's).
func reported(set *agents.Set, proc recognize.Proc, agent string) (recognize.Command, []string, recognize.Proc, bool) {
	if len(proc.Reported) == 0 {
		return recognize.Command{}, nil, proc, false
	}
	rp := proc
	rp.Argv, rp.Reported = proc.Reported, nil
	c, seen, ok := recognize.Process(set, rp)
	if !ok || c.Agent != agent {
		return recognize.Command{}, nil, proc, false
	}
	return c, seen, rp, true
}

// withTypedEnv is best's command with the environment of the line the
// user typed (kitty's report, w.LastReportedCmdline) that may stand. Read
// from the OS: what the process holds and its parent, the shell that
// started it, does not (recognize.TypedEnv); a process kitty started itself
// had nothing typed. Not read: what needs no seal. Never a name of the
// window's own (agents.EnvNeverKept). A process that shows only its
// name takes the report's flags too, naming the same agent: its record is
// not sealed, and the restore shows the whole command and asks.
func withTypedEnv(set *agents.Set, best candidate, w *kitty.Window, read ProcReader) recognize.Command {
	cmd := best.cmd
	if w.LastReportedCmdline == "" {
		return cmd
	}
	typed, ok := recognize.String(set, w.LastReportedCmdline)
	if !ok || typed.Agent != cmd.Agent {
		return cmd
	}
	if best.titled {
		typed.Program = cmd.Program
		cmd = typed
	}
	var env []string
	switch {
	case best.read && best.pid != w.PID:
		if parent, ok := read(best.proc.PPID); ok {
			env = recognize.TypedEnv(typed.Env, best.proc, parent)
		}
	case !best.read:
		// Unverified: the record asks anyway; what only a seal may set is
		// left out.
		env = slices.DeleteFunc(slices.Clone(typed.Env), func(kv string) bool { return agents.EnvNeedsSeal(kv, set.ConfigEnv()) != "" })
	}
	cmd.Env = slices.DeleteFunc(env, func(kv string) bool { return agents.EnvNeverKept(kv) != "" })
	return cmd
}

// agentCwd is the agent's directory: as kitty lists it for the process,
// else as the OS shows it, else the window's.
func agentCwd(w *kitty.Window, best candidate) string {
	if cwd := w.ForegroundProcesses[best.pos].Cwd; cwd != "" {
		return cwd
	}
	if best.proc.Cwd != "" {
		return best.proc.Cwd
	}
	return w.Cwd
}

// agentPIDs are the window's processes of best's agent, best first.
func agentPIDs(cands []candidate, best candidate, read ProcReader) []int {
	var pids []int
	if best.pid > 0 {
		pids = append(pids, best.pid)
	}
	for _, c := range cands {
		// Read from the OS, only the chosen process's own children
		// count (codex's native binary); kitty's ls alone cannot tell.
		if c.pid > 0 && c.pid != best.pid && c.cmd.Agent == best.cmd.Agent && (!c.read || !best.read || descends(c, best.pid, read)) {
			pids = append(pids, c.pid)
		}
	}
	return pids
}

// outermost picks the window's candidate: of those no other candidate is
// an ancestor of, the one nearest the window's shell (shell is the
// window's own process), then a process group leader (the job the shell
// started), then the first kitty lists. unverified says why the choice
// cannot be trusted: a process could not be read, or two different agent
// commands sit equally near the shell (then neither is sealed: the restore
// shows the command and asks).
func outermost(cands []candidate, shell int, read ProcReader) (candidate, string, bool) {
	if len(cands) == 0 {
		return candidate{}, "", false
	}
	type ranked struct {
		c      candidate
		depth  int
		leader bool
	}
	var roots []ranked
	unverified := ""
	for _, c := range cands {
		if !c.read {
			if unverified == "" {
				unverified = fmt.Sprintf("process %d could not be read from the OS; kitty's ls is all there is", c.pid)
			}
			roots = append(roots, ranked{c: c, depth: maxDepth})
			continue
		}
		depth, inner := 0, false
		// The walk stops at the window's own process, after asking whether
		// it runs the agent itself (a window kitty started with the agent,
		// no shell: a restored one), whose child is then no root.
		for pid, n := c.proc.PPID, 0; pid > 1 && c.pid != shell && n < maxDepth; n++ {
			if slices.ContainsFunc(cands, func(o candidate) bool { return o.pid == pid }) {
				inner = true
				break
			}
			if pid == shell {
				break
			}
			depth++
			p, ok := read(pid)
			if !ok {
				break
			}
			pid = p.PPID
		}
		if !inner {
			roots = append(roots, ranked{c: c, depth: depth, leader: c.proc.PGID == c.pid})
		}
	}
	if len(roots) == 0 {
		// Every candidate is another's child: a loop read mid-change.
		return cands[0], "the window's agent processes changed while they were read", true
	}
	slices.SortStableFunc(roots, func(a, b ranked) int {
		switch {
		case a.depth != b.depth:
			return a.depth - b.depth
		case a.leader != b.leader:
			if a.leader {
				return -1
			}
			return 1
		}
		return a.c.pos - b.c.pos
	})
	best := roots[0]
	for _, r := range roots[1:] {
		if r.depth == best.depth && !sameCommand(r.c, best.c) && unverified == "" {
			unverified = fmt.Sprintf("processes %d and %d run different agent commands equally near the shell", best.c.pid, r.c.pid)
		}
	}
	return best.c, unverified, true
}

// sameArgv compares argv as /proc has it with kitty's list, which may
// leave out empty words.
func sameArgv(a, b []string) bool {
	empty := func(w string) bool { return w == "" }
	return slices.Equal(slices.DeleteFunc(slices.Clone(a), empty), slices.DeleteFunc(slices.Clone(b), empty))
}

func sameCommand(a, b candidate) bool {
	return a.cmd.Agent == b.cmd.Agent && slices.Equal(a.seen, b.seen) && slices.Equal(a.cmd.Flags, b.cmd.Flags)
}

// descends: c's parent chain reaches pid.
func descends(c candidate, pid int, read ProcReader) bool {
	for p, n := c.proc.PPID, 0; p > 1 && n < maxDepth; n++ {
		if p == pid {
			return true
		}
		pp, ok := read(p)
		if !ok {
			return false
		}
		p = pp.PPID
	}
	return false
}

// ReadIDs gives each window whose agent keeps a record of its running
// process (claude's sessions/<pid>.json, codex's rollout file held open) the id the agent says it is in now.
func (r Records) ReadIDs(ws []AgentWindow) {
	for i := range ws {
		if rec, ok := r.Read(ws[i].Cmd.Agent, ws[i].PIDs); ok {
			ws[i].KnownID, ws[i].KnownIDFrom = rec.ID, rec.IDFrom
		}
	}
}

// JournalIDs gives each window the id kittymux's journal holds for its
// agent process (recs, from OpenRecords: the same kitty, window, agent and
// process): a hook's report wins, as it follows the conversation as it
// changes; any other recorded id fills in where neither the agent's
// records nor its argv give one. A user var naming an id is never enough
// by itself (any program can set one), and an id the journal holds from a
// user var (an older kittymux wrote such) confirms nothing.
func JournalIDs(ws []AgentWindow, recs []*journal.Record) {
	for i := range ws {
		if i >= len(recs) || recs[i] == nil {
			continue
		}
		r, w := recs[i], &ws[i]
		if r.ID == "" || strings.HasPrefix(r.IDFrom, "kitty user var") {
			continue
		}
		switch {
		case r.IDFrom == journal.FromHook:
			w.KnownID, w.KnownIDFrom = r.ID, journal.FromHook
		case w.KnownID == "" && w.Cmd.ID == "":
			w.KnownID, w.KnownIDFrom = r.ID, "journal"
		}
	}
}
