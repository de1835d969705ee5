// Package rewrite turns kitty's raw save into the published session file:
// each agent window's command becomes the restore prompt with the agent's
// exact resume argv; everything else stays byte for byte.
package rewrite

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// Options is what the rewrite needs besides the raw file.
type Options struct {
	Agents *agents.Set
	// Check probes the agents the file holds (`sessions check`, cached) once
	// they are known; nil trusts the definitions.
	Check func(agentNames []string) probe.Probes
	// IDs are conversation ids known from elsewhere (the journal), by the
	// window id kitty-unserialize-data carries.
	IDs map[int]string
	// ResumeBin is the absolute path of kittymux-resume.
	ResumeBin string
	// Direct makes the restored windows resume without asking.
	Direct bool
	// Live are the agent windows of the kitty that saved, as `sessions save`
	// read them from ls (kitty window ids). They matter twice:
	//   - kitty saves a restored agent window's command as it launched it:
	//     the restore prompt, which has since exec'd the agent, or a new
	//     conversation, or nothing yet. For such a window the live command
	//     wins; without one the record's command is decided again.
	//   - a window the file leaves out (another OS window, without --all)
	//     still counts for the rules: "latest" is never chosen where another
	//     window could own the newest conversation.
	Live []live.AgentWindow
	// Key seals each record written (resumerecord.LoadOrCreateKey); nil writes
	// unsealed records, which the prompt runs only on a key press.
	Key []byte
	// Journal is kittymux's journal, for the windows no live process
	// stands for (the quit capture's publish, with kitty gone): the open
	// record of the agent process the scanner saw in that window of that
	// kitty (journalRecord) gives the command kittymux saw run, and the
	// conversation id. A kittymux_session user var counts only when that
	// record holds the same id. nil: no window is confirmed that way.
	Journal *journal.File
	// KittyPID is the pid of the kitty that saved. 0 (unknown): no journal
	// record confirms a window.
	KittyPID int
	// SavedAt is when kitty wrote the raw save (its modification time): a
	// record the scanner closed because that kitty went away, at or after
	// it, was open when kitty saved. Zero: only open records count.
	SavedAt time.Time
	// LS is what kitty's ls reported when it saved, which Vet checks the
	// raw save's windows against; nil (no kitty to ask) checks the file
	// alone.
	LS []kitty.OSWindow
	// Remote are the windows running ssh, as kittymux saw their processes
	// (remote.Windows), by kitty window id: those whose host's hook
	// reported an agent come back through the prompt (remote.go).
	Remote map[int]remote.Seen
}

// Outcome is what the rewrite did with one agent window.
type Outcome struct {
	plan.Decision
	Cwd string `json:"cwd,omitempty"`
	Tab string `json:"tab,omitempty"`
	// Host is the host of a window's ssh command, for an agent that ran
	// there (Cwd is then its directory there); ReportedBy the host's name
	// as its hook reported it.
	Host       string `json:"host,omitempty"`
	ReportedBy string `json:"reported_by,omitempty"`
}

// Result is the published file and a line per agent window.
type Result struct {
	Data    []byte
	Windows []Outcome
	// Count is how many windows the file holds, agents or not.
	Count int
	// Warnings say what of kitty's save was refused or changed (Vet).
	Warnings []string
	// HistoryTexts is what each plain window showed (by window id) when
	// the save was taken with screen history on; History are the windows
	// whose text the published save keeps.
	HistoryTexts map[int][]byte
	History      []int
}

// ErrEmpty: the raw save holds no window; publishing it would replace a good
// save with nothing.
var ErrEmpty = errors.New("the save holds no windows")

type found struct {
	ref       sessionfile.WindowRef
	fromShell bool
	env       []string
	// exe are the files the agent process ran, from the process, the
	// journal or a sealed record carried over.
	exe []string
	// origin names the journal's record of the agent process: the live
	// window's, or a sealed record's carried over.
	origin string
	// askWhy says why the record is written without a seal: its command
	// rests on what kitty saved (a terminal's report), not on a process
	// kittymux saw. The prompt then shows it and asks.
	askWhy string
	// reportDiffers: the window's saved command is the line kitty's shell
	// integration reported, and the live process shows another.
	reportDiffers bool
}

