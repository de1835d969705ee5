package kitty

import "testing"

// TestWhatWorks: each version says what works and what needs a newer kitty.
func TestWhatWorks(t *testing.T) {
	const base = "works: the scanner, recover, restart, hooks, the restore prompt"
	for _, tc := range []struct {
		v    Version
		want string
	}{
		{Version{0, 26, 5}, base + "; needs a newer kitty: save, autosave and restore (0.43.0 or newer), the quit capture (0.46.2 or newer)"},
		{Version{0, 44, 0}, base + ", save, autosave and restore; needs a newer kitty: the quit capture (0.46.2 or newer)"},
		{Version{0, 46, 2}, "every part works (save, autosave and restore: 0.43.0; the quit capture: 0.46.2)"},
		{Version{}, base + "; needs a newer kitty: save, autosave and restore (0.43.0 or newer), the quit capture (0.46.2 or newer)"},
	} {
		if got := tc.v.WhatWorks(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.v, got, tc.want)
		}
	}
}
