package live

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kittymux/kittymux/pkg/journal"
)

// Records reads what agents write about their own running processes: the
// records that tie one process to one conversation without guessing. A
// newest-file-in-a-directory guess is never read here.
type Records struct {
	// ProcRoot is "/proc": a process's environment says where its agent
	// keeps its records (CLAUDE_CONFIG_DIR, HOME).
	ProcRoot string
	// Getenv is kittymux's own environment, used when the process's
	// cannot be read (another OS, a process gone meanwhile).
	Getenv func(string) string

	// dirs caches where each claude process keeps its files: a process's
	// environment does not change, and reading it every 2 s per window is
	// most of what ids cost. nil: no cache (a Records not made by Cached).
	dirs map[int]string
}

// Cached is r keeping what it reads of each process's environment until
// Forget: for a reader that polls the same processes again and again (the
// scanner).
func (r Records) Cached() Records {
	r.dirs = map[int]string{}
	return r
}

// Forget drops what is cached about process pid (it ended: the pid may be
// reused).
func (r Records) Forget(pid int) {
	if r.dirs != nil {
		delete(r.dirs, pid)
	}
}

// AgentRecord is what an agent's record says about one of its processes.
type AgentRecord struct {
	ID     string
	IDFrom string
	// State is journal.StateWorking, StateIdle or StateAttention, or ""
	// when the record does not say.
	State string
}

// Read returns the record the agent keeps for its processes pids (a
// window's processes of that agent, outermost first), if it keeps one and
// it names one of those processes.
func (r Records) Read(agent string, pids []int) (AgentRecord, bool) {
	if len(pids) == 0 || pids[0] <= 0 {
		return AgentRecord{}, false
	}
	switch agent {
	case "claude":
		return r.claude(pids[0])
	}
	if re := heldFiles[agent]; re != nil {
		return r.heldFile(agent, re(), pids)
	}
	return AgentRecord{}, false
}

// heldFiles are the agents whose running process keeps its conversation
// file open, with the pattern of that file's path (the id is its first
// group). Checked on each real CLI:
//   - codex 0.171.0 opens rollout-<time>-<uuid>.jsonl for appending and keeps
//     it open while the thread runs, in the process that runs the thread: the
//     TUI's native process when it runs in process (`-c ...`, `--no-daemon`),
//     else the shared app-server daemon, which serves every TUI of the user
//     and holds a thread's file after its TUI has gone. So only a file held
//     by a process of the window counts; the daemon's files say nothing about
//     windows.
//   - gemini 0.61.0 (appendFileSync), pi 0.73.1 (appendFileSync), copilot
//     1.0.102 (fs/promises appendFile) and qodercli 1.1.52 (batched
//     fs/promises appendFile) open, append and close on each write: no file
//     stays open, there is nothing exact to read, and they are not here.
//
// Each pattern is compiled when a window of its agent is first seen.
var heldFiles = map[string]func() *regexp.Regexp{
	"codex": sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`/sessions/[0-9]{4}/[0-9]{2}/[0-9]{2}/rollout-[0-9T:-]+-` +
			`([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$`)
	}),
}

// heldFile returns the id of the one conversation file of agent that the
// processes pids hold open. Several (a thread and its sub-agents' threads in
// one process) give none: which is the window's conversation is a guess.
func (r Records) heldFile(agent string, re *regexp.Regexp, pids []int) (AgentRecord, bool) {
	id, from := "", ""
	for _, pid := range pids {
		for _, path := range r.openFiles(pid) {
			m := re.FindStringSubmatch(path)
			if m == nil {
				continue
			}
			if id != "" && !strings.EqualFold(id, m[1]) {
				return AgentRecord{}, false
			}
			id, from = strings.ToLower(m[1]), agent+" "+filepath.Base(path)+" held open by pid "+strconv.Itoa(pid)
		}
	}
	if id == "" {
		return AgentRecord{}, false
	}
	return AgentRecord{ID: id, IDFrom: from}, true
}

// claudeSession is claude's sessions/<pid>.json, as claude 2.1.197 writes
// it (read in its bundled source): written when the process starts, updated
// in place when the conversation id changes (/clear, /resume) and when its
// status changes, removed when it exits cleanly.
type claudeSession struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	// Status is "busy" while it works, "idle" (or "shell") at its prompt,
	// "waiting" when it asks the user (a permission prompt).
	Status string `json:"status"`
}

func (r Records) claude(pid int) (AgentRecord, bool) {
	dir := r.claudeDir(pid)
	if dir == "" {
		return AgentRecord{}, false
	}
	name := filepath.Join(dir, "sessions", strconv.Itoa(pid)+".json")
	data, err := os.ReadFile(name)
	if err != nil {
		return AgentRecord{}, false
	}
	var s claudeSession
	// claude rewrites the file in place, not by rename: a read can catch it
	// half written. That read fails to parse and the caller keeps what it
	// had.
	if err := json.Unmarshal(data, &s); err != nil || s.PID != pid || s.SessionID == "" {
		return AgentRecord{}, false
	}
	rec := AgentRecord{ID: s.SessionID, IDFrom: "claude sessions/" + strconv.Itoa(pid) + ".json"}
	switch s.Status {
	case "busy":
		rec.State = journal.StateWorking
	case "idle", "shell":
		rec.State = journal.StateIdle
	case "waiting":
		rec.State = journal.StateAttention
	}
	return rec, true
}

// claudeDir is where claude process pid keeps its files: its
// CLAUDE_CONFIG_DIR, else ~/.claude of its HOME.
func (r Records) claudeDir(pid int) string {
	if d, ok := r.dirs[pid]; ok {
		return d
	}
	d := r.readClaudeDir(pid)
	if r.dirs != nil && d != "" {
		r.dirs[pid] = d
	}
	return d
}

func (r Records) readClaudeDir(pid int) string {
	env := r.environ(pid)
	if env == nil {
		env = func(k string) string {
			if r.Getenv == nil {
				return ""
			}
			return r.Getenv(k)
		}
	}
	if d := env("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if h := env("HOME"); h != "" {
		return filepath.Join(h, ".claude")
	}
	return ""
}

// environ returns a lookup in process pid's environment, or nil when it
// cannot be read.
func (r Records) environ(pid int) func(string) string {
	root := r.ProcRoot
	if root == "" {
		root = "/proc"
	}
	data, err := os.ReadFile(filepath.Join(root, strconv.Itoa(pid), "environ"))
	if err != nil || len(data) == 0 {
		return nil
	}
	vars := map[string]string{}
	for _, kv := range bytes.Split(data, []byte{0}) {
		if k, v, ok := bytes.Cut(kv, []byte{'='}); ok {
			vars[string(k)] = string(v)
		}
	}
	return func(k string) string { return vars[k] }
}
