package published

import (
	"slices"
	"testing"
)

// A plain window that prints its kept screen history runs the restore
// prompt's program too, but is no agent window.
func TestCountHistoryWindows(t *testing.T) {
	data := []byte(`new_tab
launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": ["/bin/kittymux-resume", "--show-history", "/s/work.history/a-1.txt"]}'
launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["/bin/kittymux-resume", "--agent", "claude", "--mode", "latest", "--", "claude"]}'
launch 'kitty-unserialize-data={"id": 3}'
cd /home/u/web
launch 'kitty-unserialize-data={"id": 4, "cmd_at_shell_startup": ["/bin/kittymux-resume", "--show-history", "/s/work.history/a-4.txt"]}'
`)
	windows, agents, err := Count(data)
	if err != nil || windows != 4 || agents != 1 {
		t.Errorf("Count = %d windows, %d agents, %v; want 4, 1", windows, agents, err)
	}
	want := []HistoryWindow{{1, "", "/s/work.history/a-1.txt"}, {4, "/home/u/web", "/s/work.history/a-4.txt"}}
	if got := HistoryWindows(data); !slices.Equal(got, want) {
		t.Errorf("HistoryWindows = %v, want %v", got, want)
	}
}
