package agents

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Code is the part of one agent's knowledge that is code, not data: what
// its entry in resume-agents.json cannot say. Each agent that needs some
// has a file of its own here (claude.go, codex.go, ...) that registers its
// Code; the packages that act on agents (live, hookinstall, hookrun) look the
// agent up here instead of switching on its name. An agent with no Code is
// still recognised and resumed from its definition alone.
type Code struct {
	// Name is the agent's name, its key in the definitions.
	Name string
	// Binaries are the names its CLI has on PATH: doctor looks for them,
	// and hooks are offered where one is installed.
	Binaries []string
	// ReadID reads the record the agent keeps of its running processes
	// pids (a window's processes of the agent, outermost first; never
	// empty): the conversation it is in now. nil: it keeps none kittymux
	// can read.
	ReadID func(p Procs, pids []int) (ProcRecord, bool)
	// IDLimit says why a window running the agent with argv (its program
	// and flags) may have no exact id whatever kittymux reads, as found on
	// the real CLI; "" when nothing stands in the way. nil: nothing does.
	IDLimit func(argv []string) string
	// SharedServer reports whether a process with argv is the agent's
	// server that serves every window of the agent (codex's app-server
	// daemon): a hook it runs names no window. nil: the agent has none.
	SharedServer func(argv []string) bool
	// Apart reports whether a run with argv runs its conversation itself,
	// apart from SharedServer. The server keeps a conversation after the
	// TUI that ran it there is gone, and a run apart does not open it
	// (codex: "This conversation is open in another app"); SharedAttach
	// are the words after the program that open it through the server,
	// {id} its id. nil: no run is apart.
	Apart        func(argv []string) bool
	SharedAttach []string
	// UpFront is the CLI's flag that chooses a new conversation's id up
	// front (--session-id): never kept beside a resume, whatever a
	// definition lists, since claude refuses the two together (and
	// forks with --fork-session). "": it has none.
	UpFront string
	// Hooks are kittymux's hooks in the agent's settings; nil: none.
	Hooks *Hooks
	// Ending is how the agent ends cleanly (`agents restart`); nil:
	// SIGTERM.
	Ending *Ending
	// Lister lists the agent's conversations through its own CLI, where
	// its files are not for kittymux to read (opencode's database): the
	// choosing prompt runs it. nil: the definitions' store is read.
	Lister *Lister
}

// Lister is how an agent's CLI lists its conversations: Args after its
// program, and Parse, which reads their output (bounded) into candidates.
type Lister struct {
	Args  []string
	Parse func(out []byte) []Candidate
}

// Ending is how an agent CLI ends cleanly: what it does on that writes its
// conversation and gives the terminal back as it found it.
type Ending struct {
	// Signal is sent to the agent's outermost process; 0 when the agent
	// ends on a typed command instead.
	Signal syscall.Signal
	// Typed is the command typed into the window, then Enter once it
	// shows.
	Typed, Enter string
}

func (e Ending) String() string {
	if e.Signal != 0 {
		return SignalName(e.Signal)
	}
	return "typed " + e.Typed
}

// SignalName is the signal's name as people write it (SIGINT).
func SignalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// Procs is what an agent's ReadID may read of its running processes.
type Procs interface {
	// Env looks k up in process pid's environment, or, where that cannot
	// be read (another OS, a process gone meanwhile), in kittymux's own.
	Env(pid int, k string) string
	// OpenFiles lists the paths of the files process pid holds open (only
	// Linux shows them; none elsewhere).
	OpenFiles(pid int) []string
}

// ProcRecord is what an agent's own record says of one of its processes.
type ProcRecord struct {
	ID     string
	IDFrom string
	// State is StateWorking, StateIdle or StateAttention, or ""
	// when the record does not say.
	State string
}

