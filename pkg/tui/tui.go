// Package tui asks a person on a terminal: a yes or no, a pick among
// options, a line of text. It reads the keys itself (the terminal raw while
// it asks, put back after) and writes plain lines: it never queries the
// terminal, so no answer is awaited and none arrives among the keys, and it
// costs nothing at start-up.
package tui

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/kitty"
)

// ErrCancelled: the person left (Ctrl-C, Ctrl-D, Esc, or the input ended).
var ErrCancelled = errors.New("cancelled")

// Key codes read from the terminal; the arrows are their escape sequences.
const (
	keyCtrlC     = 0x03
	keyCtrlD     = 0x04
	keyBackspace = 0x7f
	keyCtrlH     = 0x08
	keyCtrlU     = 0x15
	keyEsc       = 0x1b
	keyUp        = -1
	keyDown      = -2
	keyOther     = -3
)

// Asker asks one question after another on a terminal. It reads the keys
// pressed on its input, the terminal raw until Close, so each key arrives
// as typed (any other reader as it is: tests); keys typed ahead go to the
// next question.
type Asker struct {
	r       *bufio.Reader
	out     io.Writer
	restore func()
	// bold: the title and the option marked are drawn in bold (out is a
	// terminal, and neither NO_COLOR nor TERM=dumb says otherwise).
	bold bool
	// width is the terminal's width in columns, 0 when out is none: a
	// line redrawn in place must fit on one row, or moving back over it
	// lands in the wrong place.
	width int
	// more reports whether another byte arrives soon after an Esc, nil
	// where in is no terminal (what was read then is all there is).
	more func() bool
}

// escWait is how long an Esc waits for the rest of an escape sequence that
// the terminal's link split (ssh, a slow line): vim's ttimeout is of this
// order. A sequence the terminal wrote whole arrives whole and waits not.
const escWait = 30 // milliseconds

// Open makes the terminal in raw and asks on out.
func Open(in io.Reader, out io.Writer) (*Asker, error) {
	return open(bufio.NewReader(in), in, out)
}

// Session asks questions one at a time on one input: the terminal is raw
// only while each is asked (what is printed between them is printed as
// usual), and keys typed ahead go to the next question.
type Session struct {
	in  io.Reader
	out io.Writer
	r   *bufio.Reader
}

// NewSession asks on in and out.
func NewSession(in io.Reader, out io.Writer) *Session {
	return &Session{in: in, out: out, r: bufio.NewReader(in)}
}

// Confirm asks one yes or no question (Asker.Confirm).
func (s *Session) Confirm(title, detail string) (bool, error) {
	a, err := open(s.r, s.in, s.out)
	if err != nil {
		return false, err
	}
	defer a.Close()
	return a.Confirm(title, detail)
}

func open(r *bufio.Reader, in io.Reader, out io.Writer) (*Asker, error) {
	a := &Asker{r: r, out: out, restore: func() {}}
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		a.bold = os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			a.width = w
		}
	}
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		old, err := term.MakeRaw(int(f.Fd()))
		if err != nil {
			return nil, err
		}
		a.restore = func() { _ = term.Restore(int(f.Fd()), old) }
		fd := int(f.Fd())
		a.more = func() bool {
			for {
				n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, escWait)
				if err != unix.EINTR {
					return err == nil && n > 0
				}
			}
		}
	}
	return a, nil
}

// Close puts the terminal back as it was.
func (a *Asker) Close() { a.restore() }

// Confirm asks one yes or no question on in and out (Asker.Confirm).
func Confirm(in io.Reader, out io.Writer, title, detail string) (bool, error) {
	return NewSession(in, out).Confirm(title, detail)
}

// next is the next key: a rune, or keyUp, keyDown, keyOther for an escape
// sequence. Esc alone is an Esc: one with nothing after it, read with it or
// arriving within escWait, is the key.
func (a *Asker) next() (rune, error) {
	r, _, err := a.r.ReadRune()
	if err != nil {
		return 0, err
	}
	if r != keyEsc || a.r.Buffered() == 0 && (a.more == nil || !a.more()) {
		return r, nil
	}
	b, _ := a.r.ReadByte()
	if b != '[' && b != 'O' {
		return keyOther, nil
	}
	// CSI: parameters and intermediates, then a final byte in @ to ~.
	for {
		c, err := a.r.ReadByte()
		if err != nil {
			return keyOther, nil
		}
		if c >= '@' && c <= '~' {
			switch c {
			case 'A':
				return keyUp, nil
			case 'B':
				return keyDown, nil
			}
			return keyOther, nil
		}
	}
}

// fit is s cut to one row of the terminal, a column left for the cursor:
// counted in cells, a wide character (CJK, emoji) two.
func (a *Asker) fit(s string) string {
	if a.width <= 1 || kitty.Cells(s) < a.width {
		return s
	}
	n := 0
	for i, r := range s {
		if n+kitty.RuneCells(r) > a.width-2 {
			return s[:i] + "…"
		}
		n += kitty.RuneCells(r)
	}
	return s
}

