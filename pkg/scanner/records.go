package scanner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/kittymux/kittymux/pkg/journal"
)

// Records reads what agents write about their own running processes: the
// records that tie one process to one conversation without guessing. A
// newest-file-in-a-directory guess is never read here.
type Records struct {
	// ProcRoot is "/proc": a process's environment says where its agent
	// keeps its records (CLAUDE_CONFIG_DIR, HOME).
	ProcRoot string
	// Getenv is the scanner's own environment, used when the process's
	// cannot be read (another OS, a process gone meanwhile).
	Getenv func(string) string

	// dirs caches where each claude process keeps its files: a process's
	// environment does not change, and reading it every 2 s per window is
	// most of what ids cost. nil: no cache (a Records made outside New).
	dirs map[int]string
}

// forget drops what is cached about process pid (it ended: the pid may be
// reused).
func (r Records) forget(pid int) {
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

// Read returns the record the agent keeps for process pid, if it keeps one
// and it names that process.
func (r Records) Read(agent string, pid int) (AgentRecord, bool) {
	if pid <= 0 {
		return AgentRecord{}, false
	}
	switch agent {
	case "claude":
		return r.claude(pid)
	}
	return AgentRecord{}, false
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
