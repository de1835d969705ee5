package live

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// Records reads what agents write about their own running processes: the
// records that tie one process to one conversation without guessing. A
// newest-file-in-a-directory guess is never read here. How each agent's
// record is read is the agent's (agents.Code.ReadID); Records gives it the
// processes to read (agents.Procs).
type Records struct {
	// ProcRoot is "/proc": a process's environment says where its agent
	// keeps its records (CLAUDE_CONFIG_DIR, HOME).
	ProcRoot string
	// Getenv is kittymux's own environment, used when the process's
	// cannot be read (another OS, a process gone meanwhile).
	Getenv func(string) string
	// StateDir is kittymux's state directory, where an agent that shows
	// only its process title has reported the argv it started with
	// (procid.ReadArgv); "": no reports are read.
	StateDir string

	// envs caches the environment of each process: it does not change,
	// and reading it every 2 s per window is most of what ids cost. nil: no
	// cache (a Records not made by Cached).
	envs map[int]map[string]string
	// argvs caches the argv each process reported, found once: a report
	// does not change for its process (its pid and start).
	argvs map[procid.ID][]string
}

// Cached is r keeping what it reads of each process's environment and
// reported argv until Forget: for a reader that polls the same processes
// again and again (the scanner).
func (r Records) Cached() Records {
	r.envs = map[int]map[string]string{}
	r.argvs = map[procid.ID][]string{}
	return r
}

// Forget drops what is cached about process pid (it ended: the pid may be
// reused).
func (r Records) Forget(pid int) {
	if r.envs != nil {
		delete(r.envs, pid)
	}
	for id := range r.argvs {
		if id.PID == pid {
			delete(r.argvs, id)
		}
	}
}

// reported is the argv p's agent integration reported for it
// (procid.ReadArgv) where p is an interpreter showing one word, its process
// title; nil otherwise (a shell or a native agent alone on its command line
// costs no look). Until one is found it is looked for again: the report
// comes once the agent's session starts.
func (r Records) reported(p recognize.Proc) []string {
	if len(p.Argv) != 1 || r.StateDir == "" || !agents.IsInterpreter(filepath.Base(p.Exe)) {
		return nil
	}
	id := procid.ID{PID: p.PID, Start: p.Start}
	if argv, ok := r.argvs[id]; ok {
		return argv
	}
	argv, ok := procid.ReadArgv(r.StateDir, id)
	if ok && r.argvs != nil {
		r.argvs[id] = argv
	}
	return argv
}

// Read returns the record the agent keeps for its processes pids (a
// window's processes of that agent, outermost first), if it keeps one and
// it names one of those processes.
func (r Records) Read(agent string, pids []int) (agents.ProcRecord, bool) {
	if len(pids) == 0 || pids[0] <= 0 {
		return agents.ProcRecord{}, false
	}
	if c := agents.CodeOf(agent); c != nil && c.ReadID != nil {
		return c.ReadID(r, pids)
	}
	return agents.ProcRecord{}, false
}

// Env looks k up in process pid's environment, or in r.Getenv where that
// cannot be read (agents.Procs).
func (r Records) Env(pid int, k string) string {
	if env := r.environ(pid); env != nil {
		return env[k]
	}
	if r.Getenv == nil {
		return ""
	}
	return r.Getenv(k)
}

// environ returns process pid's environment, or nil when it cannot be
// read.
func (r Records) environ(pid int) map[string]string {
	if env, ok := r.envs[pid]; ok {
		return env
	}
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
	if r.envs != nil {
		r.envs[pid] = vars
	}
	return vars
}
