package agents

import "testing"

func TestCodexEvent(t *testing.T) {
	for event, want := range map[string]string{"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop"} {
		if got := codexEvent(event); got != want {
			t.Errorf("codexEvent(%s) = %s, want %s", event, got, want)
		}
	}
}
