package restart

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/kitty"
)

// LSMatch returns kitty's windows, only those kitty matches with expr when
// it is not "" (kitty's own match expressions, through ls --match, kitty
// 0.30 or newer). Older kitty ignores the match: there only id:N is
// understood, here.
func LSMatch(ctx context.Context, c *kitty.Client, expr string) ([]kitty.OSWindow, error) {
	if expr == "" {
		return c.LS(ctx)
	}
	data, err := c.Do(ctx, "ls", map[string]any{"match": expr}, false)
	if err != nil {
		if strings.Contains(err.Error(), "No matching") {
			return nil, nil
		}
		return nil, err
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("kitty @ ls: %w", kitty.ErrBadReply)
	}
	var ls []kitty.OSWindow
	if err := json.Unmarshal([]byte(s), &ls); err != nil {
		return nil, fmt.Errorf("kitty @ ls: %w: %v", kitty.ErrBadReply, err)
	}
	ws := kitty.Windows(ls)
	if len(ws) == 0 || ws[0].Window.UserVars != nil {
		return ls, nil // kitty 0.30 or newer: it matched
	}
	id, ok := strings.CutPrefix(expr, "id:")
	n, err := strconv.Atoi(id)
	if !ok || err != nil {
		return nil, fmt.Errorf("--match %q needs kitty 0.30 or newer (ls --match); with this kitty only id:N works", expr)
	}
	return keepWindow(ls, n), nil
}

// keepWindow is ls with only window id left in it.
func keepWindow(ls []kitty.OSWindow, id int) []kitty.OSWindow {
	var out []kitty.OSWindow
	for _, o := range ls {
		var tabs []kitty.Tab
		for _, t := range o.Tabs {
			for _, w := range t.Windows {
				if w.ID == id {
					t.Windows = []kitty.Window{w}
					tabs = append(tabs, t)
				}
			}
		}
		if len(tabs) > 0 {
			o.Tabs = tabs
			out = append(out, o)
		}
	}
	return out
}
