package rewrite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// Vet accounts for every line of a raw save (kitty's save_as_session)
// against what kittymux knows from ls, and keeps only what it can account
// for; each line left out or value changed is said in a warning, and
// nothing in it fails the save.
//
// kitty's raw save cannot be read as plain lines. kitty writes a tab's
// directory (`cd DIR`), a named tab's title and an OS window's class and
// name raw, and takes the directory from what the window's shell last
// reported (OSC 7, text any program can print), newlines included: a
// directory "x⏎⏎launch sh -c ..." puts a line of its own into the file. So
// the file is read as kitty writes it (kitty/tabs.py serialize_state_as_session,
// kitty/window.py as_launch_command), by consuming the strings kitty writes
// for each tab that ls lists, never by splitting on a newline and guessing
// where a value ends:
//
//   - a tab's header (new_tab [NAME], layout, enabled_layouts,
//     set_layout_state) must be the one of a tab ls lists, with its window
//     groups;
//   - its `cd` is one of the directories ls gives for the tab's windows
//     (their own and their foreground processes'), whatever bytes it holds,
//     or a plain one-line path naming the same directory;
//   - then one launch line per window, each one shell word list (its quoted
//     values may span lines), in the order of the tab's groups, each window
//     at most once, first in its group (kitty writes no line for an
//     overlay, an ask window or a window with an action on close, and
//     kittymux restores none), with kitty-unserialize-data naming it; its
//     values are checked against the window's known fields (directory,
//     title, user vars, environment, command, the command kitty reports it
//     ran), and one that does not match is replaced by the known one or
//     left out;
//   - an optional `focus`, then the next tab, OS window or focus_tab.
//
// A tab whose lines cannot be accounted for is written by kittymux from ls
// (its layout, its windows as shells in their directories, an agent's
// window with its foreground command as ls lists it: the rewrite then
// turns the agent windows into their records) with a warning, never
// dropped, and it never fails the other tabs. Without ls (a raw save
// published after kitty is gone, without the ls the watcher writes beside
// it), the tabs are those the save's own set_layout_state lines name, and
// only their structure is checked.
func Vet(raw []byte, ls []kitty.OSWindow) ([]byte, []string) {
	return vet(raw, ls, nil, nil, nil)
}

// AgentArgv is the command of an agent window's foreground process as ls
// lists it (what kitty's save writes for the window), nil for a window
// that runs no agent: a tab written from ls keeps it, so that the rewrite
// reads the window as it reads kitty's own line for it.
type AgentArgv func(w *kitty.Window) []string

// Execd tells whether argv, the command a window was launched with, is a
// restore record kittymux sealed that exec'd the agent ls now lists in the
// window (running, in its directory): kitty writes a window's launch
// command as it was created, where ls lists what the window runs now.
type Execd func(argv []string, w *kitty.Window) bool

// ReadsAs tells whether c, the command a window's shell was to run (a
// line the shell reported, or an argv kitty read), reads as the same agent
// command (agent, flags, environment) as argv, a process's.
type ReadsAs func(c sessionfile.CmdAtShellStartup, argv []string) bool

// vet is Vet; a launch command that is not what ls lists is kept when
// execd (nil: none) vouches for it, and a tab written from ls runs in each
// agent window what agentArgv (nil: none) gives, as does a window whose
// shell was to run a command that does not read as that agent's (readsAs).
func vet(raw []byte, ls []kitty.OSWindow, execd Execd, agentArgv AgentArgv, readsAs ReadsAs) ([]byte, []string) {
	m := newModel(ls, string(raw))
	m.execd, m.agentArgv, m.readsAs = execd, agentArgv, readsAs
	a := &accountant{src: string(raw), m: m, seen: map[int]bool{}}
	a.run()
	return a.out, a.warnings
}

// model is what kittymux knows of the kitty that saved.
type model struct {
	fromLS    bool
	execd     Execd
	agentArgv AgentArgv
	readsAs   ReadsAs
	// legacy: no ls, and the save holds no set_layout_state (kitty 0.43
	// and newer write one for every tab): a file written by hand, whose
	// tabs are read as they come, any window once.
	legacy  bool
	tabs    []*tabModel
	classes map[string]bool // OS windows' wm_class and wm_name
}

// tabModel is one tab that kitty may have written.
type tabModel struct {
	tab    *kitty.Tab // nil without ls
	groups [][]int    // window ids by group, in kitty's order
	wins   map[int]*kitty.Window
	done   bool
	legacy bool        // groups unknown: any window, each once
	places map[int]int // each window's place in the groups, once asked
	firsts map[int]bool
}