// onlyKitty is why a window with no live process and no journal record is
// not sealed.
const onlyKitty = "no process of it was seen; only kitty's saved command line says what ran"

// keptAsSaved: a window kept as kitty saved it. A reported command line
// that is not what ran (any program can print one) is not kept for the
// shell to run again: the window comes back as a shell.
func (fd found) keptAsSaved(w *Outcome) {
	if !fd.reportDiffers {
		return
	}
	fd.ref.Line.Launch.Unserialize.CmdAtShellStartup = sessionfile.CmdAtShellStartup{}
	w.Reason += "; the command line kitty reported is not what ran, so it is not kept"
}

// sameCommand: a reported command is the one the process shows.
func sameCommand(a, b recognize.Command) bool {
	return sameAgentCommand(a, b) && slices.Equal(a.Program, b.Program)
}

// sameAgentCommand: a and b are the same agent, flags and environment,
// whatever program runs it (`codex` typed runs as `node …/bin/codex`).
func sameAgentCommand(a, b recognize.Command) bool {
	return a.Agent == b.Agent && slices.Equal(a.Flags, b.Flags) && slices.Equal(a.Env, b.Env)
}

// seenEnv keeps the assignments env holds that the process's environment
// holds with the same value.
func seenEnv(env, procEnv []string) []string {
	var out []string
	for _, kv := range env {
		if slices.Contains(procEnv, kv) {
			out = append(out, kv)
		}
	}
	return out
}

// journalRecord finds kittymux's journal record of window id of the kitty
// that saved (KittyPID) running agent: the record of the agent process the
// scanner saw there, known by its pid and start, with the files it ran,
// open when kitty saved (open now, or closed because that kitty went away
// after it saved: the quit capture publishes as kitty goes). A record of a
// process that ended while its window lived, of another kitty, or without
// a start (a hook's, an older kittymux's) is none: nothing else ties a
// record to the window. A user var never selects one (any program can set
// kittymux_pid). Two such records of the window that disagree on the
// command confirm neither.
func (o Options) journalRecord(id int, agent string) *journal.Record {
	if o.Journal == nil || o.KittyPID <= 0 {
		return nil
	}
	var best *journal.Record
	for i := range o.Journal.Records {
		r := &o.Journal.Records[i]
		if !o.openAtSave(r) || r.Nested || r.KittyPID != o.KittyPID || r.WindowID != id || r.Agent != agent ||
			r.PID <= 0 || r.Start == "" || len(r.Exe) == 0 {
			continue
		}
		if best != nil && (!slices.Equal(best.Argv, r.Argv) || !slices.Equal(best.Exe, r.Exe) || !slices.Equal(best.Env, r.Env)) {
			return nil
		}
		if best == nil || r.LastSeen.After(best.LastSeen) {
			best = r
		}
	}
	return best
}

// openAtSave: r was open when kitty saved.
func (o Options) openAtSave(r *journal.Record) bool {
	if r.Open {
		return true
	}
	return r.CloseReason == journal.ClosedKittyGone && r.ClosedAt != nil && !o.SavedAt.IsZero() && !r.ClosedAt.Before(o.SavedAt)
}

// lsAgent gives the command of the first foreground process of a window
// that runs an agent, as ls lists it: what kitty's save writes for it.
func lsAgent(set *agents.Set) AgentArgv {
	return func(w *kitty.Window) []string {
		for _, p := range w.ForegroundProcesses {
			if _, ok := recognize.Argv(set, p.Cmdline); ok {
				return p.Cmdline
			}
		}
		return nil
	}
}

