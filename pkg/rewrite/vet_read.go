package rewrite

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/sessionfile"
)

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
//
// The window keeps its line when the values holding a line break can go:
// a user var or a title is left out, a directory becomes its nearest safe
// parent (repair); otherwise the first line is refused too.
func (v *vetter) brokenLaunch(i int) int {
	text := v.lines[i].raw
	for j := i + 1; j < len(v.lines) && j <= i+maxBrokenLines; j++ {
		text += "\n" + v.lines[j].raw
		if !unclosedQuote(text) {
			for k := i + 1; k <= j; k++ {
				v.lines[k].refused = fmt.Sprintf("the launch line on line %d goes on here: a value of it holds a line break", v.lines[i].num)
			}
			v.repair(v.lines[i], text, v.lines[j].num)
			return j
		}
	}
	return i
}

// repair makes l the launch line text, which kitty wrote over lines l.num
// to last, without the values that held a line break, when it can.
func (v *vetter) repair(l *vetLine, text string, last int) {
	pl, err := sessionfile.ParseLine(text)
	if err != nil || pl.Launch == nil {
		return
	}
	lw := pl.Launch
	var dropped []string
	kept := lw.Options[:0:0]
	for _, o := range lw.Options {
		if !strings.ContainsFunc(o.Value, isAnyBreak) {
			kept = append(kept, o)
			continue
		}
		// kitty writes whole option names (Window.as_launch_command).
		switch o.Name {
		case "--cwd": // made safe below
			kept = append(kept, o)
		case "--var", "--title":
			dropped = append(dropped, o.Name)
		default:
			return
		}
	}
	lw.Options = kept
	why := fmt.Sprintf("kitty wrote it over lines %d-%d (a value held a line break)", l.num, last)
	if len(dropped) > 0 {
		why += "; left out: " + strings.Join(dropped, ", ")
	}
	if cwd, ok := lw.Option("--cwd"); ok && sessionfile.DirProblem(cwd) != "" {
		dir := sessionfile.SafeDir(cwd)
		if lw.SetOption("--cwd", dir) != nil {
			return
		}
		why += "; its directory is written as its nearest safe parent " + dir
	}
	out, err := (&sessionfile.File{Lines: []*sessionfile.Line{pl}}).Encode()
	if err != nil || strings.ContainsFunc(string(out), isAnyBreak) {
		return
	}
	l.text, l.directive, l.rest, l.launch, l.broken = string(out), pl.Directive, pl.Rest, lw, false
	l.refused, l.changed = "", why
}

func isAnyBreak(r rune) bool { return r == '\n' || isLineBreak(r) }

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
	f, err := sessionfile.Parse([]byte(l.text))
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
