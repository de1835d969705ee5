package agents

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// Background is where an agent lists the conversations its own background
// service runs (claude --bg, managed with `claude agents`): a roster file
// under the agent's directory, {"workers": {SHORT: {"pid", "sessionId",
// "cwd"}}} as claude 2.1.197 and 2.1.332 write daemon/roster.json. Such a
// conversation is attached, not resumed a second time.
type Background struct {
	Roster string `json:"roster"`
	// Attach are the words after the program that open one here; {short}
	// is the worker's name in the roster.
	Attach []string `json:"attach"`
}

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

const shortPlaceholder = "{short}"

// heldBy reads the roster for a live worker running conversation id.
func heldBy(home string, bg *Background, id string) *Held {
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
		if w.SessionID != id || w.PID <= 1 || !isWorkerName(short) || !alive(w.PID) {
			continue
		}
		h := &Held{PID: w.PID, Short: short, Runs: "as a background agent"}
		if filepath.IsAbs(w.Cwd) {
			h.Dir = filepath.Clean(w.Cwd)
		}
		for _, a := range bg.Attach {
			h.Attach = append(h.Attach, strings.ReplaceAll(a, shortPlaceholder, short))
		}
		return h
	}
	return nil
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func checkBackground(bg *Background) string {
	if bg == nil {
		return ""
	}
	rel := bg.Roster != "" && !filepath.IsAbs(bg.Roster) && !strings.HasPrefix(filepath.Clean(bg.Roster), "..")
	if !rel || len(bg.Attach) == 0 {
		return "background needs a relative \"roster\" and \"attach\""
	}
	for _, w := range bg.Attach {
		if w != shortPlaceholder && !isTemplateWord(w) {
			return "background attach word " + w + " is not a plain word"
		}
	}
	return ""
}