// readsAs: the command reads as argv's (sameAgentCommand).
func readsAs(set *agents.Set) ReadsAs {
	return func(c sessionfile.CmdAtShellStartup, argv []string) bool {
		read := func() (recognize.Command, bool) { return recognize.String(set, c.String) }
		if c.IsList {
			read = func() (recognize.Command, bool) { return recognize.Argv(set, c.List) }
		}
		a, ok := read()
		if !ok {
			return false
		}
		b, ok := recognize.Argv(set, argv)
		return ok && sameAgentCommand(a, b)
	}
}

// Rewrite rewrites raw, a file written by kitty's save_as_session.
func Rewrite(raw []byte, o Options) (*Result, error) {
	if o.Agents == nil {
		return nil, errors.New("rewrite: no agent definitions")
	}
	if o.ResumeBin == "" {
		return nil, errors.New("rewrite: no path for kittymux-resume")
	}
	raw, warnings := vet(raw, o.LS, sealedExec(o), lsAgent(o.Agents), readsAs(o.Agents))
	f, err := sessionfile.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("read kitty's save: %w", err)
	}
	refs := f.Windows()
	if len(refs) == 0 && len(warnings) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrEmpty, strings.Join(warnings, "; "))
	}
	if len(refs) == 0 {
		return nil, ErrEmpty
	}
	rw := &rewriter{o: o, live: make(map[int]live.AgentWindow, len(o.Live)), byID: map[int]found{}}
	for _, w := range o.Live {
		rw.live[w.ID] = w
	}
	for _, ref := range refs {
		rw.read(ref)
	}
	ws := rw.ws
	for _, w := range o.Live {
		if _, inFile := rw.byID[w.ID]; !inFile {
			ws = append(ws, w)
		}
	}
	var probes probe.Probes
	if o.Check != nil {
		probes = o.Check(rw.names)
	}
	res := &Result{Count: len(refs), Warnings: warnings}
	for _, d := range plan.Decide(o.Agents, ws, probes) {
		if err := rw.apply(res, d); err != nil {
			return nil, err
		}
	}
	res.Windows = append(append(res.Windows, rw.unsealed...), rw.remotes...)
	res.Data, err = f.Encode()
	if err != nil {
		return nil, fmt.Errorf("write session: %w", err)
	}
	return res, nil
}

// rewriter is what a rewrite learns of the file's windows.
type rewriter struct {
	o        Options
	live     map[int]live.AgentWindow
	ws       []live.AgentWindow // the agent windows of the file, to decide
	names    []string           // the agents in the file, the ones worth probing
	byID     map[int]found
	unsealed []Outcome // kept as saved before any decision
	remotes  []Outcome // agents on other machines (remote.go)
}

// saved is one window of kitty's save as the rewrite reads it.
type saved struct {
	found
	id   int
	l    *sessionfile.Launch
	vars map[string]string
	argv []string // the saved argv, when kitty saved one
	cmd  recognize.Command
	ok   bool // cmd is an agent's
	jr   *journal.Record
	lw   live.AgentWindow
	live bool
}

