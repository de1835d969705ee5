package rewrite

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/kittysession"
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
// `new_tab`, `layout`, `enabled_layouts`, `set_layout_state`, `cd`, a blank
// line, then a launch line per window (each starting with
// kitty-unserialize-data holding the window's id) and `focus`; then
// `focus_tab`. So:
//   - a line that is not one of these, or not where kitty puts it, is refused;
//   - the lines between `cd` and the blank line kitty writes after it are the
//     rest of the directory's name: refused, and the `cd` becomes the
//     nearest safe parent of the directory;
//   - a launch line without kitty-unserialize-data, or with a window id that
//     another line also has, is refused; with ls (the windows kitty reported
//     at the save; nil when there is none) also one whose window kitty does
//     not have, or has in another tab than the tab's other windows;
//   - a directory (`cd`, `--cwd`) that kitty would read differently
//     (kittysession.DirProblem) becomes its nearest safe parent.
func Vet(raw []byte, ls []kitty.OSWindow) ([]byte, []string) {
	v := &vetter{ls: index(ls)}
	v.read(string(raw))
	v.checkWindows()
	v.checkDirs()
	var b strings.Builder
	for _, l := range v.lines {
		if l.refused == "" {
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
	launch    *kittysession.Launch
	tab       int          // the file's tab (0-based, counted by new_tab)
	layoutIDs map[int]bool // the windows of that tab, from its set_layout_state; nil: not known
	cdNext    bool         // a cd whose name went on past its line
	broken    bool         // a launch line with a quote left open
	refused   string
	changed   string
}

type lsWindow struct {
	cwds []string // the window's directory and its foreground processes'
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
				lw := lsWindow{cwds: []string{w.Cwd}}
				for _, p := range w.ForegroundProcesses {
					lw.cwds = append(lw.cwds, p.Cwd)
				}
				m[w.ID] = lw
			}
		}
	}
	return m
}

// The places of kitty's output: what the last kept line was.
type place int

const (
	atHeader   place = iota // an OS window begins: os_window_class, os_window_name, new_tab
	atNewTab                // layout
	atLayout                // enabled_layouts
	atEnabled               // set_layout_state
	atState                 // cd
	atCd                    // launch
	atWindows               // launch, focus, new_tab, focus_tab, new_os_window
	atFocusTab              // new_os_window
)

// read splits raw into lines and refuses those that are the rest of a
// value kitty split (regions), then those out of kitty's order. Regions come
// first so that an injected line never moves kitty's order: a broken launch
// line's rest (exact), then each cd's rest, the last cd first, so that a
// window line injected into a later tab is gone before an earlier tab
// looks for its own windows' lines.
func (v *vetter) read(s string) {
	for n := 1; s != ""; n++ {
		l := &vetLine{num: n}
		var found bool
		if l.raw, s, found = strings.Cut(s, "\n"); found {
			l.eol = "\n"
		}
		l.text = l.raw
		// kitty reads a break inside a `cd` line as the end of its
		// directory: the rest is the name's, not a line.
		if i := strings.IndexFunc(l.raw, isLineBreak); i >= 0 && isCd(l.raw) {
			l.text, l.cdNext = l.raw[:i], true
		}
		if !isBlank(l.raw) {
			l.refused = parse(l)
		}
		v.lines = append(v.lines, l)
	}
	var cds []int
	var layoutIDs map[int]bool
	for i := 0; i < len(v.lines); i++ {
		switch l := v.lines[i]; {
		case l.broken:
			i = v.brokenLaunch(i)
		case l.refused != "":
		case l.directive == "new_tab":
			layoutIDs = nil
		case l.directive == "set_layout_state":
			layoutIDs = windowIDs(l.rest)
		case l.directive == "cd":
			l.layoutIDs = layoutIDs
			cds = append(cds, i)
		}
	}
	for _, i := range slices.Backward(cds) {
		if v.lines[i].refused == "" {
			v.cdRest(i)
		}
	}
	at, tab := atHeader, -1
	layoutIDs = nil
	for _, l := range v.lines {
		if isBlank(l.raw) || l.refused != "" {
			continue
		}
		next, why := follows(at, l)
		if why != "" {
			l.refused = why
			continue
		}
		switch l.directive {
		case "new_tab":
			tab, layoutIDs = tab+1, nil
		case "set_layout_state":
			layoutIDs = windowIDs(l.rest)
		}
		l.tab, l.layoutIDs, at = tab, layoutIDs, next
	}
}

