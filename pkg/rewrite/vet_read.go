package rewrite

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// maxLaunchLines bounds how many lines one launch line (its quoted values
// holding line breaks) is followed over.
const maxLaunchLines = 256

// accountant reads a raw save from its start, consuming what kitty writes.
type accountant struct {
	src      string
	pos      int
	m        *model
	out      []byte
	warnings []string
	seen     map[int]bool    // the windows of a legacy file
	breaks   []int           // where the lines end, once a warning needs a line number
	ids      map[int]bool    // the windows the save names, once a tab is written from ls
	states   map[string]bool // the save's set_layout_state groups, once asked
	// last is the tab accounted just before, while only blank lines
	// followed it: lines that are not kitty's after it mean its end was
	// not where it seemed, and it is written from ls instead.
	last *lastTab
}

type lastTab struct {
	t        *tabModel
	out      int // len(out) before its lines
	warnings int // len(warnings) before its own
	start    int // its new_tab line
	header   string
}

func (a *accountant) run() {
	head := true // where os_window_class and os_window_name may come
	for a.pos < len(a.src) {
		line, next := a.line(a.pos)
		switch {
		case line == "":
			a.keep(next)
		case line == "new_os_window":
			a.keep(next)
			head, a.last = true, nil
		case head && a.osWindowLine(line):
			a.keep(next)
		case isNewTab(line) && a.tab():
			head = false
		case a.isFocusTab(line):
			a.keep(next)
			a.last = nil
		default:
			a.unaccounted("kitty writes no such line there")
		}
	}
	a.leftOut()
}

// line is the physical line at pos and where the next one starts.
func (a *accountant) line(pos int) (string, int) {
	if i := strings.IndexByte(a.src[pos:], '\n'); i >= 0 {
		return a.src[pos : pos+i], pos + i + 1
	}
	return a.src[pos:], len(a.src)
}

// lineNum is the 1-based number of the line holding byte pos.
func (a *accountant) lineNum(pos int) int {
	if a.breaks == nil {
		a.breaks = []int{}
		for i := 0; i < len(a.src); i++ {
			if a.src[i] == '\n' {
				a.breaks = append(a.breaks, i)
			}
		}
	}
	n, _ := slices.BinarySearch(a.breaks, pos)
	return n + 1
}

// keep keeps the source up to next as it is.
func (a *accountant) keep(next int) {
	a.out = append(a.out, a.src[a.pos:next]...)
	a.pos = next
}

func (a *accountant) warn(format string, args ...any) {
	a.warnings = append(a.warnings, fmt.Sprintf(format, args...))
}

func isNewTab(line string) bool { return line == "new_tab" || strings.HasPrefix(line, "new_tab ") }

func (a *accountant) osWindowLine(line string) bool {
	for _, key := range []string{"class", "name"} {
		if v, ok := strings.CutPrefix(line, "os_window_"+key+" "); ok {
			return !a.m.fromLS && utf8.ValidString(v) || a.m.classes[key+" "+v]
		}
	}
	return false
}

func (a *accountant) isFocusTab(line string) bool {
	n, ok := strings.CutPrefix(line, "focus_tab ")
	_, err := strconv.Atoi(n)
	return ok && err == nil && n != "" && n[0] != '-' && n[0] != '+'
}

// tab accounts for the tab whose new_tab line is at pos: the first tab
// not yet accounted whose header it is. It reports false when the header
// is no tab's.
func (a *accountant) tab() bool {
	tabs := a.m.tabs
	if a.m.legacy {
		tabs = []*tabModel{{legacy: true}}
	}
	for _, t := range tabs {
		if t.done {
			continue
		}
		b := &block{a: a, t: t, pos: a.pos}
		if !b.header() {
			continue
		}
		start := a.pos
		t.done = true
		if why := b.body(); why != "" {
			a.rewritten(t, b.headerText, fmt.Sprintf("line %d: %s", a.lineNum(b.pos), why), start)
			a.pos = start
			a.skip(start)
			return true
		}
		a.last = &lastTab{t: t, out: len(a.out), warnings: len(a.warnings), start: start, header: b.headerText}
		a.out = append(a.out, b.out...)
		a.warnings = append(a.warnings, b.warnings...)
		a.pos = b.pos
		return true
	}
	return false
}

