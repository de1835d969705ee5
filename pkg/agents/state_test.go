package agents

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTitleState: claude 2.1.197 titles its window "✳ <topic>" when idle and
// animates "⠂"/"⠐" before the topic while busy (read in its bundled source:
// the title component's prefix is the spinner frame while animating, else
// "✳"). Agents without patterns stay unknown.
func TestTitleState(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ agent, title, want string }{
		{"claude", "\u2733 Fix the tests", StateIdle},
		{"claude", "\u2802 Fix the tests", StateWorking},
		{"claude", "\u2810 Fix the tests", StateWorking},
		{"claude", "Fix the tests", ""}, // CLAUDE_CODE_DISABLE_TERMINAL_TITLE or no prefix
		{"claude", "~/code/api", ""},
		{"codex", "\u2733 x", ""},
		{"nosuch", "\u2733 x", ""},
	}
	got := map[string]string{}
	want := map[string]string{}
	for _, tt := range tests {
		got[tt.agent+" "+tt.title] = set.TitleState(tt.agent, tt.title)
		want[tt.agent+" "+tt.title] = tt.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TitleState (-want +got):\n%s", diff)
	}
}

func TestTitlePatternInvalid(t *testing.T) {
	p := filepath.Join(t.TempDir(), "resume.json")
	if err := os.WriteFile(p, []byte(`{"myagent": {"title_idle": ["("]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	var de *DefinitionError
	if !errors.As(err, &de) || de.Field != "title_idle" || de.Agent != "myagent" {
		t.Errorf("err %v, want a title_idle error of myagent", err)
	}
}
