package rewrite

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/shell"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// logicalLine is the launch line at b.pos: the shortest run of whole lines
// that reads as one launch line (kitty quotes every value, so a line break
// in one is inside quotes, and the line ends at the first line break
// outside them), and where the next line starts.
func (b *block) logicalLine() (*sessionfile.Line, int, error) {
	src := b.a.src
	end := b.pos
	var lastErr error
	for n := 0; n < maxLaunchLines && end < len(src); n++ {
		i := strings.IndexByte(src[end:], '\n')
		next := len(src)
		if i >= 0 {
			next = end + i + 1
		}
		text := strings.TrimSuffix(src[b.pos:next], "\n")
		pl, err := sessionfile.ParseLine(text)
		if err == nil && pl.Launch != nil {
			return pl, next, nil
		}
		lastErr = err
		end = next
	}
	if lastErr == nil {
		lastErr = errors.New("not a launch line")
	}
	return nil, 0, lastErr
}

// launch consumes one launch line, kitty's for the next window of the
// tab, and keeps it with its values checked against the window's known
// fields. It says why when the line is not kitty's for any window of the
// tab that comes next.
func (b *block) launch() string {
	pl, next, err := b.logicalLine()
	if err != nil {
		return fmt.Sprintf("a launch line kitty did not write (%v)", err)
	}
	l := pl.Launch
	if l.Unserialize == nil {
		return "a launch line without kitty-unserialize-data, which kitty writes on every window's line"
	}
	for _, k := range l.Unserialize.Keys() {
		if k != "id" && k != "cmd_at_shell_startup" {
			return fmt.Sprintf("kitty-unserialize-data holds %q, which kitty does not write", k)
		}
	}
	id := l.Unserialize.ID()
	place := b.t.place(id)
	if b.t.legacy {
		place = b.at
		if b.a.seen[id] {
			place = -1
		}
		b.a.seen[id] = true
	}
	if place < b.at {
		return fmt.Sprintf("window %d is not a window of the tab that comes next in kitty's order", id)
	}
	num := b.pos
	b.at, b.pos = place+1, next
	if !b.t.first(id) {
		if typ, _ := l.Option("--type"); typ == "overlay" || typ == "overlay-main" {
			b.note(num, "window %d is an overlay over another window: kittymux restores none", id)
			return ""
		}
		return fmt.Sprintf("window %d is not the first of its group, and its line is no overlay's", id)
	}
	if b.t.tab != nil && isOffer(b.t.wins[id]) {
		return "" // kittymux's own offer: left out without a word
	}
	if why := b.check(l, id, num); why != "" {
		return why
	}
	text, err := pl.Text()
	if err != nil || strings.ContainsFunc(text, isAnyBreak) {
		text = b.t.shellLine(id, b.tabDir(), b.a.m.agentArgv)
		b.note(num, "window %d: a value of its line holds a line break kitty would read as the line's end: written as a shell in its directory, or the agent ls lists in it", id)
	}
	b.out = append(b.out, text...)
	if next <= len(b.a.src) && strings.HasSuffix(b.a.src[:next], "\n") {
		b.out = append(b.out, '\n')
	}
	return ""
}

// note says what was done to the line at byte pos.
func (b *block) note(pos int, format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf("kitty's save, line %d: ", b.a.lineNum(pos))+fmt.Sprintf(format, args...))
}

// tabDir is the directory written for the tab's `cd`.
func (b *block) tabDir() string { return cmp.Or(b.dir, "/") }

// place is the window's place in the tab's groups, -1 when it has none.
func (t *tabModel) place(id int) int {
	if t.places == nil {
		t.places = map[int]int{}
		for _, g := range t.groups {
			for _, w := range g {
				if _, dup := t.places[w]; !dup {
					t.places[w] = len(t.places)
				}
			}
		}
	}
	if n, ok := t.places[id]; ok {
		return n
	}
	return -1
}

// agentArgv is the command of the agent kitty listed running in w, nil
// for none (or when the vet was given no way to tell).
func (b *block) agentArgv(w *kitty.Window) []string {
	if b.a.m.agentArgv == nil {
		return nil
	}
	return b.a.m.agentArgv(w)
}

