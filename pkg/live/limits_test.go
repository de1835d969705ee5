package live

import "testing"

func TestIDLimit(t *testing.T) {
	for _, tc := range []struct {
		agent string
		argv  []string
		limit bool
	}{
		{"codex", []string{"codex"}, true},
		{"codex", []string{"codex", "--model", "o3"}, true},
		{"codex", []string{"codex", "--no-daemon"}, false},
		{"codex", []string{"codex", "-c", "model=o3"}, false},
		{"claude", []string{"claude"}, false},
	} {
		if got := IDLimit(tc.agent, tc.argv); (got != "") != tc.limit {
			t.Errorf("IDLimit(%s, %q) = %q", tc.agent, tc.argv, got)
		}
	}
}
