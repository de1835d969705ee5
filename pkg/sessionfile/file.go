package sessionfile

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// File is a parsed session file: every line of it, in order.
type File struct {
	Lines []*Line
}

// Line is one line of a session file.
type Line struct {
	Num int    // 1-based line number
	Raw string // the line's exact bytes, without its line ending
	EOL string // "\n", "\r\n", or "" (the last line, when the file does not end with a newline)

	// Directive is the first word ("launch", "new_tab", ...), empty for a
	// blank or comment line. Rest is the text after it with surrounding
	// whitespace removed: what kitty hands to the directive.
	Directive string
	Rest      string

	// Launch is the typed view of a launch line, nil for any other line.
	Launch *Launch
}

// LineError is an error about one line: one that kitty would read differently
// from us or not at all (from Parse), or one that cannot be written (from
// File.Encode).
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// Parse reads a session file. It fails, with a *LineError, on a launch line it
// cannot read exactly as kitty would; other lines are kept as they are.
func Parse(data []byte) (*File, error) {
	f := &File{}
	s := string(data)
	for n := 1; s != ""; n++ {
		raw, eol := s, ""
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			raw, eol, s = s[:i], "\n", s[i+1:]
			if strings.HasSuffix(raw, "\r") {
				raw, eol = raw[:len(raw)-1], "\r\n"
			}
		} else {
			s = ""
		}
		l, err := parseLine(n, raw, eol)
		if err != nil {
			return nil, &LineError{Line: n, Err: err}
		}
		f.Lines = append(f.Lines, l)
	}
	return f, nil
}

func parseLine(num int, raw, eol string) (*Line, error) {
	l := &Line{Num: num, Raw: raw, EOL: eol}
	start := len(raw) - len(strings.TrimLeftFunc(raw, isPySpace))
	end := len(strings.TrimRightFunc(raw, isPySpace))
	if start >= end {
		return l, nil
	}
	content := raw[start:end]
	if i := strings.IndexFunc(content, isPyLineBreak); i >= 0 {
		r, _ := utf8.DecodeRuneInString(content[i:])
		return nil, fmt.Errorf("column %d: %q inside a line: kitty reads it as a line break", start+i+1, r)
	}
	if content[0] == '#' {
		return l, nil
	}
	dirEnd := end
	if i := strings.IndexFunc(content, isPySpace); i >= 0 {
		dirEnd = start + i
	}
	restStart := dirEnd + len(raw[dirEnd:end]) - len(strings.TrimLeftFunc(raw[dirEnd:end], isPySpace))
	l.Directive, l.Rest = raw[start:dirEnd], raw[restStart:end]
	if l.Directive != "launch" {
		return l, nil
	}
	if !utf8.ValidString(content) {
		return nil, fmt.Errorf("launch line is not valid UTF-8")
	}
	// mvdan.cc/sh drops NUL bytes and kitty's C option parser would cut a
	// word at one: no reading of such a line is safe.
	if i := strings.IndexByte(content, 0); i >= 0 {
		return nil, fmt.Errorf("column %d: NUL byte in a launch line", start+i+1)
	}
	words, err := splitWords(l.Rest, restStart)
	if err != nil {
		return nil, err
	}
	launch, err := parseLaunch(words)
	if err != nil {
		return nil, err
	}
	launch.prefix, launch.gap, launch.suffix = raw[:dirEnd], raw[dirEnd:restStart], raw[end:]
	if launch.gap == "" {
		launch.gap = " "
	}
	l.Launch = launch
	return l, nil
}

