package ids

import "testing"

func TestShort(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		// claude: a UUIDv4, its first block.
		{"3f2c1a9e-7b4d-4e21-9a0c-5d6e7f809a1b", "3f2c1a9e"},
		// codex: UUIDv7s started in the same minute share their first
		// eight hex digits; their random last blocks tell them apart.
		{"019a3b2c-4d5e-7f60-8a1b-2c3d4e5f6071", "2c3d4e5f6071"},
		{"019a3b2c-51f0-7a2b-b3c4-d5e6f7081929", "d5e6f7081929"},
		{"019A3B2C-51F0-7A2B-B3C4-D5E6F708192A", "D5E6F708192A"},
		// Not quite a UUIDv7: the first block.
		{"019a3b2c-4d5e-7f60-8a1b-2c3d4e5f607", "019a3b2c"},
		{"019a3b2c-4d5e-7f60-8a1b_2c3d4e5f6071", "019a3b2c"},
		{"019a3b2c-4d5e-7f60-8a1b-2c3d4e5f607g", "019a3b2c"},
		// Other shapes: a first block of eight or more, else 12 at most.
		{"session-2025-01-01", "session-2025"},
		{"ses_4a5b6c7d8e9f0a1b2c3d", "ses_4a5b6c7d"},
		{"conversation_1", "conversation"},
		{"abc", "abc"},
		{"", ""},
	} {
		if got := Short(tc.id); got != tc.want {
			t.Errorf("Short(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	a, b := "019a3b2c-4d5e-7f60-8a1b-2c3d4e5f6071", "019a3b2c-51f0-7a2b-b3c4-d5e6f7081929"
	if Short(a) == Short(b) {
		t.Errorf("two codex conversations of one minute look the same: %q", Short(a))
	}
}