// cdRest refuses the lines after the cd at i that are the rest of its
// directory's name. kitty writes a blank line after `cd` and then the
// tab's first launch line, so a name holding a blank line could pass for
// kitty's lines up to there: the name ends at the first window of the
// tab's own (its set_layout_state's), counted by each window's last launch
// line still kept (an earlier one came with the name; a later one, from
// another name, costs lines, never lets one in). Without the tab's window
// ids, or when none of them has a line, the name ends at the blank line,
// and every launch line it holds after that is refused by checkWindows.
func (v *vetter) cdRest(i int) {
	cd := v.lines[i]
	end := -1
	last := map[int]int{} // each window of the tab -> its last line kept

	for j := i + 1; j < len(v.lines); j++ {
		if l := v.lines[j]; l.refused == "" && cd.layoutIDs[l.id()] {
			last[l.id()] = j
		}
	}
	for _, j := range last {
		if end < 0 || j < end {
			end = j
		}
	}
	for j := i + 1; j < len(v.lines) && (end < 0 || j < end); j++ {
		l := v.lines[j]
		if isBlank(l.raw) {
			if end < 0 {
				break
			}
			continue
		}
		cd.cdNext = true
		if l.refused == "" {
			l.refused = fmt.Sprintf("it follows `cd` on line %d before the tab's first window: it is the rest of that directory's name", cd.num)
		}
	}
}

// brokenLaunch refuses the lines that the launch line at i, cut by a line
// break inside a quoted value, goes on over, and returns the index of the
// last. kitty quotes each word with Python's shlex.quote, whose single
// quotes a value can reopen but never leave open: the line ends with the
// first following line that closes the quote.
func (v *vetter) brokenLaunch(i int) int {
	text := v.lines[i].raw
	for j := i + 1; j < len(v.lines) && j <= i+maxBrokenLines; j++ {
		text += "\n" + v.lines[j].raw
		if !unclosedQuote(text) {
			for k := i + 1; k <= j; k++ {
				v.lines[k].refused = fmt.Sprintf("the launch line on line %d goes on here: a value of it holds a line break", v.lines[i].num)
			}
			return j
		}
	}
	return i
}

// maxBrokenLines bounds how far a broken launch line is followed.
const maxBrokenLines = 256

func unclosedQuote(line string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
	return err != nil && strings.Contains(err.Error(), "without closing quote")
}

func isBlank(s string) bool { return strings.TrimFunc(s, isPySpace) == "" }

// id is the window id of a launch line, 0 if it has none.
func (l *vetLine) id() int {
	if l.launch == nil || l.launch.Unserialize == nil {
		return 0
	}
	return l.launch.Unserialize.ID()
}

// windowIDs are the windows a set_layout_state lists (all_windows, which
// kitty writes for every layout); nil when it lists none.
func windowIDs(state string) map[int]bool {
	var st struct {
		AllWindows struct {
			WindowGroups []struct {
				WindowIDs []int `json:"window_ids"`
			} `json:"window_groups"`
		} `json:"all_windows"`
	}
	if json.Unmarshal([]byte(state), &st) != nil {
		return nil
	}
	var ids map[int]bool
	for _, g := range st.AllWindows.WindowGroups {
		for _, id := range g.WindowIDs {
			if ids == nil {
				ids = map[int]bool{}
			}
			ids[id] = true
		}
	}
	return ids
}

// parse fills l's directive, rest and launch, or says why kitty's output
// holds no such line.
func parse(l *vetLine) string {
	if !utf8.ValidString(l.text) {
		return "not valid UTF-8, which kitty writes"
	}
	if strings.ContainsFunc(l.text, isLineBreak) {
		return "it holds a character kitty reads as a line break: part of a value, not a line kitty wrote"
	}
	f, err := kittysession.Parse([]byte(l.text))
	if err != nil || len(f.Lines) != 1 {
		l.broken = isLaunch(l.text) && unclosedQuote(l.text)
		return fmt.Sprintf("kitty does not write such a line (%v)", err)
	}
	pl := f.Lines[0]
	l.directive, l.rest, l.launch = pl.Directive, pl.Rest, pl.Launch
	if l.directive == "" {
		return "kitty writes no comments"
	}
	return ""
}

