package prompt

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kittymux/kittymux/pkg/kitty"
)

// The prompt is drawn as paragraphs of atoms: a word, or a key hint that
// is never broken ("Enter resume"). Lines wrap between atoms to the width
// of the terminal it is drawn in; an atom wider than a line is shortened
// with "…", except in a command shown for checking, which is shown whole
// (broken where the line ends).

// style is the emphasis of a piece of text: only what every theme shows
// (bold, dim, the terminal's own red), never a chosen colour.
type style uint8

const (
	plain style = iota
	bold
	dim
	red
)

// piece is text in one style.
type piece struct {
	text  string
	style style
}

// atom is what a line never breaks inside: a word or a key hint.
type atom struct {
	pieces []piece
	sep    string // before it, when it follows another atom on a line
	// tail: shortened from the left ("…/src/api"), for a path.
	tail bool
}

// para is a paragraph: it starts on a new line and wraps.
type para struct {
	indent int
	hang   int // indent of the lines it wraps onto; 0: indent
	atoms  []atom
	// whole: an atom wider than a line is broken, not shortened: a command
	// shown for checking is shown in full.
	whole bool
}

// words makes one atom of each space-separated word of s (already
// printable), in st.
func words(s string, st style) []atom {
	var out []atom
	for _, w := range strings.Fields(s) {
		out = append(out, atom{pieces: []piece{{w, st}}, sep: " "})
	}
	return out
}

// text is the words of s in one paragraph.
func text(indent int, st style, s string) para {
	return para{indent: indent, atoms: words(s, st)}
}

func (a atom) cells() int {
	n := 0
	for _, p := range a.pieces {
		n += kitty.Cells(p.text)
	}
	return n
}

func (a atom) String() string {
	var b strings.Builder
	for _, p := range a.pieces {
		b.WriteString(p.text)
	}
	return b.String()
}

// line is one line as drawn: its pieces, indent included.
type line []piece

func (l line) String() string {
	var b strings.Builder
	for _, p := range l {
		b.WriteString(p.text)
	}
	return b.String()
}

// layout wraps paragraphs to width columns.
func layout(ps []para, width int) []line {
	if width < 8 {
		width = 8
	}
	var out []line
	for _, p := range ps {
		out = append(out, p.wrap(width)...)
	}
	return out
}