// read reads one window of kitty's save: the agent it runs, if any, from
// the live process, a sealed record of an earlier rewrite, kittymux's
// journal or the saved command, in that order of trust.
func (rw *rewriter) read(ref sessionfile.WindowRef) {
	l := ref.Line.Launch
	if l.Unserialize == nil {
		return // a hand-written launch: not from save_as_session
	}
	sw := &saved{found: found{ref: ref}, id: l.Unserialize.ID(), l: l}
	sw.lw, sw.live = rw.live[sw.id]
	sw.savedCommand(rw.o.Agents)
	dropRemoteHint(l)
	// A window restored by an earlier rewrite runs the prompt.
	if rec, isRec := resumerecord.FromCommandLine(sw.argv, rw.o.ResumeBin); isRec {
		rw.fromRecord(sw, rec)
	} else {
		rw.fromSave(sw)
	}
	if sw.live {
		if sw.env == nil {
			sw.env = sw.lw.Cmd.Env
		}
		sw.exe, sw.askWhy, sw.origin = sw.lw.Seen, sw.lw.Unverified, sw.lw.Origin
	}
	// No record keeps the window's own variables (an older kittymux's
	// sealed record or journal may hold them).
	sw.env = slices.DeleteFunc(slices.Clone(sw.env), func(kv string) bool { return agents.EnvNeverKept(kv) != "" })
	if sw.askWhy != "" {
		// Unsealed, the prompt refuses what only a seal may set.
		sw.env = slices.DeleteFunc(slices.Clone(sw.env), func(kv string) bool { return agents.EnvNeedsSeal(kv, rw.o.Agents.ConfigEnv()) != "" })
	}
	if !sw.ok {
		sw.dropMarks()
		if rw.remoteWindow(sw) {
			return
		}
		if c := sw.l.Unserialize.CmdAtShellStartup; rw.o.LS == nil && c.Set && !c.IsList {
			// Without what kitty listed, the command line the shell
			// reported (OSC 133) cannot be told from one a program
			// printed: the window comes back as its shell.
			sw.l.Unserialize.CmdAtShellStartup = sessionfile.CmdAtShellStartup{}
		}
		return
	}
	sw.cmd.Env = sw.env
	rw.place(sw)
	var ok bool
	if sw.cmd, ok = sw.cmd.Placed(sw.ref.Cwd); !ok {
		rw.unsealed = append(rw.unsealed, Outcome{Decision: plan.Decision{WindowID: sw.id, Agent: sw.cmd.Agent, Mode: plan.ModeAsSaved,
			Reason: fmt.Sprintf("the program %q is a relative path and the window's directory is unknown", sw.cmd.Program)}, Tab: sw.ref.TabTitle})
		return
	}
	w := sw.window(rw.o.IDs)
	rw.ws = append(rw.ws, w)
	rw.names = append(rw.names, sw.cmd.Agent)
	sw.found.env = sw.cmd.Env
	rw.byID[sw.id] = sw.found
}

// savedCommand reads the command kitty saved for the window: an argv, or
// a line its shell integration reported. kittymux_pid named a process of
// the kitty that saved: restored, the window's processes are others, so it
// is dropped (kitty writes it as --var=K=V).
func (sw *saved) savedCommand(set *agents.Set) {
	l := sw.l
	sw.vars = l.Vars()
	l.Options = slices.DeleteFunc(l.Options, func(opt sessionfile.Option) bool {
		k, _, _ := strings.Cut(opt.Value, "=")
		return opt.Name == "--var" && opt.HasValue && k == uservars.PID
	})
	switch c := l.Unserialize.CmdAtShellStartup; {
	case c.Set && c.IsList:
		sw.argv, sw.fromShell = c.List, true
	case c.Set:
		sw.cmd, sw.ok = recognize.String(set, c.String)
		sw.fromShell = true
	default:
		sw.argv = l.Argv
	}
}

// sealedExec vouches for a window launched with a restore record sealed
// here (for the directory the window is in) whose prompt exec'd that
// agent: kitty saves such a window with the record it was launched with,
// and ls lists the agent.
func sealedExec(o Options) Execd {
	if o.Key == nil {
		return nil
	}
	return func(argv []string, w *kitty.Window) bool {
		rec, ok := resumerecord.FromCommandLine(argv, o.ResumeBin)
		if !ok || rec.VerifyIn(o.Key, w.Cwd) != nil {
			return false
		}
		c, ok := recognize.Argv(o.Agents, w.Cmdline)
		return ok && c.Agent == rec.Agent
	}
}

