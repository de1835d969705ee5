package tui

import "testing"

// TestDarkBackground: COLORFGBG's background decides light or dark; unset
// or unreadable, dark (the terminal is never asked).
func TestDarkBackground(t *testing.T) {
	for v, want := range map[string]bool{"": true, "15;0": true, "0;15": false, "0;7": false, "7;8": true,
		"0;default;15": false, "x": true, "0;12": false, "15;4": true} {
		if got := darkBackground(v); got != want {
			t.Errorf("COLORFGBG=%q: dark %v, want %v", v, got, want)
		}
	}
}