// rewritten writes tab t from what kittymux knows, saying why.
func (a *accountant) rewritten(t *tabModel, header, why string, start int) {
	a.out = append(a.out, a.m.generate(t, header, a.src[start:], a.named())...)
	a.warn("kitty's save, the tab from line %d: its lines cannot all be accounted for (%s); kittymux wrote it from what kitty listed: its layout and its windows in their directories, each a shell or the agent ls lists in it", a.lineNum(start), why)
}

// unaccounted leaves out the lines from pos to where kitty's own lines go
// on; when they follow a tab accounted just before, that tab did not end
// where it seemed, and is written from ls instead.
func (a *accountant) unaccounted(why string) {
	start := a.pos
	if l := a.last; l != nil {
		a.out, a.warnings = a.out[:l.out], a.warnings[:l.warnings]
		a.rewritten(l.t, l.header, fmt.Sprintf("line %d after it: %s", a.lineNum(start), why), l.start)
		a.last = nil
	}
	first, _ := a.line(start)
	end := a.skip(start)
	a.warn("kitty's save, lines %d-%d (from %s): not accounted for by any window or tab kitty listed: left out",
		a.lineNum(start), a.lineNum(end-1), shown(first))
}

// skip leaves out the lines from start (at least one) up to the next
// new_tab line, after a blank line, that is the header of a tab not yet
// accounted for, or the end, and returns where it stopped.
func (a *accountant) skip(start int) int {
	_, pos := a.line(start)
	for pos < len(a.src) {
		line, next := a.line(pos)
		if isNewTab(line) && pos >= 2 && a.src[pos-2:pos] == "\n\n" && a.headerOfAny(pos) {
			break
		}
		pos = next
	}
	a.pos = pos
	return pos
}

func (a *accountant) headerOfAny(pos int) bool {
	for _, t := range a.m.tabs {
		if !t.done && (&block{a: a, t: t, pos: pos}).header() {
			return true
		}
	}
	return false
}

// leftOut writes, at the end, each tab that kitty wrote (its
// set_layout_state is in the save) but whose lines were left out.
func (a *accountant) leftOut() {
	for _, t := range a.m.tabs {
		if t.done || !a.inSave(t) {
			continue
		}
		t.done = true
		if len(a.out) > 0 && a.out[len(a.out)-1] != '\n' {
			a.out = append(a.out, '\n')
		}
		a.out = append(a.out, a.m.generate(t, "", "", a.named())...)
		a.warn("kitty's save: a tab of windows %v was in it but its lines were not: kittymux wrote it from what kitty listed", t.groups)
	}
}

// inSave reports whether one of the save's set_layout_state lines names
// t's windows.
func (a *accountant) inSave(t *tabModel) bool {
	if a.states == nil {
		a.states = map[string]bool{}
		for line := range strings.SplitSeq(a.src, "\n") {
			if state, ok := strings.CutPrefix(line, "set_layout_state "); ok {
				if g := layoutGroups(state); g != nil {
					a.states[fmt.Sprint(g)] = true
				}
			}
		}
	}
	return a.states[fmt.Sprint(t.groups)]
}

// layoutGroups are the window groups a set_layout_state lists
// (all_windows, which kitty writes for every layout); nil when it lists
// none or does not read.
func layoutGroups(state string) [][]int {
	var st struct {
		AllWindows struct {
			WindowGroups []struct {
				WindowIDs []int `json:"window_ids"`
			} `json:"window_groups"`
		} `json:"all_windows"`
	}
	if !strings.HasPrefix(state, "{") || json.Unmarshal([]byte(state), &st) != nil {
		return nil
	}
	var out [][]int
	for _, g := range st.AllWindows.WindowGroups {
		if len(g.WindowIDs) > 0 {
			out = append(out, g.WindowIDs)
		}
	}
	return out
}

func sameGroups(a, b [][]int) bool {
	return a != nil && slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
}

