package agents

import "path/filepath"

// qodercli: its hooks go in ~/.qoder/settings.json, under claude's event
// names.
var _ = Register(&Code{
	Name:     "qodercli",
	Binaries: []string{"qodercli"},
	UpFront:  "--session-id",
	Hooks: &Hooks{
		Settings: func(_ func(string) string, home string) string {
			return filepath.Join(home, ".qoder", "settings.json")
		},
		Start: []string{"SessionStart"}, Working: []string{"UserPromptSubmit"}, Idle: []string{"Stop", "StopFailure"},
	},
})
