package rewrite

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// Vet keeps of a raw save (kitty's save_as_session) only the lines kitty
// writes, in the places it writes them, for windows it has; each line
// refused or changed is said in a warning, and nothing in it fails the save.
//
// kitty 0.48.2 writes a tab's directory (`cd DIR`) unquoted and a launch
// line's words in single quotes, so a line break in a directory name (or in
// any value: an OSC 7 report, a user var) ends kitty's line and starts one
// the name chose: `launch sh -c ...` would run on restore. What kitty writes
// is fixed (kitty/tabs.py serialize_state_as_session): per OS window
// optional `new_os_window`, `os_window_class`, `os_window_name`; per tab
// `new_tab`, `layout`, `enabled_layouts`, `set_layout_state` (which lists
// the tab's windows), `cd`, a blank line, then a launch line per window
// (starting with kitty-unserialize-data holding the window's id) and
// `focus`; then `focus_tab`. So:
//   - the lines after a `cd` up to the tab's first own window are the rest
//     of the directory's name, and the lines after a launch line left with a
//     quote open up to where the quote closes are the rest of that line:
//     refused (vet_read.go);
//   - a line that is not one of kitty's, or not where kitty puts it, is
//     refused;
//   - a launch line without kitty-unserialize-data, with a window id that
//     another line also has, or one its tab's set_layout_state does not list
//     is refused; with ls (the windows kitty reported at the save, in what
//     it saved; nil when there is none) also one kitty does not have;
//   - a directory (`cd`, `--cwd`) that kitty would read differently
//     (sessionfile.DirProblem), or a `cd` that is the cut-off beginning of
//     a directory of the tab's windows, becomes its nearest safe parent.
func Vet(raw []byte, ls []kitty.OSWindow) ([]byte, []string) {
	v := &vetter{ls: index(ls)}
	v.read(string(raw))
	v.checkWindows()
	v.checkDirs()
	var b strings.Builder
	for _, l := range v.lines {
		if l.refused == "" && !l.dropped {
			b.WriteString(l.text)
			b.WriteString(l.eol)
		}
	}
	var warnings []string
	for _, l := range v.lines {
		switch {
		case l.refused != "":
			warnings = append(warnings, fmt.Sprintf("kitty's save, line %d %s: refused: %s", l.num, shown(l.raw), l.refused))
		case l.changed != "":
			warnings = append(warnings, fmt.Sprintf("kitty's save, line %d %s: %s", l.num, shown(l.raw), l.changed))
		}
	}
	return []byte(b.String()), warnings
}

// vetLine is one line of the raw save and what Vet made of it.
type vetLine struct {
	num       int
	raw, eol  string
	text      string // as written: raw, or with its directory replaced
	directive string
	rest      string
	launch    *sessionfile.Launch
	tab       int          // the file's tab (0-based, counted by new_tab)
	layoutIDs map[int]bool // the windows of that tab, from its set_layout_state; nil: not known
	cdNext    bool         // a cd whose name went on past its line
	broken    bool         // a launch line with a quote left open
	dropped   bool         // left out without a word: kittymux's own offer
	refused   string
	changed   string
}

type lsWindow struct {
	cwds  []string // the window's directory and its foreground processes'
	offer bool     // it runs kittymux's offer of an ended kitty's session
}

type vetter struct {
	lines []*vetLine
	ls    map[int]lsWindow // nil: no ls to check against
}

func index(ls []kitty.OSWindow) map[int]lsWindow {
	if ls == nil {
		return nil
	}
	m := map[int]lsWindow{}
	for _, osw := range ls {
		for _, t := range osw.Tabs {
			for _, w := range t.Windows {
				lw := lsWindow{cwds: []string{w.Cwd}, offer: isOffer(w.Cmdline)}
				for _, p := range w.ForegroundProcesses {
					lw.cwds = append(lw.cwds, p.Cwd)
				}
				m[w.ID] = lw
			}
		}
	}
	return m
}

// isOffer reports whether a window's process (as kitty read it) is
// kittymux's offer of an ended kitty's session, the overlay the scanner
// opens in a kitty that starts. It has done its work once that kitty is
// saved: restored, it would offer the same session again.
func isOffer(cmdline []string) bool {
	return len(cmdline) >= 3 && filepath.Base(cmdline[0]) == "kittymux" && cmdline[1] == "sessions" && cmdline[2] == "offer"
}

