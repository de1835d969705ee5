package kitty

import "encoding/json"

// OSWindow is one OS window of kitty's `ls`.
type OSWindow struct {
	ID          int    `json:"id"`
	IsActive    bool   `json:"is_active"`
	IsFocused   bool   `json:"is_focused"`
	LastFocused bool   `json:"last_focused"`
	WMClass     string `json:"wm_class"`
	WMName      string `json:"wm_name"`
	Tabs        []Tab  `json:"tabs"`
}

// Tab is one tab of an OS window.
type Tab struct {
	ID                  int             `json:"id"`
	Title               string          `json:"title"`
	IsActive            bool            `json:"is_active"` // 0.26.x: is_active_tab
	IsFocused           bool            `json:"is_focused"`
	Layout              string          `json:"layout"`
	EnabledLayouts      []string        `json:"enabled_layouts"`
	LayoutState         json.RawMessage `json:"layout_state,omitempty"`
	ActiveWindowHistory []int           `json:"active_window_history"`
	Windows             []Window        `json:"windows"`
	// Groups are the tab's window groups in kitty's order (a window and
	// the overlays over it); 0.26.x lists none.
	Groups []Group `json:"groups,omitempty"`
	// TitleOverridden: the tab has a name of its own (Title is it).
	TitleOverridden bool `json:"title_overridden,omitempty"`
}

// Group is one window group of a tab: its windows, the first the one the
// overlays are over.
type Group struct {
	ID      int   `json:"id"`
	Windows []int `json:"windows"`
}

// Window is one kitty window (a split or a whole tab). Fields that only newer
// kitty reports are pointers or zero on 0.26.x: see version.go for versions.
type Window struct {
	ID                  int               `json:"id"`
	Title               string            `json:"title"`
	PID                 int               `json:"pid"`
	Cwd                 string            `json:"cwd"`
	Cmdline             []string          `json:"cmdline"`
	Env                 map[string]string `json:"env"`
	ForegroundProcesses []Process         `json:"foreground_processes"`
	IsFocused           bool              `json:"is_focused"`
	IsActive            bool              `json:"is_active"` // 0.26.x: is_active_window
	IsSelf              bool              `json:"is_self"`
	Lines               int               `json:"lines"`
	Columns             int               `json:"columns"`
	TitleOverridden     bool              `json:"title_overridden"`

	// 0.30+
	UserVars map[string]string `json:"user_vars,omitempty"`
	// 0.30.1+; nil when kitty does not say.
	AtPrompt *bool `json:"at_prompt,omitempty"`
	// 0.33+: nanoseconds since the epoch.
	CreatedAt int64 `json:"created_at,omitempty"`
	// 0.35+
	LastReportedCmdline string `json:"last_reported_cmdline,omitempty"`
	LastCmdExitStatus   int    `json:"last_cmd_exit_status,omitempty"`
	InAlternateScreen   bool   `json:"in_alternate_screen,omitempty"`
	// 0.47+
	SessionName    string  `json:"session_name,omitempty"`
	LastFocusedAt  float64 `json:"last_focused_at,omitempty"`
	NeedsAttention bool    `json:"needs_attention,omitempty"`
}

// Process is one of a window's foreground processes.
type Process struct {
	PID     int      `json:"pid"`
	Cmdline []string `json:"cmdline"`
	Cwd     string   `json:"cwd"`
}

// The wire types read ls in one pass: 0.26.x's is_active_tab and
// is_active_window land beside is_active, with no UnmarshalJSON method on the
// way (one would have each tab and window parsed again, a few times over,
// which a large ls feels). Each wire field shadows the plain type's field
// of the same JSON name.
type (
	plainOSWindow OSWindow
	plainTab      Tab
	plainWindow   Window
	wireOSWindow  struct {
		plainOSWindow
		Tabs []wireTab `json:"tabs"`
	}
	wireTab struct {
		plainTab
		Windows []wireWindow `json:"windows"`
		Old     *bool        `json:"is_active_tab"`
	}
	wireWindow struct {
		plainWindow
		Old *bool `json:"is_active_window"`
	}
)

func (w wireOSWindow) osWindow() OSWindow {
	o := OSWindow(w.plainOSWindow)
	o.Tabs = nil
	if w.Tabs != nil {
		o.Tabs = make([]Tab, len(w.Tabs))
		for i, t := range w.Tabs {
			o.Tabs[i] = t.tab()
		}
	}
	return o
}

