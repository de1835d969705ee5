package offer

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"golang.org/x/term"
)

// The offer kitty shows on start is drawn as the restore prompt is: words
// wrapped to the window's width (a word is never cut; one wider than the
// whole line, a long directory, is shortened from the left with "…"), a
// key and what it does kept together on a line, the keys bold unless
// colour is off (NO_COLOR, a dumb terminal, not a terminal).

// Span is text in one style: Bold for the keys.
type Span struct {
	Text string
	Bold bool
}

// Atom is what a line never breaks inside: a word, or a key and what it
// does.
type Atom struct {
	Spans []Span
	// Sep comes before it when it follows another atom on a line.
	Sep string
}

// Para is a paragraph: it starts on a new line at Indent and wraps onto
// lines at Hang.
type Para struct {
	Indent, Hang int
	Atoms        []Atom
}

// Text is the words of s, a paragraph at indent whose wrapped lines hang at
// hang.
func Text(indent, hang int, s string) Para {
	p := Para{Indent: indent, Hang: hang}
	for _, w := range strings.Fields(s) {
		p.Atoms = append(p.Atoms, Atom{Spans: []Span{{Text: w}}, Sep: " "})
	}
	return p
}

// Heading is Text in bold.
func Heading(indent, hang int, s string) Para {
	p := Text(indent, hang, s)
	for i := range p.Atoms {
		p.Atoms[i].Spans[0].Bold = true
	}
	return p
}

// Keys is a paragraph of key hints, {"Enter", "restore it here"}: each key
// bold, each hint whole on its line.
func Keys(indent int, hints [][2]string) Para {
	p := Para{Indent: indent, Hang: indent}
	for _, h := range hints {
		p.Atoms = append(p.Atoms, Atom{Spans: []Span{{Text: h[0], Bold: true}, {Text: " " + h[1]}}, Sep: "   "})
	}
	return p
}

// RenderOn draws ps for the terminal out is: at its width (80 when it
// does not say), the keys bold unless NO_COLOR is set or TERM is dumb or
// unset; with no limit and no bold when out is no terminal.
func RenderOn(out io.Writer, getenv func(string) string, ps []Para) string {
	width, color := 0, false
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		width = 80
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			width = w
		}
		t := getenv("TERM")
		color = getenv("NO_COLOR") == "" && t != "" && t != "dumb"
	}
	return Render(ps, width, color)
}

// Render draws ps at width columns (0: no limit), each line ended by "\n",
// with bold keys when color.
func Render(ps []Para, width int, color bool) string {
	var b strings.Builder
	for _, p := range ps {
		for _, l := range p.wrap(width) {
			bold := false
			for _, s := range l {
				if color && s.Bold != bold && strings.TrimSpace(s.Text) != "" {
					b.WriteString(map[bool]string{true: "\x1b[1m", false: "\x1b[22m"}[s.Bold])
					bold = s.Bold
				}
				b.WriteString(s.Text)
			}
			if bold {
				b.WriteString("\x1b[22m")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func (p Para) wrap(width int) [][]Span {
	if width <= 0 {
		width = 1 << 20
	}
	indent, hang := min(p.Indent, width/4), min(p.Hang, width/4)
	if len(p.Atoms) == 0 {
		return [][]Span{nil}
	}
	var lines [][]Span
	cur := []Span{{Text: strings.Repeat(" ", indent)}}
	used, fresh := indent, true
	for _, a := range p.Atoms {
		n := a.cells()
		if !fresh && used+kitty.Cells(a.Sep)+n > width {
			lines = append(lines, cur)
			cur, used, fresh = []Span{{Text: strings.Repeat(" ", hang)}}, hang, true
		}
		if !fresh {
			cur = append(cur, Span{Text: a.Sep})
			used += kitty.Cells(a.Sep)
		}
		if n > width-used {
			a = a.shortened(width - used)
			n = a.cells()
		}
		cur = append(cur, a.Spans...)
		used += n
		fresh = false
	}
	return append(lines, cur)
}

func (a Atom) cells() int {
	n := 0
	for _, s := range a.Spans {
		n += kitty.Cells(s.Text)
	}
	return n
}

// shortened fits a word wider than a whole line into n cells, its end
// kept: "…/code/api".
func (a Atom) shortened(n int) Atom {
	var text string
	bold := false
	for _, s := range a.Spans {
		text += s.Text
		bold = bold || s.Bold
	}
	rs := []rune(text)
	for i := range rs {
		if kitty.Cells(string(rs[i:]))+1 <= n {
			return Atom{Spans: []Span{{Text: "…" + string(rs[i:]), Bold: bold}}, Sep: a.Sep}
		}
	}
	return Atom{Spans: []Span{{Text: "…", Bold: bold}}, Sep: a.Sep}
}

// Tilde is dir with home shown as ~.
func Tilde(dir, home string) string {
	if home != "" && home != "/" && (dir == home || strings.HasPrefix(dir, home+"/")) {
		return "~" + dir[len(home):]
	}
	return dir
}

// Ago is how long before now t was, in words: "just now", "1 minute ago",
// "3 hours ago", "2 days ago".
func Ago(now, t time.Time) string {
	d := now.Sub(t)
	unit := func(n int, name string) string {
		if n == 1 {
			return "1 " + name + " ago"
		}
		return fmt.Sprintf("%d %ss ago", n, name)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return unit(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return unit(int(d/time.Hour), "hour")
	}
	return unit(int(d/(24*time.Hour)), "day")
}

// Count is n things: "1 agent", "2 agents".
func Count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
