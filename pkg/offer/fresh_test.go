package offer

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/kitty"
)

// TestFreshTab: the tab the offer covers is closed only when kitty opened
// it and nothing was done in it, and another tab remains.
func TestFreshTab(t *testing.T) {
	yes, no := true, false
	shell := func(mod func(*kitty.Window)) kitty.Window {
		w := kitty.Window{ID: 1, PID: 100, AtPrompt: &yes, Cmdline: []string{"/bin/bash"},
			ForegroundProcesses: []kitty.Process{{PID: 100, Cmdline: []string{"/bin/bash"}}}}
		if mod != nil {
			mod(&w)
		}
		return w
	}
	offerTab := func(w kitty.Window) kitty.Tab {
		return kitty.Tab{ID: 1, Groups: []kitty.Group{{ID: 1, Windows: []int{1, 9}}}, Windows: []kitty.Window{w, {ID: 9, PID: 200}}}
	}
	restored := kitty.Tab{ID: 2, Windows: []kitty.Window{{ID: 3}}, Groups: []kitty.Group{{ID: 2, Windows: []int{3}}}}
	ls := func(tabs ...kitty.Tab) []kitty.OSWindow { return []kitty.OSWindow{{ID: 1, Tabs: tabs}} }
	for _, c := range []struct {
		name string
		ls   []kitty.OSWindow
		want int
	}{
		{"fresh, restored beside it", ls(offerTab(shell(nil)), restored), 1},
		{"restored in another OS window", append(ls(offerTab(shell(nil))), kitty.OSWindow{ID: 2, Tabs: []kitty.Tab{restored}}), 1},
		{"the only tab", ls(offerTab(shell(nil))), 0},
		{"a command ran", ls(offerTab(shell(func(w *kitty.Window) { w.LastReportedCmdline = "make" })), restored), 0},
		{"a program runs", ls(offerTab(shell(func(w *kitty.Window) {
			w.ForegroundProcesses = []kitty.Process{{PID: 101, Cmdline: []string{"vim"}}}
		})), restored), 0},
		{"not at its prompt", ls(offerTab(shell(func(w *kitty.Window) { w.AtPrompt = &no })), restored), 0},
		{"no shell integration", ls(offerTab(shell(func(w *kitty.Window) { w.AtPrompt = nil })), restored), 0},
		{"in the alternate screen", ls(offerTab(shell(func(w *kitty.Window) { w.InAlternateScreen = true })), restored), 0},
		{"a split beside it", ls(kitty.Tab{ID: 1, Groups: []kitty.Group{{ID: 1, Windows: []int{1, 9}}, {ID: 3, Windows: []int{4}}},
			Windows: []kitty.Window{shell(nil), {ID: 9}, {ID: 4}}}, restored), 0},
		{"opened from a session file (startup_session)", ls(offerTab(shell(func(w *kitty.Window) { w.SessionName = "work" })), restored), 0},
		{"a tab named", ls(func() kitty.Tab { t := offerTab(shell(nil)); t.TitleOverridden = true; return t }(), restored), 0},
		{"no groups listed (0.26.x)", ls(kitty.Tab{ID: 1, Windows: []kitty.Window{shell(nil), {ID: 9}}}, restored), 0},
		{"the offer is not over it", ls(kitty.Tab{ID: 1, Groups: []kitty.Group{{ID: 1, Windows: []int{1, 8}}},
			Windows: []kitty.Window{shell(nil), {ID: 8}}}, restored), 0},
	} {
		if got := FreshTab(c.ls, 9); got != c.want {
			t.Errorf("%s: tab %d, want %d", c.name, got, c.want)
		}
	}
}