// follows says where kitty's output is after l, which comes at at, or why
// kitty writes no such line there. A tab's header lines (layout,
// enabled_layouts, set_layout_state, cd) come in kitty's order, each at
// most once; one missing is let pass (kitty reads the file without it).
func follows(at place, l *vetLine) (place, string) {
	inHeader := func(p place) bool { return at >= atNewTab && at < p }
	misplaced := "kitty does not write `" + l.directive + "` there"
	switch l.directive {
	case "new_os_window":
		if at == atNewTab || at == atLayout || at == atEnabled || at == atState || at == atCd || l.rest != "" {
			return at, misplaced
		}
		return atHeader, ""
	case "os_window_class", "os_window_name":
		if at != atHeader {
			return at, misplaced
		}
		return atHeader, ""
	case "new_tab":
		if at == atFocusTab {
			return at, misplaced
		}
		return atNewTab, ""
	case "layout":
		if !inHeader(atLayout) || !knownLayout(l.rest) {
			return at, misplaced + " (or not that layout)"
		}
		return atLayout, ""
	case "enabled_layouts":
		for _, name := range strings.Split(l.rest, ",") {
			if name = strings.TrimSpace(name); !knownLayout(name) && name != "*" {
				return at, "not a layout kitty knows: " + strconv.Quote(name)
			}
		}
		if !inHeader(atEnabled) {
			return at, misplaced
		}
		return atEnabled, ""
	case "set_layout_state":
		if !inHeader(atState) || !strings.HasPrefix(l.rest, "{") || !json.Valid([]byte(l.rest)) {
			return at, misplaced + " (or its JSON does not read)"
		}
		return atState, ""
	case "cd":
		if !inHeader(atCd) {
			return at, misplaced
		}
		return atCd, ""
	case "launch":
		if at < atNewTab || at == atFocusTab {
			return at, misplaced
		}
		return atWindows, ""
	case "focus":
		if at != atWindows || l.rest != "" {
			return at, misplaced
		}
		return atWindows, ""
	case "focus_tab":
		if _, err := strconv.Atoi(l.rest); err != nil || at != atWindows {
			return at, misplaced
		}
		return atFocusTab, ""
	}
	return at, "kitty's save does not write `" + l.directive + "`"
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
		}
	}
}

// launches are the launch lines still kept.
func (v *vetter) launches() []*vetLine {
	var out []*vetLine
	for _, l := range v.lines {
		if l.refused == "" && l.launch != nil {
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
				dir, why = kittysession.SafeDir(l.rest+"\n"), "the directory's name goes on past the line"
			case kittysession.DirProblem(l.rest) != "":
				dir, why = kittysession.SafeDir(l.rest), kittysession.DirProblem(l.rest)
			default:
				if cut := v.cutOff(l); cut != "" {
					dir, why = kittysession.SafeDir(cut), "the directory "+strconv.Quote(cut)+" of its windows cannot be written on one line"
				}
			}
			if why != "" {
				l.text = l.raw[:len(l.raw)-len(strings.TrimLeftFunc(l.raw, isPySpace))] + "cd " + dir
				l.changed = fmt.Sprintf("%s; written as its nearest safe parent %s", why, dir)
			}
		case l.launch != nil:
			cwd, ok := l.launch.Option("--cwd")
			if !ok || cwd == "" || kittysession.DirProblem(cwd) == "" {
				continue
			}
			dir := kittysession.SafeDir(cwd)
			if err := l.launch.SetOption("--cwd", dir); err != nil {
				l.refused = err.Error()
				continue
			}
			f := &kittysession.File{Lines: []*kittysession.Line{{Raw: l.raw, Launch: l.launch, Directive: "launch"}}}
			text, err := f.Encode()
			if err != nil {
				l.refused = err.Error()
				continue
			}
			l.text = string(text)
			l.changed = fmt.Sprintf("%s; written as its nearest safe parent %s", kittysession.DirProblem(cwd), dir)
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
			if len(w) > len(cd.rest) && strings.HasPrefix(w, cd.rest) && kittysession.DirProblem(w) != "" {
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
