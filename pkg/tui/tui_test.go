package tui

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func ask(keys string, out *strings.Builder) *Asker {
	a, err := Open(strings.NewReader(keys), out)
	if err != nil {
		panic(err)
	}
	return a
}

// TestConfirm: y is yes, n and Enter are no, keys that mean nothing are
// passed over, and Ctrl-C, Esc or the input ending leave.
func TestConfirm(t *testing.T) {
	for _, c := range []struct {
		keys string
		yes  bool
		err  error
	}{
		{"y", true, nil}, {"Y", true, nil}, {"n", false, nil}, {"\r", false, nil},
		{"x\x1b[Ay", true, nil}, {"\x03", false, ErrCancelled}, {"\x1b", false, ErrCancelled}, {"", false, ErrCancelled},
	} {
		var out strings.Builder
		yes, err := Confirm(strings.NewReader(c.keys), &out, "Turn it on?", "one\ntwo")
		if yes != c.yes || !errors.Is(err, c.err) {
			t.Errorf("keys %q: %v, %v; want %v, %v", c.keys, yes, err, c.yes, c.err)
		}
		if !strings.HasPrefix(out.String(), "Turn it on?\r\n  one\r\n  two\r\n") {
			t.Errorf("keys %q: wrote %q", c.keys, out.String())
		}
	}
}

// TestSelect: Enter takes the option marked, the arrows and j, k move the
// mark within the list, a digit takes its option at once.
func TestSelect(t *testing.T) {
	opts := []Option{{"plain — a shell", "plain"}, {"agent", "agent"}, {"pair", "pair"}}
	for _, c := range []struct {
		keys, want string
		err        error
	}{
		{"\r", "plain", nil}, {"\x1b[B\r", "agent", nil}, {"jj\r", "pair", nil}, {"jjjjk\r", "agent", nil},
		{"\x1b[A\x1b[A\r", "plain", nil}, {"3", "pair", nil}, {"9\r", "plain", nil}, {"\x03", "", ErrCancelled},
		{"j", "", ErrCancelled},
	} {
		var out strings.Builder
		got, err := ask(c.keys, &out).Select("Template", opts)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("keys %q: %q, %v; want %q, %v", c.keys, got, err, c.want, c.err)
		}
	}
	var out strings.Builder
	if _, err := ask("j\r", &out).Select("Template", opts); err != nil {
		t.Fatal(err)
	}
	// Drawn, then moved up and drawn again with the second marked.
	if want := "\r\x1b[K> 1 plain — a shell\r\n\r\x1b[K  2 agent\r\n\r\x1b[K  3 pair\r\n\x1b[3A\r\x1b[K  1 plain — a shell\r\n\r\x1b[K> 2 agent\r\n"; !strings.Contains(out.String(), want) {
		t.Errorf("drew %q", out.String())
	}
	if _, err := ask("\r", &out).Select("Agent", nil); err == nil {
		t.Error("nothing to choose from: no error")
	}
}

// TestInput: the default is typed already; Backspace and Ctrl-U edit,
// escape sequences type nothing, and a line valid refuses is asked again.
func TestInput(t *testing.T) {
	abs := func(s string) error {
		if !strings.HasPrefix(s, "/") {
			return errors.New("an absolute path, please")
		}
		return nil
	}
	for _, c := range []struct {
		keys, want string
		err        error
	}{
		{"\r", "/home/me", nil}, {"/src\r", "/home/me/src", nil}, {"\x7f\x7fYOU\r", "/home/YOU", nil},
		{"\x15/tmp\r", "/tmp", nil}, {"\x1b[D\x1b[C/x\r", "/home/me/x", nil}, {"\x15rel\r\x15/ok\r", "/ok", nil},
		{"\x15rel\r", "", ErrCancelled}, {"\x03", "", ErrCancelled}, {"é\r", "/home/meé", nil},
	} {
		var out strings.Builder
		got, err := ask(c.keys, &out).Input("Directory", "/home/me", abs)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("keys %q: %q, %v; want %q, %v", c.keys, got, err, c.want, c.err)
		}
	}
	var out strings.Builder
	if _, err := ask("\x15rel\r\x15/ok\r", &out).Input("Directory", "/home/me", abs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "an absolute path, please") {
		t.Errorf("the refusal is not shown: %q", out.String())
	}
}

// TestAskerKeepsTypedAhead: keys typed ahead of a question are its, not
// lost with the one before.
func TestAskerKeepsTypedAhead(t *testing.T) {
	var out strings.Builder
	a := ask("2/tmp\ry", &out)
	pick, err1 := a.Select("Agent", []Option{{"claude", "claude"}, {"codex", "codex"}})
	dir, err2 := a.Input("Directory", "", nil)
	yes, err3 := a.Confirm("Go?", "")
	if pick != "codex" || dir != "/tmp" || !yes || err1 != nil || err2 != nil || err3 != nil {
		t.Errorf("got %q %q %v (%v %v %v)", pick, dir, yes, err1, err2, err3)
	}
}

