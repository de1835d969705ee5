package agents

import "path/filepath"

// droid: its hooks go in ~/.factory/settings.json, under claude's event
// names.
var _ = Register(&Code{
	Name:     "droid",
	Binaries: []string{"droid"},
	Hooks: &Hooks{
		Settings: func(_ func(string) string, home string) string {
			return filepath.Join(home, ".factory", "settings.json")
		},
		Start: []string{"SessionStart"}, Working: []string{"UserPromptSubmit"}, Idle: []string{"Stop"},
	},
})