// HeldFile returns the id of the one conversation file of agent (re's
// first group) that the processes pids hold open. Several (a thread and
// its sub-agents' threads in one process) give none: which is the
// window's conversation is a guess. Only an agent that keeps the file open
// can be read so: gemini 0.61.0 (appendFileSync), pi 0.73.1
// (appendFileSync), copilot 1.0.102 (fs/promises appendFile) and qodercli
// 1.1.52 (batched fs/promises appendFile) open, append and close on each
// write, and no file stays open to read.
func HeldFile(p Procs, agent string, re *regexp.Regexp, pids []int) (ProcRecord, bool) {
	id, from := "", ""
	for _, pid := range pids {
		for _, path := range p.OpenFiles(pid) {
			m := re.FindStringSubmatch(path)
			if m == nil {
				continue
			}
			if id != "" && !strings.EqualFold(id, m[1]) {
				return ProcRecord{}, false
			}
			id, from = strings.ToLower(m[1]), agent+" "+filepath.Base(path)+" held open by pid "+strconv.Itoa(pid)
		}
	}
	if id == "" {
		return ProcRecord{}, false
	}
	return ProcRecord{ID: id, IDFrom: from}, true
}

// Hooks says where kittymux's hooks go in one agent's settings and which
// of its events they report, in the agent's own names.
type Hooks struct {
	// Settings is the file the agent reads its user hooks from (with
	// Extension: the file kittymux installs).
	Settings func(getenv func(string) string, home string) string
	// Start, Working and Idle are the events kittymux hooks: the session
	// starts; a prompt is submitted (working); the turn finishes (idle).
	Start, Working, Idle []string
	// TimeoutMS: the agent's timeout field is in milliseconds (gemini),
	// not seconds.
	TimeoutMS bool
	// Note is what the user must still do after install, if anything.
	Note string
	// Trust says whether the agent runs the hooks of kittymux's groups
	// (each event's name and its group's index in hooksFile): an agent that
	// runs a new hook only once the user trusts it (codex). how says what
	// the user must do when it does not. nil: the agent runs every hook.
	Trust func(hooksFile string, groups []HookGroup) (trusted bool, how string)
	// Extension, when set, is a file of kittymux's own installed at
	// Settings instead of hooks in it (pi's extension, opencode's
	// plugin): it runs `kittymux hook AGENT EVENT` itself. "__KITTYMUX__"
	// (quotes included) stands where kittymux's path goes as a JSON string.
	Extension []byte
}

// HookGroup is one of kittymux's hook groups in a settings file.
type HookGroup struct {
	Event string
	Index int
}

// Events are the events kittymux hooks, in the order they are installed.
func (h *Hooks) Events() []string {
	return slices.Concat(h.Start, h.Working, h.Idle)
}

var (
	codesMu sync.RWMutex
	codes   = map[string]*Code{}
)

// Register adds an agent's Code; each agent's file calls it from init.
// It returns what removes it again (for tests). A name registered twice
// panics: two files for one agent.
func Register(c *Code) (unregister func()) {
	codesMu.Lock()
	defer codesMu.Unlock()
	if _, dup := codes[c.Name]; dup {
		panic("agents: code for " + c.Name + " registered twice")
	}
	codes[c.Name] = c
	return func() {
		codesMu.Lock()
		defer codesMu.Unlock()
		delete(codes, c.Name)
	}
}

// CodeOf returns agent's Code, nil when it has none.
func CodeOf(agent string) *Code {
	codesMu.RLock()
	defer codesMu.RUnlock()
	return codes[agent]
}

// Codes are the agents that have Code, by name.
func Codes() []*Code {
	codesMu.RLock()
	defer codesMu.RUnlock()
	out := make([]*Code, 0, len(codes))
	for _, c := range codes {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *Code) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// HookState is the state agent's hook event reports: "start" for a
// session start, "working", "idle"; "" for an event no agent's hooks send.
// An agent kittymux has no hooks for (one the user hooked by hand) is read
// by the names the others use.
func HookState(agent, event string) string {
	if c := CodeOf(agent); c != nil && c.Hooks != nil {
		if s := c.Hooks.state(event); s != "" {
			return s
		}
	}
	for _, c := range Codes() {
		if c.Hooks != nil {
			if s := c.Hooks.state(event); s != "" {
				return s
			}
		}
	}
	return ""
}

// Hook event states (HookState).
const (
	HookStart   = "start"
	HookWorking = "working"
	HookIdle    = "idle"
)

func (h *Hooks) state(event string) string {
	switch {
	case slices.Contains(h.Start, event):
		return HookStart
	case slices.Contains(h.Working, event):
		return HookWorking
	case slices.Contains(h.Idle, event):
		return HookIdle
	}
	return ""
}