// shellLine is a launch line for window id as a shell in its directory,
// or, where agentArgv gives one, the agent ls lists in it.
func (t *tabModel) shellLine(id int, tabDir string, agentArgv AgentArgv) string {
	line := "launch " + mustQuote(fmt.Sprintf(`kitty-unserialize-data={"id": %d}`, id))
	if cwds := t.cwds(id); len(cwds) > 0 && sessionfile.SafeDir(cwds[0]) != tabDir {
		line += " " + mustQuote("--cwd="+sessionfile.SafeDir(cwds[0]))
	}
	if w := t.wins[id]; w != nil && agentArgv != nil {
		// The agent's command as kitty's save writes it; a word kitty
		// would read otherwise leaves the window a shell.
		var words []string
		for _, a := range agentArgv(w) {
			q, err := sessionfile.QuoteWord(a)
			if err != nil {
				return line
			}
			words = append(words, q)
		}
		if len(words) > 0 {
			line += " " + strings.Join(words, " ")
		}
	}
	return line
}

// mustQuote quotes a word whose value is known to quote (an id, a safe
// directory).
func mustQuote(s string) string {
	q, err := sessionfile.QuoteWord(s)
	if err != nil {
		panic(err)
	}
	return q
}

// writtenOptions are the launch options kitty writes from how the window
// was created (Window.as_launch_command), which nothing a window prints
// can change.
var writtenOptions = map[string]bool{
	"--env": true, "--color": true, "--watcher": true, "--hold": true, "--hold-after-ssh": true,
	"--allow-remote-control": true, "--remote-control-password": true, "--spacing": true,
	"--logo": true, "--logo-alpha": true, "--logo-position": true,
}

// check checks a window's launch line against what ls knows of window id
// and changes what does not match (a directory, title, user var or command
// kitty took from what the window printed, or that changed since ls) to
// the known value, or leaves it out. Without ls only values kitty would
// read back differently are changed. It says why when the line is not one
// kitty writes.
func (b *block) check(l *sessionfile.Launch, id, num int) string {
	var w *kitty.Window
	if b.t.tab != nil {
		if w = b.t.wins[id]; w == nil {
			return fmt.Sprintf("kitty listed no window %d", id)
		}
	}
	if c := l.Unserialize.CmdAtShellStartup; c.Set && w != nil {
		b.checkCommand(l, c, w, num)
	}
	var kept []sessionfile.Option
	for _, o := range l.Options {
		if o.Separate {
			return fmt.Sprintf("window %d: option %s is not written as kitty writes it", id, o.Name)
		}
		keep, why := b.checkOption(&o, w)
		switch {
		case !keep && why == "":
			return fmt.Sprintf("window %d: kitty writes no option %s", id, o.Name)
		case why != "" && !keep:
			b.note(num, "window %d: %s: left out", id, why)
		case why != "":
			b.note(num, "window %d: %s", id, why)
		}
		if keep {
			kept = append(kept, o)
		}
	}
	l.Options = kept
	if len(l.Argv) > 0 && w != nil && !slices.Equal(l.Argv, w.Cmdline) && (b.a.m.execd == nil || !b.a.m.execd(l.Argv, w)) {
		b.note(num, "window %d: its command %s is not the one kitty listed it running: written as a shell", id, shown(strings.Join(l.Argv, " ")))
		_ = l.SetArgv(nil)
	}
	return ""
}

// checkCommand checks the command window w's shell was to run (c, kitty's
// cmd_at_shell_startup) against what w runs. Where a foreground process
// runs an agent, the agent's argv as kitty listed it stands in c's place
// unless c reads as that same command: a line typed is not what its
// launcher runs (`codex` runs as `node …/bin/codex`), and kitty's own argv
// of a process that set its title is only its interpreter (pi's
// ["/usr/bin/node"]). Without it, a save taken when the agent can no
// longer be read (the quit capture's publish, kitty gone) would lose the
// agent, or run the interpreter. Any other command stays only when a
// process runs it.
func (b *block) checkCommand(l *sessionfile.Launch, c sessionfile.CmdAtShellStartup, w *kitty.Window, num int) {
	agent := b.agentArgv(w)
	ran := ranCommand(c, w)
	switch {
	case agent == nil && ran:
		return
	case agent == nil:
		l.Unserialize.CmdAtShellStartup = sessionfile.CmdAtShellStartup{}
		b.note(num, "window %d: the command its shell was to run is not one kitty listed it running: left out", w.ID)
		return
	}
	same := b.a.m.readsAs != nil && b.a.m.readsAs(c, agent)
	if ran && same {
		return
	}
	l.Unserialize.CmdAtShellStartup = sessionfile.CmdAtShellStartup{Set: true, IsList: true, List: slices.Clone(agent)}
	if !ran && !same {
		b.note(num, "window %d: the command its shell was to run is not one kitty listed it running: written as the agent's that kitty listed, %s",
			w.ID, shown(strings.Join(agent, " ")))
	}
}

