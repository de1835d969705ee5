package agents

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/assets"
)

// opencode: kittymux's hooks are a plugin of its own,
// ~/.config/opencode/plugins/kittymux.js ($XDG_CONFIG_HOME moves
// ~/.config), loaded by every opencode 1.18.33 at start.
var _ = Register(&Code{
	Name:     "opencode",
	Binaries: []string{"opencode"},
	Hooks: &Hooks{
		Settings: func(getenv func(string) string, home string) string {
			dir := filepath.Join(home, ".config")
			if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
				dir = d
			}
			return filepath.Join(dir, "opencode", "plugins", "kittymux.js")
		},
		Start: []string{"SessionStart"}, Working: []string{"UserPromptSubmit"}, Idle: []string{"Stop"},
		Extension: assets.OpenCodePlugin,
	},
	// opencode keeps its sessions in a database; its CLI lists them
	// (1.18.33: id, title, updated and created in ms, directory). --pure:
	// without the plugins, kittymux's own among them.
	Lister: &Lister{Args: []string{"session", "list", "--format", "json", "--pure"}, Parse: openCodeSessions},
})

// openCodeSessions reads `opencode session list --format json`: a session's
// title (opencode's summary of it) stands for its first message.
func openCodeSessions(out []byte) []Candidate {
	var list []struct {
		ID        string `json:"id"`
		Title     string `json:"title"`
		Updated   int64  `json:"updated"`
		Directory string `json:"directory"`
	}
	if json.Unmarshal(out, &list) != nil {
		return nil
	}
	var cands []Candidate
	for _, s := range list {
		if s.ID == "" || s.Directory == "" || s.Updated <= 0 {
			continue
		}
		cands = append(cands, Candidate{ID: s.ID, First: s.Title, Dir: s.Directory, Modified: time.UnixMilli(s.Updated)})
	}
	return cands
}