// fromRecord reads a window restored by an earlier save. Its record is
// carried over only if kittymux sealed it: sealing an edited record again
// would make it kittymux's. The agent running there now is what kittymux
// sees, whatever the record said.
func (rw *rewriter) fromRecord(sw *saved, rec resumerecord.Record) {
	sealed := rec.VerifyIn(rw.o.Key, sw.ref.Cwd) == nil
	sw.cmd, sw.ok = sw.lw.Cmd, sw.live
	switch {
	case sw.ok && sealed:
		// The prompt set the record's environment for the agent: kept
		// where the process still holds it.
		sw.env = seenEnv(rec.Env, sw.lw.ProcEnv)
	case sealed:
		sw.cmd, sw.ok = recognize.Argv(rw.o.Agents, rec.Argv)
		sw.exe, sw.env, sw.origin = rec.Exe, rec.Env, rec.Origin
		if rec.Confirm {
			sw.askWhy = "its sealed record asked first"
		}
	case !sw.ok:
		if c, known := recognize.Argv(rw.o.Agents, rec.Argv); known {
			rw.unsealed = append(rw.unsealed, Outcome{Decision: plan.Decision{WindowID: sw.id, Agent: c.Agent, Mode: plan.ModeAsSaved,
				Reason: "its restore record is not sealed by kittymux: kept as it is"}, Cwd: sw.ref.Cwd, Tab: sw.ref.TabTitle})
		}
	}
}

// fromSave reads a window whose saved command is not a restore record.
func (rw *rewriter) fromSave(sw *saved) {
	if len(sw.argv) > 0 {
		sw.cmd, sw.ok = recognize.Argv(rw.o.Agents, sw.argv)
	}
	if sw.live {
		// The agent process kittymux saw is what comes back: what kitty
		// saved (the line a terminal reported, a wrapper script,
		// `export X=1; claude`) only says the window's kind.
		sc := sw.l.Unserialize.CmdAtShellStartup
		sw.reportDiffers = sc.Set && !sc.IsList && !(sw.ok && sameCommand(sw.cmd, sw.lw.Cmd))
		sw.cmd, sw.ok = sw.lw.Cmd, true
		return
	}
	if !sw.ok {
		return
	}
	// No live process: kittymux's journal may have seen it.
	sw.env = sw.cmd.Env
	if sw.jr = rw.o.journalRecord(sw.id, sw.cmd.Agent); sw.jr == nil {
		sw.askWhy = onlyKitty
		return
	}
	if jc, known := recognize.Argv(rw.o.Agents, sw.jr.Argv); known && jc.Agent == sw.cmd.Agent {
		// No origin: the record was found by a user var's hint, and a
		// hint never chooses a conversation.
		sw.cmd, sw.exe, sw.env = jc, sw.jr.Exe, sw.jr.Env
	} else {
		sw.askWhy, sw.jr = onlyKitty, nil
	}
}

// place sets the window's directory. kitty writes the directory of the
// window's foreground process at the moment of the save, which can be a
// short-lived child of the agent (copilot runs helpers in /usr/bin): the
// agent's own directory, as ls showed it, is where it must come back,
// whatever the file's lines say (a directory name can add a `cd`). One that
// kitty would read differently (sessionfile.DirProblem) comes back as its
// nearest safe parent.
func (rw *rewriter) place(sw *saved) {
	lw, isLive := rw.live[sw.id]
	if !isLive || lw.Cmd.Agent != sw.cmd.Agent || !filepath.IsAbs(lw.Cwd) {
		return
	}
	if dir := sessionfile.SafeDir(lw.Cwd); dir != sw.ref.Cwd {
		if err := sw.l.SetOption("--cwd", dir); err == nil {
			sw.ref.Cwd = dir
		}
	}
}

// dropMarks removes kittymux's marks (the agent and conversation user
// vars) from a window that runs no agent: kittymux marks only agent
// windows, so these are text a program printed (OSC 1337 SetUserVar), and
// restored they could pass for kittymux's. The window's other vars stay.
func (sw *saved) dropMarks() {
	sw.l.Options = slices.DeleteFunc(sw.l.Options, func(opt sessionfile.Option) bool {
		k, _, _ := strings.Cut(opt.Value, "=")
		return opt.Name == "--var" && opt.HasValue && (k == uservars.Agent || k == uservars.Session)
	})
}

