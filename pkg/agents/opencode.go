package agents

import (
	"path/filepath"

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
})
