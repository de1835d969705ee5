package kitty

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns text that came from kitty (an error, a title, a
// traceback) made safe to print to a terminal: whoever runs a program in a
// kitty window sets its title, and an escape sequence in it could retitle,
// recolour or clear the user's terminal, or write to its clipboard. C0 and
// C1 controls, DEL and the bidirectional overrides (which reorder what is
// shown) are dropped, tabs and line breaks become spaces so a value stays on
// its table row, and bytes that are not UTF-8 become U+FFFD. Every other
// character, any script or emoji, is kept.
func Printable(s string) string {
	start := -1
	for i, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || isBidiControl(r) {
			start = i
			break
		}
	}
	if start < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:start])
	for i := start; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case unicode.IsControl(r) || isBidiControl(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isBidiControl reports the explicit direction embeddings, overrides and
// isolates (U+202A..U+202E, U+2066..U+2069).
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Cells is how many terminal columns s takes, printed (Printable): two for
// the wide East Asian ranges and emoji, none for combining marks, else one.
// An estimate without a table of every code point, erring wide.
func Cells(s string) int {
	n := 0
	for _, r := range s {
		n += RuneCells(r)
	}
	return n
}

// RuneCells is Cells of one rune.
func RuneCells(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200d:
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf && r != 0x303f,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6,
		r >= 0x1f300 && r <= 0x1faff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}