// generate writes tab t as kittymux knows it: its header (from ls; without
// ls the one read), its directory, and the first window of each group as
// a shell in its directory, of the windows the save names (kitty writes
// no line for some). rest is the save from the tab's new_tab line, for the
// directory when there is no ls.
func (m *model) generate(t *tabModel, header, rest string, named map[int]bool) []byte {
	var b strings.Builder
	b.WriteString("\n")
	dir := "/"
	if t.tab == nil {
		b.WriteString(cmp.Or(header, "new_tab\n"))
		if i := strings.Index(rest, "\ncd "); i >= 0 {
			line, _, _ := strings.Cut(rest[i+4:], "\n")
			dir = sessionfile.SafeDir(line)
		}
		fmt.Fprintf(&b, "cd %s\n\n", dir)
	} else {
		dir = t.writeHeader(&b)
	}
	for _, g := range t.groups {
		id := g[0]
		if isOffer(t.wins[id]) || !named[id] {
			continue
		}
		b.WriteString(t.shellLine(id, dir, m.agentArgv))
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// named are the windows the save names in a launch line's
// kitty-unserialize-data.
func (a *accountant) named() map[int]bool {
	if a.ids != nil {
		return a.ids
	}
	a.ids = map[int]bool{}
	const word = `kitty-unserialize-data={"id": `
	for rest := a.src; ; {
		i := strings.Index(rest, word)
		if i < 0 {
			return a.ids
		}
		rest = rest[i+len(word):]
		end := strings.IndexAny(rest, ",}")
		if end < 0 {
			return a.ids
		}
		if id, err := strconv.Atoi(rest[:end]); err == nil {
			a.ids[id] = true
		}
	}
}

// writeHeader writes the tab's header from ls and returns its directory:
// the one most of its windows have.
func (t *tabModel) writeHeader(b *strings.Builder) string {
	title := strings.TrimRightFunc(t.tab.Title, isPySpace)
	if t.tab.TitleOverridden && title != "" && !strings.ContainsFunc(title, isAnyBreak) {
		b.WriteString("new_tab " + title + "\n")
	} else {
		b.WriteString("new_tab\n")
	}
	if knownLayout(t.tab.Layout) {
		b.WriteString("layout " + t.tab.Layout + "\n")
		b.WriteString("enabled_layouts " + strings.Join(t.enabledLayouts(), ",") + "\n")
	}
	var state map[string]any
	if json.Unmarshal(t.tab.LayoutState, &state) == nil && state != nil {
		if js, err := json.Marshal(state); err == nil {
			b.WriteString("set_layout_state " + string(js) + "\n")
		}
	}
	count := map[string]int{}
	dir := "/"
	for _, g := range t.groups {
		if cwds := t.cwds(g[0]); len(cwds) > 0 {
			d := sessionfile.SafeDir(cwds[0])
			if count[d]++; count[d] > count[dir] {
				dir = d
			}
		}
	}
	fmt.Fprintf(b, "cd %s\n\n", dir)
	return dir
}

// enabledLayouts are the tab's enabled layouts as kitty writes them: its
// current one added when missing.
func (t *tabModel) enabledLayouts() []string {
	var out []string
	for _, l := range t.tab.EnabledLayouts {
		if knownLayout(l) {
			out = append(out, l)
		}
	}
	if !slices.Contains(out, t.tab.Layout) {
		out = append(out, t.tab.Layout)
	}
	return out
}

// block reads one tab's lines as kitty writes them for tab t.
type block struct {
	a          *accountant
	t          *tabModel
	pos        int
	out        []byte
	headerText string
	warnings   []string
	at         int    // the next window, by its place in the tab's groups
	focus      bool   // the tab's focus line was read
	dir        string // the tab's directory as written
}

// consume consumes s at pos, and keeps it.
func (b *block) consume(s string) bool {
	if !strings.HasPrefix(b.a.src[b.pos:], s) {
		return false
	}
	b.out = append(b.out, s...)
	b.pos += len(s)
	return true
}

// header consumes the tab's header lines: new_tab, layout,
// enabled_layouts, set_layout_state.
func (b *block) header() bool {
	if b.t.tab == nil {
		return b.headerFromSave()
	}
	tab := b.t.tab
	title := strings.TrimRightFunc("new_tab "+tab.Title, isPySpace)
	named := (tab.TitleOverridden || tab.Title != "") && title != "new_tab" && b.consume(title+"\n")
	if !named && !b.consume("new_tab\n") {
		return false
	}
	if !b.consume("layout "+tab.Layout+"\n") || !b.consume("enabled_layouts "+strings.Join(b.t.enabledLayouts(), ",")+"\n") {
		return false
	}
	line, next := b.a.line(b.pos)
	state, ok := strings.CutPrefix(line, "set_layout_state ")
	if !ok || !sameGroups(layoutGroups(state), b.t.groups) || next == len(b.a.src) {
		return false
	}
	b.consume(line + "\n")
	b.headerText = string(b.out)
	return true
}

// headerFromSave is header without ls: the lines are kitty's in form, and
// set_layout_state names the tab's groups.
func (b *block) headerFromSave() bool {
	for i, want := range []string{"new_tab", "layout", "enabled_layouts", "set_layout_state"} {
		line, next := b.a.line(b.pos)
		rest, ok := strings.CutPrefix(line, want)
		if ok && rest != "" && rest[0] != ' ' {
			ok = false
		}
		if !ok && b.t.legacy && i > 0 {
			continue
		}
		if !ok || next == len(b.a.src) {
			return false
		}
		rest = strings.TrimPrefix(rest, " ")
		switch want {
		case "layout":
			ok = knownLayout(rest)
		case "enabled_layouts":
			for name := range strings.SplitSeq(rest, ",") {
				ok = ok && (knownLayout(name) || name == "*")
			}
		case "set_layout_state":
			ok = !b.t.legacy && sameGroups(layoutGroups(rest), b.t.groups)
		default:
			ok = utf8.ValidString(rest) && !strings.ContainsFunc(rest, isAnyBreak)
		}
		if !ok {
			return false
		}
		b.consume(line + "\n")
	}
	b.headerText = string(b.out)
	return true
}

// body consumes the rest of the tab: its cd, a blank line, its windows'
// launch lines and a focus, up to a blank line or the end. It says why
// when they are not kitty's for the tab.
func (b *block) body() string {
	if why := b.cd(); why != "" {
		return why
	}
	for b.pos < len(b.a.src) {
		line, next := b.a.line(b.pos)
		switch {
		case line == "" && b.t.legacy:
			b.consume(b.a.src[b.pos:next])
		case b.t.legacy && (isNewTab(line) || line == "new_os_window" || b.a.isFocusTab(line)):
			return ""
		case line == "":
			return ""
		case line == "focus" && !b.focus && b.at > 0:
			b.focus = true
			b.consume(b.a.src[b.pos:next])
		case strings.HasPrefix(line, "launch "):
			if why := b.launch(); why != "" {
				return why
			}
		default:
			return "kitty writes no such line in a tab: " + shown(line)
		}
	}
	return ""
}

// cd consumes the tab's `cd` line and the blank line after it. Its value
// is one of the directories ls knows for the tab's windows, whatever bytes
// it holds, or a plain one-line path naming one; without ls, a plain
// one-line path.
func (b *block) cd() string {
	if b.t.legacy && !strings.HasPrefix(b.a.src[b.pos:], "cd ") {
		b.dir = "/"
		return "" // a file written by hand may have none
	}
	if !b.consume("cd ") {
		return "no `cd` line where kitty writes it"
	}
	rest := b.a.src[b.pos:]
	line, _, _ := strings.Cut(rest, "\n")
	dir := ""
	for _, c := range b.t.tabCwds() {
		if strings.HasPrefix(rest, c+"\n\n") {
			dir = c
			break
		}
	}
	if dir == "" && strings.HasPrefix(rest, line+"\n\n") && !strings.ContainsFunc(line, isAnyBreak) {
		if b.t.tab == nil {
			dir = line
		}
		for _, c := range b.t.tabCwds() {
			if sameDir(line, c) {
				dir = line
			}
		}
	}
	if dir == "" && line != "" {
		return "its directory " + shown(line) + " is none of the directories kitty listed for the tab's windows: kitty took it from text a window printed (OSC 7)"
	}
	if dir == "" {
		return "its `cd` is empty"
	}
	b.pos += len(dir) + 2
	safe := sessionfile.SafeDir(dir)
	if safe != dir {
		b.warnings = append(b.warnings, fmt.Sprintf("kitty's save, line %d: the tab's directory %s: %s; written as its nearest safe parent %s",
			b.a.lineNum(b.pos-len(dir)-2), shown(dir), sessionfile.DirProblem(dir), safe))
	}
	b.out = append(b.out, safe+"\n\n"...)
	b.dir = safe
	return ""
}