// window is the agent window to decide, with its conversation: a live
// window's is what kittymux read for its process. A kittymux_session user
// var is a hint any program can set: it counts only when kittymux's journal
// holds the same id for this window and process.
func (sw *saved) window(ids map[int]string) live.AgentWindow {
	w := live.AgentWindow{ID: sw.id, Cwd: sw.ref.Cwd, Cmd: sw.cmd}
	vars, jr := sw.vars, sw.jr
	switch {
	case sw.live:
		w.KnownID, w.KnownIDFrom = sw.lw.KnownID, sw.lw.KnownIDFrom
	case jr != nil && jr.ID != "" && vars[uservars.Session] == jr.ID && vars[uservars.Agent] == sw.cmd.Agent &&
		!strings.HasPrefix(jr.IDFrom, "kitty user var"):
		w.KnownID, w.KnownIDFrom = jr.ID, "journal"
	case ids[sw.id] != "":
		w.KnownID, w.KnownIDFrom = ids[sw.id], "journal"
	}
	if v := vars[uservars.Session]; v != "" && v != w.KnownID && v != sw.cmd.ID {
		// An id nothing confirmed is not carried into the restored
		// window, where it could pass for kittymux's mark.
		sw.l.Options = slices.DeleteFunc(sw.l.Options, func(opt sessionfile.Option) bool {
			k, _, _ := strings.Cut(opt.Value, "=")
			return opt.Name == "--var" && opt.HasValue && k == uservars.Session
		})
	}
	return w
}

// apply writes decision d into the window's launch line: the restore
// prompt with a record, sealed when kittymux saw what ran.
func (rw *rewriter) apply(res *Result, d plan.Decision) error {
	fd, inFile := rw.byID[d.WindowID]
	if !inFile {
		return nil
	}
	res.Windows = append(res.Windows, Outcome{Decision: d, Cwd: fd.ref.Cwd, Tab: fd.ref.TabTitle})
	last := &res.Windows[len(res.Windows)-1]
	if d.Mode == plan.ModeAsSaved || len(d.Argv) == 0 {
		fd.keptAsSaved(last)
		return nil
	}
	o := rw.o
	key := o.Key
	if fd.askWhy != "" {
		// Not what kittymux saw run: unsealed, the prompt shows the
		// whole command and asks.
		key = nil
		last.Reason += "; not sealed, the restore asks first: " + fd.askWhy
	}
	rec := resumerecord.Record{Agent: d.Agent, Mode: d.Mode, ID: d.ID, Direct: o.Direct,
		FromShell: fd.fromShell, Confirm: d.Unsure != "" || fd.askWhy != "", Tab: fd.ref.TabTitle, Dir: fd.ref.Cwd, Env: fd.env, Exe: fd.exe, Argv: d.Argv}
	if key == nil {
		rec.Exe = nil
	} else {
		// The prompt looks for the id the agent reports for this process
		// after the save: the conversation when the save knew none, the
		// one it went to when it left the saved one (/clear, /new).
		rec.Origin = fd.origin
	}
	if lw, isLive := rw.live[d.WindowID]; d.Mode == plan.ModeChoose && isLive && !lw.Since.IsZero() {
		rec.Since = lw.Since.Unix()
		if !lw.LastSeen.IsZero() {
			rec.LastSeen = max(lw.LastSeen.Unix(), rec.Since)
		}
	}
	argv, err := rec.CommandLine(o.ResumeBin, key, o.Agents.ConfigEnv())
	if err != nil {
		// The prompt would refuse this record: keep the window as saved.
		last.Mode = plan.ModeAsSaved
		last.Reason = err.Error()
		fd.keptAsSaved(last)
		return nil
	}
	l := fd.ref.Line.Launch
	if fd.fromShell {
		err = l.SetCmdAtShellStartupList(argv)
	} else {
		err = l.SetArgv(argv)
	}
	if err != nil {
		return fmt.Errorf("rewrite window %s: %w", strconv.Itoa(d.WindowID), err)
	}
	return nil
}
