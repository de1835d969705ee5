package scanner

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/kitty"
)

func TestTabName(t *testing.T) {
	windows := []kitty.Window{{ID: 1, Title: "claude"}, {ID: 2, Title: "/home/u/docs"}}
	for _, tc := range []struct{ title, want string }{
		{"api work", "api work"}, // named by the user
		{"/home/u/docs", ""},     // the active window's title: a neighbour's directory
		{"claude", ""},           // the agent's own title
		{"", ""},
	} {
		if got := tabName(&kitty.Tab{Title: tc.title, Windows: windows}); got != tc.want {
			t.Errorf("tab titled %q: %q, want %q", tc.title, got, tc.want)
		}
	}
	// One window: its title is the tab's, named or not.
	if got := tabName(&kitty.Tab{Title: "web work", Windows: []kitty.Window{{ID: 1, Title: "web work"}}}); got != "web work" {
		t.Errorf("a tab of one window: %q", got)
	}
	if got := tabName(nil); got != "" {
		t.Errorf("no tab: %q", got)
	}
}
