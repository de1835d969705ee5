package conversations

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Held is a conversation an agent's background service runs now.
type Held struct {
	PID   int
	Short string
	Dir   string
	// Runs says where it runs, after "runs": "as a background agent"
	// (claude --bg), "in codex's daemon (...)".
	Runs string
	// Attach are the words after the agent's program that open it here.
	Attach []string
}

// heldBy reads the roster for a live worker running conversation id.
func heldBy(home string, bg *agents.Background, id string) *Held {
	if bg == nil {
		return nil
	}
	data, err := userfile.Read(filepath.Join(home, bg.Roster), 4<<20)
	if err != nil {
		return nil
	}
	var roster struct {
		Workers map[string]struct {
			PID       int    `json:"pid"`
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
		} `json:"workers"`
	}
	if json.Unmarshal(data, &roster) != nil {
		return nil
	}
	for short, w := range roster.Workers {
		if w.SessionID != id || w.PID <= 1 || !agents.IsWorkerName(short) || !alive(w.PID) {
			continue
		}
		h := &Held{PID: w.PID, Short: short, Runs: "as a background agent"}
		if filepath.IsAbs(w.Cwd) {
			h.Dir = filepath.Clean(w.Cwd)
		}
		for _, a := range bg.Attach {
			h.Attach = append(h.Attach, strings.ReplaceAll(a, agents.ShortPlaceholder, short))
		}
		return h
	}
	return nil
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