// checkOption checks one option of window w's line (nil without ls): keep
// it (as changed), or not, and what was done.
func (b *block) checkOption(o *sessionfile.Option, w *kitty.Window) (bool, string) {
	broken := strings.ContainsFunc(o.Value, isAnyBreak)
	switch o.Name {
	case "--cwd":
		why := b.checkCwd(o, w)
		if why != "" && o.Value == b.tabDir() {
			return false, why + ", the tab's"
		}
		return true, why
	case "--var":
		k, v, _ := strings.Cut(o.Value, "=")
		switch {
		case broken:
			return false, fmt.Sprintf("user var %s holds a line break", shown(k))
		case w != nil && (w.UserVars == nil || w.UserVars[k] != v):
			return false, fmt.Sprintf("user var %s is not the one kitty listed", shown(k))
		}
		return true, ""
	case "--title":
		switch {
		case broken:
			return false, "its title holds a line break"
		case w != nil && (!w.TitleOverridden || w.Title != o.Value):
			return false, "its title is not the one kitty listed"
		}
		return true, ""
	}
	return writtenOptions[o.Name], ""
}

// checkCwd keeps a window's --cwd when it is a directory ls knows for the
// window (or, without ls, any), made safe; else it becomes the known one.
func (b *block) checkCwd(o *sessionfile.Option, w *kitty.Window) string {
	var why string
	if w != nil && !slices.ContainsFunc(b.t.cwds(w.ID), func(c string) bool { return sameDir(o.Value, c) }) {
		why = fmt.Sprintf("its directory %s is not one kitty listed for it (kitty took it from text the window printed, OSC 7): it is %s", shown(o.Value), shown(w.Cwd))
		o.Value = w.Cwd
	}
	if safe := sessionfile.SafeDir(o.Value); safe != o.Value {
		why = fmt.Sprintf("its directory %s: %s; written as its nearest safe parent %s", shown(o.Value), sessionfile.DirProblem(o.Value), safe)
		o.Value = safe
	}
	return why
}

// ranCommand reports whether cmd_at_shell_startup is what window w runs:
// the argv of one of its foreground processes (argv[0] made absolute, as
// kitty writes it), or a command line that reads as exactly such an argv.
// The command line alone proves nothing: kitty has it from what the shell
// reported (OSC 133), which any program can print.
func ranCommand(c sessionfile.CmdAtShellStartup, w *kitty.Window) bool {
	if !c.IsList {
		words := plainWords(c.String)
		return words != nil && slices.ContainsFunc(w.ForegroundProcesses, func(p kitty.Process) bool { return slices.Equal(words, p.Cmdline) })
	}
	for _, p := range w.ForegroundProcesses {
		a, b := c.List, p.Cmdline
		if len(a) == 0 || len(a) != len(b) || !slices.Equal(a[1:], b[1:]) {
			continue
		}
		if a[0] == b[0] || filepath.IsAbs(a[0]) && !filepath.IsAbs(b[0]) {
			return true
		}
	}
	return false
}

// plainWords are the words of a command line that has nothing for a shell
// to expand, run or redirect; nil for any other.
func plainWords(line string) []string {
	if line == "" || strings.ContainsAny(line, "$`;&|<>(){}*?[]~!#\n\r") {
		return nil
	}
	words, err := shell.Fields(line, func(string) string { return "" })
	if err != nil || len(words) == 0 {
		return nil
	}
	return words
}