// checkWindows refuses launch lines that are not kitty's line for a window
// it has: no window id, an id twice, a window its tab's set_layout_state
// does not list, and with ls a window kitty does not have.
func (v *vetter) checkWindows() {
	count := map[int]int{}
	for _, l := range v.launches() {
		if l.launch.Unserialize == nil || l.launch.Unserialize.ID() <= 0 {
			l.refused = "a launch line without kitty-unserialize-data and a window id: kitty's save writes none"
			continue
		}
		count[l.launch.Unserialize.ID()]++
	}
	for _, l := range v.launches() {
		id := l.launch.Unserialize.ID()
		switch _, inLS := v.ls[id]; {
		case count[id] > 1:
			l.refused = fmt.Sprintf("window %d has %d launch lines, and only one of them is kitty's", id, count[id])
		case l.layoutIDs != nil && !l.layoutIDs[id]:
			l.refused = fmt.Sprintf("window %d is not one of the windows the tab's set_layout_state lists", id)
		case v.ls != nil && !inLS:
			l.refused = fmt.Sprintf("kitty had no window %d in what it saved", id)
		case v.ls[id].offer:
			l.dropped = true
		}
	}
}

// launches are the launch lines still kept.
func (v *vetter) launches() []*vetLine {
	var out []*vetLine
	for _, l := range v.lines {
		if l.refused == "" && !l.dropped && l.launch != nil {
			out = append(out, l)
		}
	}
	return out
}

// checkDirs replaces each directory kitty would read differently from the
// window's own by its nearest safe parent: a `cd` whose name went on past
// its line, a `cd` that is a cut-off beginning of a directory of the tab's
// windows (kitty strips blanks and breaks the line), and any cd or --cwd
// that DirProblem refuses.
func (v *vetter) checkDirs() {
	for _, l := range v.lines {
		if l.refused != "" {
			continue
		}
		switch {
		case l.directive == "cd":
			dir, why := l.rest, ""
			switch {
			case l.cdNext:
				dir, why = sessionfile.SafeDir(l.rest+"\n"), "the directory's name goes on past the line"
			case sessionfile.DirProblem(l.rest) != "":
				dir, why = sessionfile.SafeDir(l.rest), sessionfile.DirProblem(l.rest)
			default:
				if cut := v.cutOff(l); cut != "" {
					dir, why = sessionfile.SafeDir(cut), "the directory "+strconv.Quote(cut)+" of its windows cannot be written on one line"
				}
			}
			if why != "" {
				l.text = l.raw[:len(l.raw)-len(strings.TrimLeftFunc(l.raw, isPySpace))] + "cd " + dir
				l.changed = fmt.Sprintf("%s; written as its nearest safe parent %s", why, dir)
			}
		case l.launch != nil:
			cwd, ok := l.launch.Option("--cwd")
			if !ok || cwd == "" || sessionfile.DirProblem(cwd) == "" {
				continue
			}
			dir := sessionfile.SafeDir(cwd)
			if err := l.launch.SetOption("--cwd", dir); err != nil {
				l.refused = err.Error()
				continue
			}
			f := &sessionfile.File{Lines: []*sessionfile.Line{{Raw: l.text, Launch: l.launch, Directive: "launch"}}}
			text, err := f.Encode()
			if err != nil {
				l.refused = err.Error()
				continue
			}
			l.text = string(text)
			l.changed = fmt.Sprintf("%s; written as its nearest safe parent %s", sessionfile.DirProblem(cwd), dir)
		}
	}
}

// cutOff returns a directory of the windows of cd's tab (its
// set_layout_state's, else its launch lines') that cd's value is the
// cut-off beginning of (kitty stripped blanks or broke the line after it),
// or "".
func (v *vetter) cutOff(cd *vetLine) string {
	if v.ls == nil {
		return ""
	}
	ids := cd.layoutIDs
	if ids == nil {
		ids = map[int]bool{}
		for _, l := range v.launches() {
			if l.tab == cd.tab {
				ids[l.id()] = true
			}
		}
	}
	for id := range ids {
		for _, w := range v.ls[id].cwds {
			if len(w) > len(cd.rest) && strings.HasPrefix(w, cd.rest) && sessionfile.DirProblem(w) != "" {
				if r, _ := utf8.DecodeRuneInString(w[len(cd.rest):]); isPySpace(r) || isLineBreak(r) {
					return w
				}
			}
		}
	}
	return ""
}

func isCd(line string) bool { return firstWord(line) == "cd" }

func isLaunch(line string) bool { return firstWord(line) == "launch" }

func firstWord(line string) string {
	line = strings.TrimLeftFunc(line, isPySpace)
	if i := strings.IndexFunc(line, isPySpace); i >= 0 {
		return line[:i]
	}
	return line
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

// shown is a line for a warning: printable, and not too long.
func shown(s string) string {
	r := []rune(kitty.Printable(s))
	if len(r) > 80 {
		r = append(r[:77], []rune("...")...)
	}
	return strconv.Quote(string(r))
}
