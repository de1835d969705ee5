package store

import "testing"

// A plain window that prints its kept screen history runs the restore
// prompt's program too, but is no agent window.
func TestCountHistoryWindows(t *testing.T) {
	data := []byte(`new_tab
launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": ["/bin/kittymux-resume", "--show-history", "/s/work.history/a-1.txt"]}'
launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["/bin/kittymux-resume", "--agent", "claude", "--mode", "latest", "--", "claude"]}'
launch 'kitty-unserialize-data={"id": 3}'
`)
	windows, agents, err := Count(data)
	if err != nil || windows != 3 || agents != 1 {
		t.Errorf("Count = %d windows, %d agents, %v; want 3, 1", windows, agents, err)
	}
	if n := HistoryWindows(data); n != 1 {
		t.Errorf("HistoryWindows = %d, want 1", n)
	}
}