// strong is s in bold where a draws in bold.
func (a *Asker) strong(s string) string {
	if !a.bold {
		return s
	}
	return "\x1b[1m" + s + "\x1b[0m"
}

// cancels says whether r leaves the question.
func cancels(r rune) bool {
	return r == keyCtrlC || r == keyCtrlD || r == keyEsc
}

// header writes the title and, indented below it, the detail's lines. In
// raw mode a newline only moves down: every line ends in \r\n.
func (a *Asker) header(title, detail string) {
	out := a.out
	fmt.Fprintf(out, "%s\r\n", a.strong(kitty.Printable(title)))
	if detail != "" {
		for _, l := range strings.Split(detail, "\n") {
			fmt.Fprintf(out, "  %s\r\n", kitty.Printable(l))
		}
	}
}

// Confirm asks title (detail below it) and waits for y or n; Enter is no.
// It returns ErrCancelled when the person leaves.
func (a *Asker) Confirm(title, detail string) (bool, error) {
	out := a.out
	a.header(title, detail)
	fmt.Fprint(out, "y yes, n no (Enter: no) ")
	for {
		r, err := a.next()
		switch {
		case err != nil || cancels(r):
			fmt.Fprint(out, "\r\n")
			return false, ErrCancelled
		case r == 'y' || r == 'Y':
			fmt.Fprint(out, "yes\r\n")
			return true, nil
		case r == 'n' || r == 'N' || r == '\r' || r == '\n':
			fmt.Fprint(out, "no\r\n")
			return false, nil
		}
	}
}

// Option is one choice of Select: what is shown, and what is returned.
type Option struct {
	Label, Value string
}

// Select asks title and waits for one of options: the arrows (or k, j)
// move, Enter takes the one marked, a digit takes that one. It returns the
// option's Value, or ErrCancelled when the person leaves.
func (a *Asker) Select(title string, options []Option) (string, error) {
	if len(options) == 0 {
		return "", errors.New(title + ": nothing to choose from")
	}
	out := a.out
	a.header(title, "")
	at := 0
	draw := func() {
		for i, o := range options {
			num := "  "
			if i < 9 {
				num = fmt.Sprintf("%d ", i+1)
			}
			label := kitty.Printable(o.Label)
			row := a.fit("  " + num + label)
			if i == at {
				row = a.strong(a.fit("> " + num + label))
			}
			fmt.Fprintf(out, "\r\x1b[K%s\r\n", row)
		}
	}
	draw()
	for {
		r, err := a.next()
		switch {
		case err != nil || cancels(r):
			return "", ErrCancelled
		case r == '\r' || r == '\n':
			return options[at].Value, nil
		case r >= '1' && r <= '9' && int(r-'1') < len(options):
			at = int(r - '1')
		case (r == keyUp || r == 'k') && at > 0:
			at--
		case (r == keyDown || r == 'j') && at < len(options)-1:
			at++
		default:
			continue
		}
		if r >= '1' && r <= '9' {
			// Redrawn with the pick marked, then taken.
			fmt.Fprintf(out, "\x1b[%dA", len(options))
			draw()
			return options[at].Value, nil
		}
		fmt.Fprintf(out, "\x1b[%dA", len(options))
		draw()
	}
}

// Input asks title for a line, def already typed: Backspace takes off a
// character, Ctrl-U the whole line, Enter gives it. valid (nil: any) says
// what is wrong with a line, which is then asked again. It returns
// ErrCancelled when the person leaves.
func (a *Asker) Input(title, def string, valid func(string) error) (string, error) {
	out := a.out
	a.header(title, "")
	line := []rune(def)
	draw := func() {
		// The line holds what was offered (a directory's name, which any
		// program can choose) as well as what was typed.
		shown := kitty.Printable(string(line))
		if n := a.width - 4; n > 0 && kitty.Cells(shown) > n {
			// The end of a line too long for one row, where the typing is:
			// the last n-1 cells after "…".
			rs := []rune(shown)
			i, used := len(rs), 0
			for i > 0 && used+kitty.RuneCells(rs[i-1]) <= n-1 {
				i--
				used += kitty.RuneCells(rs[i])
			}
			shown = "…" + string(rs[i:])
		}
		fmt.Fprintf(out, "\r\x1b[K> %s", shown)
	}
	draw()
	for {
		r, err := a.next()
		switch {
		case err != nil || cancels(r):
			fmt.Fprint(out, "\r\n")
			return "", ErrCancelled
		case r == '\r' || r == '\n':
			s := string(line)
			if valid != nil {
				if err := valid(s); err != nil {
					fmt.Fprintf(out, "\r\n  %v\r\n", err)
					draw()
					continue
				}
			}
			fmt.Fprint(out, "\r\n")
			return s, nil
		case r == keyBackspace || r == keyCtrlH:
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		case r == keyCtrlU:
			line = line[:0]
		case r >= ' ' && !unicode.IsControl(r) && r != utf8.RuneError:
			line = append(line, r)
		default:
			continue
		}
		draw()
	}
}
