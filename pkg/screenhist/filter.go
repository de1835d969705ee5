// Package screenhist keeps, when the user turns it on, what each plain
// (non-agent) window showed when kittymux saved, and prints it back in the
// restored window before its shell starts. What it prints is filtered to
// text and colours: nothing in it can act on the terminal.
package screenhist

import (
	"bytes"
	"unicode/utf8"
)

// maxSGR bounds one kept SGR sequence; a longer one is dropped.
const maxSGR = 64

// Filter keeps of b only printable text, "\n", "\t" and SGR sequences
// (ESC [ digits, ';' and ':' m: colours and styles). Every other escape
// sequence (OSC, DCS, APC, PM, SOS, any other CSI, two-byte escapes), every
// other C0 and C1 control, DEL, a lone ESC and invalid UTF-8 are dropped, so
// that the result can be printed to a terminal without acting on it.
func Filter(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			i = escape(b, i, &out)
		case c == '\n' || c == '\t':
			out = append(out, c)
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if !(r == utf8.RuneError && n == 1) && !isC1(r) {
				out = append(out, b[i:i+n]...)
			}
			i += n
		}
	}
	return out
}

func isC1(r rune) bool { return r >= 0x80 && r < 0xa0 }

// escape reads the escape sequence at b[i] (ESC), appends it to out if it
// is SGR, and returns where the text after it starts.
func escape(b []byte, i int, out *[]byte) int {
	if i+1 >= len(b) {
		return len(b)
	}
	switch b[i+1] {
	case '[':
		return csi(b, i, out)
	case ']', 'P', '_', '^', 'X':
		return stringEnd(b, i+2)
	}
	// ESC, intermediates, a final byte: ESC 7, ESC ( B, ESC c, ...
	j := i + 1
	for j < len(b) && b[j] >= 0x20 && b[j] <= 0x2f {
		j++
	}
	if j < len(b) && b[j] >= 0x30 && b[j] <= 0x7e {
		j++
	}
	return j
}

// csi reads ESC [ params intermediates final at b[i]. Only SGR with plain
// numeric parameters is kept. A byte that cannot be part of it ends it
// unkept, and is read as itself.
func csi(b []byte, i int, out *[]byte) int {
	sgr := true
	for j := i + 2; j < len(b); j++ {
		c := b[j]
		switch {
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		case c >= 0x30 && c <= 0x3f, c >= 0x20 && c <= 0x2f:
			sgr = false // a private marker (< = > ?) or an intermediate
		case c >= 0x40 && c <= 0x7e:
			if sgr && c == 'm' && j+1-i <= maxSGR {
				*out = append(*out, b[i:j+1]...)
			}
			return j + 1
		default:
			return j
		}
	}
	return len(b)
}

// stringEnd returns where a string sequence (OSC, DCS, APC, PM, SOS) whose
// body starts at b[j] ends: after BEL or ST (ESC \), or at another ESC,
// which starts a sequence of its own. An unended one runs to the end.
func stringEnd(b []byte, j int) int {
	for ; j < len(b); j++ {
		switch b[j] {
		case 0x07:
			return j + 1
		case 0x1b:
			if j+1 < len(b) && b[j+1] == '\\' {
				return j + 2
			}
			return j
		}
	}
	return len(b)
}

// Bound keeps the last maxLines lines of text and at most maxBytes bytes,
// cut at a line's start where one fits; blank lines at the end (the empty
// screen below the prompt) are dropped first. text is Filter's output, and
// so is the result.
func Bound(text []byte, maxLines, maxBytes int) []byte {
	text = trimBlankEnd(text)
	if maxLines <= 0 || maxBytes <= 0 {
		return nil
	}
	// The start of the last maxLines lines (a last "\n" ends the last).
	start, n := 0, 0
	for i := len(text) - 2; i >= 0; i-- {
		if text[i] == '\n' {
			if n++; n == maxLines {
				start = i + 1
				break
			}
		}
	}
	text = text[start:]
	if len(text) <= maxBytes {
		return text
	}
	cut := len(text) - maxBytes
	if nl := bytes.IndexByte(text[cut:], '\n'); nl >= 0 && nl+1 < len(text)-cut {
		return text[cut+nl+1:]
	}
	// One line longer than maxBytes: its end, from a character's start.
	for cut < len(text) && !utf8.RuneStart(text[cut]) {
		cut++
	}
	return Filter(text[cut:])
}

// trimBlankEnd drops the lines at the end that show nothing.
func trimBlankEnd(text []byte) []byte {
	for len(text) > 0 {
		i := bytes.LastIndexByte(text[:len(text)-1], '\n') + 1
		if !blank(text[i:]) {
			return text
		}
		text = text[:max(i-1, 0)]
		if i == 0 {
			return nil
		}
	}
	return text
}

// blank: the line shows nothing but spaces (SGR sequences aside).
func blank(line []byte) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\n':
		case 0x1b:
			j := i + 1
			for j < len(line) && line[j] != 'm' {
				j++
			}
			i = j
		default:
			return false
		}
	}
	return true
}
