package autosave

import (
	"testing"
	"time"
)

// The quit watcher's saves name their kitty and time like autosaves do
// (kitty_watcher.py writes the same form), so they count as that kitty's.
func TestQuitName(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 30, 5, 123e6, time.UTC)
	for _, c := range []struct {
		name string
		key  string
		ok   bool
		quit bool
	}{
		{Name("4242", at), "4242", true, false},
		{QuitName("4242", at), "4242", true, true},
		{"autosave-quit-4242-20261201T093005.123Z", "4242", true, true},
		{"autosave-quit", "", false, false},
		{"autosave-quit-4242", "", false, false},
		{"work", "", false, false},
	} {
		key, got, ok := ParseName(c.name)
		if key != c.key || ok != c.ok || IsQuit(c.name) != c.quit || (ok && !got.Equal(at)) {
			t.Errorf("%s: key %q ok %v quit %v at %v", c.name, key, ok, IsQuit(c.name), got)
		}
	}
	// Pruning keeps the quit save with its kitty's saves.
	names := []string{Name("1", at.Add(-time.Minute)), QuitName("1", at)}
	if out := pruneAll(names, "2", 5); len(out) != 0 {
		t.Errorf("pruned %v", out)
	}
}
