package agents

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// claude: its running process's conversation is in sessions/<pid>.json
// under its directory, its hooks go in its settings.json, and it ends
// cleanly on SIGINT: claude 2.1.197's SIGINT handler (in its bundle) shuts
// down as /exit does, exit status 0, and removes its sessions/<pid>.json;
// SIGTERM exits 143. 2.1.332 (the registry's newest) ends the same on
// SIGINT, and removes the <pid>.<hash>.key it now writes beside the record.
var _ = Register(&Code{
	Name:     "claude",
	Binaries: []string{"claude"},
	UpFront:  "--session-id",
	ReadID:   claudeReadID,
	Ending:   &Ending{Signal: syscall.SIGINT},
	Hooks: &Hooks{
		Settings: func(getenv func(string) string, home string) string {
			if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
				return filepath.Join(d, "settings.json")
			}
			return filepath.Join(home, ".claude", "settings.json")
		},
		Start: []string{"SessionStart"}, Working: []string{"UserPromptSubmit"}, Idle: []string{"Stop", "StopFailure"},
	},
})

// claudeSession is claude's sessions/<pid>.json, as claude 2.1.197 writes
// it (read in its bundled source): written when the process starts, updated
// in place when the conversation id changes (/clear, /resume) and when its
// status changes, removed when it exits cleanly. 2.1.332 writes the same
// fields (and more: procStart, kind "interactive" or "bg", a name).
type claudeSession struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	// Status is "busy" while it works, "idle" (or "shell") at its prompt,
	// "waiting" when it asks the user (a permission prompt).
	Status string `json:"status"`
}

func claudeReadID(p Procs, pids []int) (ProcRecord, bool) {
	pid := pids[0]
	dir := claudeDir(p, pid)
	if dir == "" {
		return ProcRecord{}, false
	}
	name := filepath.Join(dir, "sessions", strconv.Itoa(pid)+".json")
	// Any program of the user can put a FIFO there: it is refused, never
	// waited on.
	data, err := userfile.Read(name, 1<<20)
	if err != nil {
		return ProcRecord{}, false
	}
	var s claudeSession
	// claude rewrites the file in place, not by rename: a read can catch it
	// half written. That read fails to parse and the caller keeps what it
	// had.
	if err := json.Unmarshal(data, &s); err != nil || s.PID != pid || s.SessionID == "" {
		return ProcRecord{}, false
	}
	rec := ProcRecord{ID: s.SessionID, IDFrom: "claude sessions/" + strconv.Itoa(pid) + ".json"}
	switch s.Status {
	case "busy":
		rec.State = StateWorking
	case "idle", "shell":
		rec.State = StateIdle
	case "waiting":
		rec.State = StateAttention
	}
	return rec, true
}

// claudeDir is where claude process pid keeps its files: its
// CLAUDE_CONFIG_DIR, else ~/.claude of its HOME.
func claudeDir(p Procs, pid int) string {
	if d := p.Env(pid, "CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if h := p.Env(pid, "HOME"); h != "" {
		return filepath.Join(h, ".claude")
	}
	return ""
}
