package agents

import (
	"path/filepath"

	"github.com/kittymux/kittymux/assets"
)

// pi: kittymux's hooks are an extension of its own,
// ~/.pi/agent/extensions/kittymux.ts (PI_CODING_AGENT_DIR moves
// ~/.pi/agent), loaded by every pi 0.73.1 at start.
var _ = Register(&Code{
	Name:     "pi",
	Binaries: []string{"pi"},
	Hooks: &Hooks{
		Settings: func(getenv func(string) string, home string) string {
			dir := filepath.Join(home, ".pi", "agent")
			if d := getenv("PI_CODING_AGENT_DIR"); d != "" {
				dir = d
			}
			return filepath.Join(dir, "extensions", "kittymux.ts")
		},
		Start: []string{"SessionStart"}, Working: []string{"UserPromptSubmit"}, Idle: []string{"Stop"},
		Extension: assets.PiExtension,
	},
})
