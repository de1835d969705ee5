package grammar

import "testing"

func TestHelpShows(t *testing.T) {
	tests := []struct {
		out, tok string
		want     bool
	}{
		{"  -r, --resume [value]   Resume", "--resume", true},
		{"  -r, --resume [value]   Resume", "-r", true},
		{"  --resume-session <id>", "--resume", false},
		{"  --no-resume", "--resume", false},
		{"use --resume or --continue)", "--continue", true},
		{"  --resume[=sessionId]", "--resume", true},
		{"(--last)", "--last", true},
		{"\x1b[1m--last\x1b[0m  Continue", "--last", true},
		{"x--last", "--last", false},
		{"  resume            Resume a previous session", "resume", true},
		{"  plugin|plugins    Manage", "plugins", true},
		{"Use this to resume work", "resume", false},
		{"  resumed   something", "resume", false},
		{"", "--resume", false},
	}
	for _, tc := range tests {
		if got := Shows(tc.out, tc.tok); got != tc.want {
			t.Errorf("Shows(%q, %q) = %v, want %v", tc.out, tc.tok, got, tc.want)
		}
	}
}