// TestFitsTheTerminal: on a terminal of 20 columns an option longer than a
// row is cut to one, and a long line typed shows its end: each is redrawn
// in place, which a line wrapped onto a second row would break.
func TestFitsTheTerminal(t *testing.T) {
	var out strings.Builder
	a := ask("\r", &out)
	a.width = 20
	if _, err := a.Select("Template", []Option{{"review — an agent, the diff and a shell", "review"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "> 1 review — an ag…\r\n") {
		t.Errorf("option not cut to the row: %q", out.String())
	}
	out.Reset()
	a = ask("/deeply/nested/directory\r", &out)
	a.width = 20
	got, err := a.Input("Directory", "", nil)
	if err != nil || got != "/deeply/nested/directory" {
		t.Fatalf("%q %v", got, err)
	}
	if !strings.HasSuffix(out.String(), "\r\x1b[K> …ested/directory\r\n") {
		t.Errorf("the line's end not shown: %q", out.String())
	}
	// Wide characters take two columns each: the row holds half as many.
	out.Reset()
	a = ask("\r", &out)
	a.width = 12
	if _, err := a.Select("T", []Option{{"日本語のテンプレート", "x"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "> 1 日本語…\r\n") {
		t.Errorf("wide option not cut by its cells: %q", out.String())
	}
	out.Reset()
	a = ask("\r", &out)
	a.width = 12
	if got, err := a.Input("Directory", "/srv/日本語のディレクトリ", nil); err != nil || got != "/srv/日本語のディレクトリ" {
		t.Fatalf("%q %v", got, err)
	}
	if !strings.HasSuffix(out.String(), "\r\x1b[K> …クトリ\r\n") {
		t.Errorf("wide line's end not cut by its cells: %q", out.String())
	}
}

// TestPrintsNothingItIsGiven: a default (a directory's name, which any
// program can choose), a title and a label reach the terminal through
// kitty.Printable, and a C1 control typed is not taken; the line returned
// is the name itself.
func TestPrintsNothingItIsGiven(t *testing.T) {
	var out strings.Builder
	dir := "/tmp/evil\x1b]2;pwned\x07\nx"
	got, err := ask("\u009b\r", &out).Input("Directory \x1b[31m", dir, nil)
	if err != nil || got != dir {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := ask("\r", &out).Select("Template", []Option{{"a\x1b[2Jb", "a"}}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\x1b]2;", "\x1b[31m", "\x1b[2J", "\u009b", "evil\x07", "evil\x1b"} {
		if strings.Contains(out.String(), bad) {
			t.Errorf("%q reached the terminal: %q", bad, out.String())
		}
	}
}

// chunks hands out one string a read: keys as a slow link splits them.
type chunks []string

func (c *chunks) Read(p []byte) (int, error) {
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	(*c)[0] = (*c)[0][n:]
	if (*c)[0] == "" {
		*c = (*c)[1:]
	}
	return n, nil
}

// TestSplitSequence: an arrow whose bytes arrive apart is an arrow when
// more comes soon after the Esc; an Esc with nothing after it leaves.
func TestSplitSequence(t *testing.T) {
	opts := []Option{{"one", "1"}, {"two", "2"}}
	for _, c := range []struct {
		keys []string
		more bool
		want string
		err  error
	}{
		{[]string{"\x1b", "[B", "\r"}, true, "2", nil},
		{[]string{"\x1b", "[", "B", "\r"}, true, "2", nil},
		{[]string{"\x1b", "[B\r"}, false, "", ErrCancelled},
	} {
		var out strings.Builder
		in := chunks(c.keys)
		a, err := Open(&in, &out)
		if err != nil {
			t.Fatal(err)
		}
		a.more = func() bool { return c.more }
		got, err := a.Select("Pick", opts)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("%q (more %v): %q, %v; want %q, %v", c.keys, c.more, got, err, c.want, c.err)
		}
	}
}

// TestSessionKeepsTypedAhead: a key typed ahead of the first question
// answers the second, though each question has the terminal to itself.
func TestSessionKeepsTypedAhead(t *testing.T) {
	var out strings.Builder
	s := NewSession(strings.NewReader("ny"), &out)
	first, err1 := s.Confirm("One?", "")
	second, err2 := s.Confirm("Two?", "")
	if first || !second || err1 != nil || err2 != nil {
		t.Errorf("answers %v, %v (%v, %v); want no, yes", first, second, err1, err2)
	}
}

// TestRawKeysNeedsATerminal: keys are read raw from a terminal only.
func TestRawKeysNeedsATerminal(t *testing.T) {
	if _, _, err := RawKeys(strings.NewReader("y")); err == nil {
		t.Error("raw keys from a reader that is no terminal")
	}
}
