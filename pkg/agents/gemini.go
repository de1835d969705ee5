package agents

import "path/filepath"

// gemini: its hooks go in its settings.json, under its own event names,
// with timeouts in milliseconds.
var _ = Register(&Code{
	Name:     "gemini",
	Binaries: []string{"gemini"},
	UpFront:  "--session-id",
	Hooks: &Hooks{
		Settings: func(getenv func(string) string, home string) string {
			if d := getenv("GEMINI_CLI_HOME"); d != "" {
				home = d
			}
			return filepath.Join(home, ".gemini", "settings.json")
		},
		Start: []string{"SessionStart"}, Working: []string{"BeforeAgent"}, Idle: []string{"AfterAgent"},
		TimeoutMS: true,
	},
})