func (w wireTab) tab() Tab {
	t := Tab(w.plainTab)
	if w.Old != nil {
		t.IsActive = *w.Old
	}
	t.Windows = nil
	if w.Windows != nil {
		t.Windows = make([]Window, len(w.Windows))
		for i, win := range w.Windows {
			t.Windows[i] = win.window()
		}
	}
	return t
}

func (w wireWindow) window() Window {
	win := Window(w.plainWindow)
	if w.Old != nil {
		win.IsActive = *w.Old
	}
	return win
}

// DecodeLS reads an ls document (the JSON list kitty's ls returns, or what
// kittymux's watcher writes of boss.list_os_windows), old field names
// included.
func DecodeLS(b []byte) ([]OSWindow, error) { return decodeLS(b) }

// decodeLS reads an ls document, old field names included.
func decodeLS(b []byte) ([]OSWindow, error) {
	var ws []wireOSWindow
	if err := json.Unmarshal(b, &ws); err != nil {
		return nil, err
	}
	out := make([]OSWindow, len(ws))
	for i, w := range ws {
		out[i] = w.osWindow()
	}
	return out, nil
}

// UnmarshalJSON accepts 0.26.x's is_active_tab as is_active.
func (t *Tab) UnmarshalJSON(b []byte) error {
	var w wireTab
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*t = w.tab()
	return nil
}

// UnmarshalJSON accepts 0.26.x's is_active_window as is_active.
func (w *Window) UnmarshalJSON(b []byte) error {
	var v wireWindow
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*w = v.window()
	return nil
}

// Utility names the kind of utility kitty an OS window belongs to ("panel",
// "quick-access") or "" for an ordinary one. Panels and the quick-access
// terminal are separate kitty processes that kittymux leaves alone.
func (o OSWindow) Utility() string {
	switch o.WMClass {
	case "kitty-panel":
		return "panel"
	case "kitty-quick-access":
		return "quick-access"
	}
	return ""
}

// WindowRef is a window with the tab and OS window that hold it.
type WindowRef struct {
	OSWindow *OSWindow
	Tab      *Tab
	Window   *Window
}

// Windows lists every window of ls output in order, leaving out utility OS
// windows.
func Windows(ls []OSWindow) []WindowRef {
	var out []WindowRef
	for i := range ls {
		o := &ls[i]
		if o.Utility() != "" {
			continue
		}
		for j := range o.Tabs {
			t := &o.Tabs[j]
			for k := range t.Windows {
				out = append(out, WindowRef{OSWindow: o, Tab: t, Window: &t.Windows[k]})
			}
		}
	}
	return out
}

// The lean wire types read ls for watching: what a window was started with
// (env, cmdline) and a tab's layout are skipped, not built, which is most
// of the allocations of a large ls. Their fields stay zero.
type (
	skipped    struct{}
	leanWindow struct {
		plainWindow
		Old     *bool   `json:"is_active_window"`
		Env     skipped `json:"env"`
		Cmdline skipped `json:"cmdline"`
	}
	leanTab struct {
		plainTab
		Windows             []leanWindow `json:"windows"`
		Old                 *bool        `json:"is_active_tab"`
		LayoutState         skipped      `json:"layout_state"`
		EnabledLayouts      skipped      `json:"enabled_layouts"`
		ActiveWindowHistory skipped      `json:"active_window_history"`
	}
	leanOSWindow struct {
		plainOSWindow
		Tabs []leanTab `json:"tabs"`
	}
)

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// decodeLSLean reads an ls document as decodeLS does, leaving out windows'
// env and cmdline and tabs' layouts.
func decodeLSLean(b []byte) ([]OSWindow, error) {
	var ws []leanOSWindow
	if err := json.Unmarshal(b, &ws); err != nil {
		return nil, err
	}
	out := make([]OSWindow, len(ws))
	for i, w := range ws {
		o := OSWindow(w.plainOSWindow)
		o.Tabs = make([]Tab, len(w.Tabs))
		for j, lt := range w.Tabs {
			t := Tab(lt.plainTab)
			if lt.Old != nil {
				t.IsActive = *lt.Old
			}
			t.Windows = make([]Window, len(lt.Windows))
			for k, lw := range lt.Windows {
				win := Window(lw.plainWindow)
				if lw.Old != nil {
					win.IsActive = *lw.Old
				}
				t.Windows[k] = win
			}
			o.Tabs[j] = t
		}
		out[i] = o
	}
	return out, nil
}