func (p para) wrap(width int) []line {
	indent, hang := p.indent, p.hang
	if hang == 0 {
		hang = indent
	}
	// A narrow window keeps its columns for the text.
	if width-indent < 16 {
		indent = min(indent, 2)
	}
	if width-hang < 50 {
		hang = indent // a hanging indent only where it leaves room
	}
	var out []line
	var cur line
	used := 0
	lead := indent
	start := func() {
		cur = line{{strings.Repeat(" ", lead), plain}}
		used = lead
	}
	flush := func() {
		out = append(out, cur)
		cur, lead = nil, hang
	}
	start()
	fresh := true
	for _, a := range p.atoms {
		n := a.cells()
		// A word wider than any line, shown whole, starts where it is.
		breaks := p.whole && n > width-hang
		if !fresh && used+kitty.Cells(a.sep)+n > width && !(breaks && used+kitty.Cells(a.sep) < width) {
			flush()
			start()
			fresh = true
		}
		if !fresh {
			cur = append(cur, piece{a.sep, plain})
			used += kitty.Cells(a.sep)
		}
		room := width - used
		if n > room {
			if p.whole {
				// Shown in full: break where the line ends.
				rest := a.pieces
				for len(rest) > 0 {
					var got []piece
					got, rest = take(rest, width-used)
					cur = append(cur, got...)
					if len(rest) > 0 {
						flush()
						start()
					} else {
						for _, g := range got {
							used += kitty.Cells(g.text)
						}
					}
				}
				fresh = false
				continue
			}
			a = shorten(a, room)
			n = a.cells()
		}
		cur = append(cur, a.pieces...)
		used += n
		fresh = false
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// take splits pieces after n cells (at least one rune, so a line always
// moves on).
func take(ps []piece, n int) (got, rest []piece) {
	for i, p := range ps {
		cut := 0
		for j, r := range p.text {
			if c := kitty.RuneCells(r); c > n && (cut > 0 || len(got) > 0) {
				break
			} else {
				n -= c
			}
			cut = j + utf8.RuneLen(r)
		}
		if cut == len(p.text) {
			got = append(got, p)
			continue
		}
		if cut > 0 {
			got = append(got, piece{p.text[:cut], p.style})
		}
		return got, append([]piece{{p.text[cut:], p.style}}, ps[i+1:]...)
	}
	return got, nil
}

// shorten fits a into n cells with "…": its end kept for a path, its start
// otherwise.
func shorten(a atom, n int) atom {
	s := a.String()
	st := plain
	if len(a.pieces) > 0 {
		st = a.pieces[len(a.pieces)-1].style
	}
	if n < 1 {
		n = 1
	}
	rs := []rune(s)
	if a.tail {
		// Whole components when they fit: "…/src/api".
		for i, r := range rs {
			if r == '/' && kitty.Cells(string(rs[i:]))+1 <= n {
				return atom{pieces: []piece{{"…" + string(rs[i:]), st}}, sep: a.sep}
			}
		}
		for i := range rs {
			if kitty.Cells(string(rs[i:]))+1 <= n {
				return atom{pieces: []piece{{"…" + string(rs[i:]), st}}, sep: a.sep}
			}
		}
		return atom{pieces: []piece{{"…", st}}, sep: a.sep}
	}
	for i := len(rs); i >= 0; i-- {
		if kitty.Cells(string(rs[:i]))+1 <= n {
			return atom{pieces: []piece{{string(rs[:i]) + "…", st}}, sep: a.sep}
		}
	}
	return atom{pieces: []piece{{"…", st}}, sep: a.sep}
}

// rows is how many rows lines drawn earlier take once the terminal is width
// columns wide: a terminal that reflows (kitty does) folds each longer line.
func rows(lines []line, width int) int {
	if width < 1 {
		width = 1
	}
	n := 0
	for _, l := range lines {
		c := kitty.Cells(l.String())
		n += max(1, (c+width-1)/width)
	}
	return n
}

// render is lines as the terminal gets them: with emphasis when color, each
// line ended by CR LF (the terminal is raw while the prompt waits).
func render(lines []line, color bool) string {
	var b strings.Builder
	for _, l := range lines {
		cur := plain
		for _, p := range l {
			// Spaces look the same in each style: they keep the current one.
			if color && p.style != cur && strings.TrimSpace(p.text) != "" {
				_, off := sgr(cur)
				on, _ := sgr(p.style)
				b.WriteString(off + on)
				cur = p.style
			}
			b.WriteString(p.text)
		}
		_, off := sgr(cur)
		b.WriteString(off + "\r\n")
	}
	return b.String()
}

func sgr(s style) (on, off string) {
	switch s {
	case bold:
		return "\x1b[1m", "\x1b[22m"
	case dim:
		return "\x1b[2m", "\x1b[22m"
	case red:
		return "\x1b[31m", "\x1b[39m"
	}
	return "", ""
}

// printable is s as text a terminal shows and never obeys: escape
// sequences (CSI, OSC, DCS and the other strings, two-byte ESC codes) and
// C0/C1 controls removed, line breaks and tabs made spaces, anything else
// unprintable (bidi overrides, invalid UTF-8) shown as "�". A directory
// name or tab title is text any program could have chosen.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b || r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			i = skipEscape(s, i)
			continue
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// dropped
		case r == utf8.RuneError && n <= 1, !unicode.IsPrint(r) && r != ' ':
			b.WriteRune('�')
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// skipEscape returns the index just past the escape sequence at s[i] (ESC
// or a C1 introducer).
func skipEscape(s string, i int) int {
	r, n := utf8.DecodeRuneInString(s[i:])
	i += n
	kind := r // 0x9b CSI, 0x9d OSC, 0x90 DCS, 0x98 SOS, 0x9e PM, 0x9f APC
	if r == 0x1b {
		if i >= len(s) {
			return i
		}
		switch s[i] {
		case '[':
			kind = 0x9b
		case ']':
			kind = 0x9d
		case 'P':
			kind = 0x90
		case 'X':
			kind = 0x98
		case '^':
			kind = 0x9e
		case '_':
			kind = 0x9f
		default:
			// ESC, intermediates (0x20-0x2f), then one final byte.
			for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
				i++
			}
			if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
				i++
			}
			return i
		}
		i++
	}
	if kind == 0x9b {
		// Parameters and intermediates, then a final byte 0x40-0x7e.
		for i < len(s) {
			c := s[i]
			i++
			if c >= 0x40 && c <= 0x7e {
				return i
			}
			if c < 0x20 || c > 0x3f {
				return i
			}
		}
		return i
	}
	// A string: up to BEL (OSC), ST (ESC \ or 0x9c), or the end.
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x07 && kind == 0x9d, r == 0x9c:
			return i + n
		case r == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // another sequence begins: the string ended badly
		}
		i += n
	}
	return i
}

// quoted is a title from outside, printable, in Go's quotes: a quote or
// backslash in it shows as one.
func quoted(s string) string {
	return strconv.Quote(printable(s))
}