func newModel(ls []kitty.OSWindow, raw string) *model {
	m := &model{fromLS: ls != nil, classes: map[string]bool{}}
	if ls == nil {
		m.tabsFromSave(raw)
		return m
	}
	for i := range ls {
		o := &ls[i]
		m.classes["class "+o.WMClass] = true
		m.classes["name "+o.WMName] = true
		for j := range o.Tabs {
			t := &o.Tabs[j]
			tm := &tabModel{tab: t, wins: map[int]*kitty.Window{}}
			for k := range t.Windows {
				tm.wins[t.Windows[k].ID] = &t.Windows[k]
			}
			tm.groups = tabGroups(t)
			m.tabs = append(m.tabs, tm)
		}
	}
	return m
}

// tabGroups are the tab's window groups from ls (kitty 0.26.5 lists none:
// each window its own group).
func tabGroups(t *kitty.Tab) [][]int {
	var out [][]int
	for _, g := range t.Groups {
		if len(g.Windows) > 0 {
			out = append(out, slices.Clone(g.Windows))
		}
	}
	if out == nil {
		for _, w := range t.Windows {
			out = append(out, []int{w.ID})
		}
	}
	return out
}

// tabsFromSave makes the model of a save without ls: one tab per distinct
// set_layout_state the save holds.
func (m *model) tabsFromSave(raw string) {
	seen := map[string]bool{}
	for line := range strings.SplitSeq(raw, "\n") {
		state, ok := strings.CutPrefix(line, "set_layout_state ")
		if !ok {
			continue
		}
		groups := layoutGroups(state)
		if groups == nil || seen[fmt.Sprint(groups)] {
			continue
		}
		seen[fmt.Sprint(groups)] = true
		m.tabs = append(m.tabs, &tabModel{groups: groups})
	}
	m.legacy = len(m.tabs) == 0
}

// first reports whether id is the first window of its group: the only one
// a restore brings back.
func (t *tabModel) first(id int) bool {
	if t.legacy {
		return true
	}
	if t.firsts == nil {
		t.firsts = map[int]bool{}
		for _, g := range t.groups {
			t.firsts[g[0]] = true
		}
	}
	return t.firsts[id]
}

// cwds are the directories ls knows for window id: its own and its
// foreground processes'.
func (t *tabModel) cwds(id int) []string {
	w := t.wins[id]
	if w == nil {
		return nil
	}
	out := []string{w.Cwd}
	for _, p := range w.ForegroundProcesses {
		out = append(out, p.Cwd)
	}
	return out
}

// tabCwds are the directories ls knows for any window of the tab, longest
// first (a `cd` is consumed as the longest that fits).
func (t *tabModel) tabCwds() []string {
	var out []string
	for _, g := range t.groups {
		for _, id := range g {
			for _, c := range t.cwds(id) {
				if c != "" && !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// isOffer reports whether a window's process (as kitty read it) is
// kittymux's offer of an ended kitty's session, the overlay the scanner
// opens in a kitty that starts. It has done its work once that kitty is
// saved: restored, it would offer the same session again.
func isOffer(w *kitty.Window) bool {
	if w == nil {
		return false
	}
	c := w.Cmdline
	return len(c) >= 3 && filepath.Base(c[0]) == "kittymux" && c[1] == "sessions" && c[2] == "offer"
}

// sameDir reports whether dir, a plain one-line path, names the directory
// known (the shell reports its logical path, /proc the physical one).
func sameDir(dir, known string) bool {
	if dir == known {
		return true
	}
	if dir == "" || known == "" || strings.ContainsFunc(dir, isAnyBreak) || !filepath.IsAbs(dir) {
		return false
	}
	a, err := os.Stat(dir)
	if err != nil || !a.IsDir() {
		return false
	}
	b, err := os.Stat(known)
	return err == nil && os.SameFile(a, b)
}

// isPySpace is Python's str.isspace, which kitty's strip and split use.
func isPySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// isLineBreak is where Python's str.splitlines breaks a line besides "\n".
func isLineBreak(r rune) bool {
	switch r {
	case '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

func isAnyBreak(r rune) bool { return r == '\n' || isLineBreak(r) }

// shown is a line for a warning: printable, and not too long.
func shown(s string) string {
	r := []rune(kitty.Printable(s))
	if len(r) > 80 {
		r = append(r[:77], []rune("...")...)
	}
	return strconv.Quote(string(r))
}

// knownLayout: kitty refuses the whole file at a layout it does not know.
func knownLayout(s string) bool {
	name, _, _ := strings.Cut(s, ":")
	switch name {
	case "fat", "grid", "horizontal", "splits", "stack", "tall", "vertical":
		return true
	}
	return false
}