// isPySpace is Python's str.isspace, which str.strip and str.split use: Go's
// unicode.IsSpace plus the separators \x1c-\x1f.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// isPyLineBreak is where Python's str.splitlines breaks a line (besides \n).
func isPyLineBreak(r rune) bool {
	switch r {
	case '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// Text is the line as Bytes writes it, without its line ending: Raw, or the
// re-serialised launch line when its Launch was modified.
func (l *Line) Text() (string, error) {
	if l.Launch == nil || !l.Launch.Modified() {
		return l.Raw, nil
	}
	words, err := l.Launch.encodeWords()
	if err != nil {
		return "", &LineError{Line: l.Num, Err: err}
	}
	text := l.Launch.prefix
	if len(words) > 0 {
		text += l.Launch.gap + strings.Join(words, " ")
	}
	return text + l.Launch.suffix, nil
}

// Encode writes the file back: unmodified lines from Raw, modified launch lines
// re-serialised, each with its original line ending. It fails when a modified
// launch line cannot be written (see Launch).
func (f *File) Encode() ([]byte, error) {
	var b strings.Builder
	for _, l := range f.Lines {
		text, err := l.Text()
		if err != nil {
			return nil, err
		}
		b.WriteString(text)
		b.WriteString(l.EOL)
	}
	return []byte(b.String()), nil
}

// Bytes is Encode for callers that changed lines only through Launch's Set
// methods, which check what they are given: a launch line that still cannot
// be encoded is written as it was parsed (its Raw).
func (f *File) Bytes() []byte {
	var b strings.Builder
	for _, l := range f.Lines {
		text, err := l.Text()
		if err != nil {
			text = l.Raw
		}
		b.WriteString(text)
		b.WriteString(l.EOL)
	}
	return []byte(b.String())
}

// Launches returns the launch lines, in file order.
func (f *File) Launches() []*Line {
	var out []*Line
	for _, l := range f.Lines {
		if l.Launch != nil {
			out = append(out, l)
		}
	}
	return out
}

// WindowRef is a launch line with the context kitty gives it when it loads
// the file.
type WindowRef struct {
	Line *Line
	// Cwd is the window's --cwd when set and not empty, else the argument of
	// the last cd since the last new_tab or new_os_window (kitty keeps cd per
	// tab), else "". As written: not expanded, not resolved.
	Cwd string
	// TabTitle is the title given by new_tab TITLE, or by new_os_window TITLE
	// (kitty names the new OS window's first tab with it), "" if none.
	TabTitle string
	// OSWindow and Tab are 0-based indexes in the order kitty creates OS
	// windows and tabs. Like kitty, a new_tab that follows a tab without
	// windows replaces that tab, and a new_os_window before the first window
	// does not start a second OS window.
	OSWindow int
	Tab      int
}

// Windows returns every launch line with its context.
func (f *File) Windows() []WindowRef {
	var (
		out                     []WindowRef
		osWindow, tab           int
		cd, title               string
		tabHasWin, osWinHasWins bool
	)
	for _, l := range f.Lines {
		switch l.Directive {
		case "new_os_window":
			if osWindow > 0 || osWinHasWins {
				osWindow++
			}
			tab, cd, title, tabHasWin, osWinHasWins = 0, "", l.Rest, false, false
		case "new_tab":
			if tabHasWin {
				tab++
			}
			cd, title, tabHasWin = "", l.Rest, false
		case "cd":
			cd = l.Rest
		case "launch":
			if l.Launch == nil {
				continue
			}
			cwd := cd
			if v, ok := l.Launch.Option("--cwd"); ok && v != "" {
				cwd = v
			}
			out = append(out, WindowRef{Line: l, Cwd: cwd, TabTitle: title, OSWindow: osWindow, Tab: tab})
			tabHasWin, osWinHasWins = true, true
		}
	}
	return out
}

// ParseLine reads one line as Parse does, except that raw may hold "\n"
// inside a quoted word: the line kitty meant, which it wrote over several
// lines when a value held a line break. An unquoted "\n" is an error.
func ParseLine(raw string) (*Line, error) {
	l, err := parseLine(1, raw, "")
	if err != nil {
		return nil, &LineError{Line: 1, Err: err}
	}
	return l, nil
}
