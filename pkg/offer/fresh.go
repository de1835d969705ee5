package offer

import (
	"context"
	"strconv"

	"github.com/kittymux/kittymux/pkg/kitty"
)

// CloseFresh closes the tab the offer (its window self) ran over once the
// session is back, when it is fresh (FreshTab): else each crash and
// restore leaves one more empty tab. The offer's window goes with it.
func CloseFresh(ctx context.Context, c *kitty.Client, self int) {
	ls, err := c.LS(ctx)
	if err != nil {
		return
	}
	if tab := FreshTab(ls, self); tab != 0 {
		_ = c.CloseTab(ctx, "id:"+strconv.Itoa(tab))
	}
}

// FreshTab is the tab the offer ran over (self is the offer's own window,
// an overlay) when closing it, once the session is restored, loses
// nothing: the tab kitty opened as it started, where nothing was done. It
// holds one window and the overlays over it; that window's shell runs
// alone (no other foreground process), at its prompt, with no command
// reported run in it (kitty's shell integration says both: without it
// nothing is known, and the tab stays); and the kitty has another tab to
// show once it is gone. 0 otherwise, also where kitty lists no window
// groups (0.26.x: the window under the overlay is not known for sure).
func FreshTab(ls []kitty.OSWindow, self int) int {
	tabs := 0
	for _, ow := range ls {
		tabs += len(ow.Tabs)
	}
	if tabs < 2 {
		return 0
	}
	for _, ow := range ls {
		for _, t := range ow.Tabs {
			// A tab with a name of its own was made so (a session file, by
			// hand): not the one kitty opens by default.
			if t.TitleOverridden || len(t.Groups) != 1 || len(t.Groups[0].Windows) < 2 || t.Groups[0].Windows[0] == self {
				continue
			}
			g := t.Groups[0].Windows
			ours := false
			for _, id := range g[1:] {
				ours = ours || id == self
			}
			if !ours || len(t.Windows) != len(g) {
				continue
			}
			for _, w := range t.Windows {
				if w.ID == g[0] && untouched(w) {
					return t.ID
				}
			}
		}
	}
	return 0
}

// untouched: w's shell runs alone, at its prompt, and no command was run;
// and kitty did not open it from a session file (startup_session, --session:
// kitty 0.47 and newer name the file), which the user asked for.
func untouched(w kitty.Window) bool {
	fg := w.ForegroundProcesses
	return w.SessionName == "" && len(fg) == 1 && fg[0].PID == w.PID && w.AtPrompt != nil && *w.AtPrompt &&
		w.LastReportedCmdline == "" && !w.InAlternateScreen
}
