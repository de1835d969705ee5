package screenhist

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFilter(t *testing.T) {
	const esc = "\x1b"
	for _, c := range []struct{ name, in, want string }{
		{"text", "plain text\tand tabs\n", "plain text\tand tabs\n"},
		{"sgr kept", esc + "[1;38:2:255:0:0mred" + esc + "[m\n", esc + "[1;38:2:255:0:0mred" + esc + "[m\n"},
		{"unicode", "héllo — ✓ 日本\n", "héllo — ✓ 日本\n"},
		{"osc 2 title bel", esc + "]2;owned" + "\x07after", "after"},
		{"osc 52 clipboard st", esc + "]52;c;ZXZpbA==" + esc + "\\x", "x"},
		{"osc 1337 user var", esc + "]1337;SetUserVar=kittymux_agent=Y2xhdWRl\x07ok", "ok"},
		{"osc 7 with newlines", esc + "]7;file://h/tmp/a\nb\nc" + esc + "\\done", "done"},
		{"osc 8 hyperlink", esc + "]8;;http://x\x07link" + esc + "]8;;\x07", "link"},
		{"osc 133 mark", esc + "]133;C;cmdline_url=claude%20--x\x07y", "y"},
		{"kitty remote control dcs", esc + `P@kitty-cmd{"cmd":"launch","payload":{"args":["sh"]}}` + esc + "\\z", "z"},
		{"apc graphics", esc + "_Gf=100;AAAA" + esc + "\\g", "g"},
		{"pm sos", esc + "^pm" + esc + "\\" + esc + "Xsos" + esc + "\\.", "."},
		{"cursor movement", esc + "[2J" + esc + "[H" + esc + "[10;5Hx" + esc + "[3A", "x"},
		{"private modes", esc + "[?1049h" + esc + "[?2004lx" + esc + "[>1u", "x"},
		{"sgr with private marker", esc + "[?1mx", "x"},
		{"sgr with intermediate", esc + "[1 mx", "x"},
		{"two-byte escapes", esc + "7" + esc + "8" + esc + "c" + esc + "(Bx" + esc + "=", "x"},
		{"lone esc at end", "x" + esc, "x"},
		{"esc esc", esc + esc + "[31mx", esc + "[31mx"},
		{"cr tricks", "secret\rpublic\n", "secretpublic\n"},
		{"c0 controls", "a\x00b\x07c\x08d\x0ee\x7ff", "abcdef"},
		{"c1 controls", "a\u009b2Jb\u009d2;t\u009cc\u0090x", "a2Jb2;tcx"},
		{"8-bit c1", "a\x9b2Jb\x9d0;t\x07c", "a2Jb0;tc"},
		{"invalid utf-8", "a\xff\xfeb\xc3", "ab"},
		{"unended osc swallows", esc + "]2;title and the rest", ""},
		{"osc ended by new escape", esc + "]2;t" + esc + "[31mred", esc + "[31mred"},
		{"csi broken by newline", esc + "[31\nx", "\nx"},
		{"long sgr dropped", esc + "[" + strings.Repeat("1;", 40) + "mx", "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := string(Filter([]byte(c.in))); got != c.want {
				t.Errorf("Filter(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// checkFiltered reports what of out a terminal could act on: an ESC that
// does not start a well-formed SGR sequence, a C0 control but "\n" and
// "\t", DEL, a C1 control, invalid UTF-8.
func checkFiltered(out []byte) error {
	if !utf8.Valid(out) {
		return fmt.Errorf("invalid UTF-8")
	}
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == 0x1b:
			j := i + 1
			if j >= len(out) || out[j] != '[' {
				return fmt.Errorf("ESC not starting CSI at %d", i)
			}
			j++
			for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';' || out[j] == ':') {
				j++
			}
			if j >= len(out) || out[j] != 'm' {
				return fmt.Errorf("ESC [ not an SGR at %d: %q", i, out[i:min(j+1, len(out))])
			}
			i = j + 1
		case c == '\n' || c == '\t':
			i++
		case c < 0x20 || c == 0x7f:
			return fmt.Errorf("control %#x at %d", c, i)
		default:
			r, n := utf8.DecodeRune(out[i:])
			if isC1(r) {
				return fmt.Errorf("C1 control %U at %d", r, i)
			}
			i += n
		}
	}
	return nil
}

func FuzzFilter(f *testing.F) {
	for _, s := range []string{
		"\x1b[31mred\x1b[m\n", "\x1b]2;t\x07", "\x1bP@kitty-cmd{}\x1b\\", "\x1b[?1049h", "\u009b2J", "\x1b",
		"\x1b]7;file://x\n\n\x1b\\", "\x1b[1;38:2:1:2:3m", "a\rb", "\x1b_G\x1b\\", "\xc2\x9b31m",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := Filter(in)
		if err := checkFiltered(out); err != nil {
			t.Fatalf("Filter(%q) = %q: %v", in, out, err)
		}
		if again := Filter(out); !bytes.Equal(again, out) {
			t.Fatalf("Filter is not stable on its output: %q then %q", out, again)
		}
		for _, lines := range []int{1, 3} {
			b := Bound(out, lines, 16)
			if err := checkFiltered(b); err != nil {
				t.Fatalf("Bound(%q) = %q: %v", out, b, err)
			}
			if len(b) > 16 {
				t.Fatalf("Bound(%q) is %d bytes", out, len(b))
			}
		}
	})
}

// TestBoundLargeWindow: a window of 100,000 coloured lines keeps its last
// 2,000 lines, or its last 256 KiB, whole lines, whichever is less.
func TestBoundLargeWindow(t *testing.T) {
	var b strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&b, "\x1b[3%dmline %06d\x1b[m\n", i%8, i)
	}
	b.WriteString("\n\n   \n\x1b[m\n") // the empty screen below the prompt
	in := Filter([]byte(b.String()))

	d := DefaultBounds
	out := Bound(in, d.Lines, d.WindowBytes)
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2000 {
		t.Errorf("kept %d lines, want 2000", len(lines))
	}
	if want := "\x1b[30mline 098000\x1b[m"; lines[0] != want {
		t.Errorf("first kept line %q, want %q", lines[0], want)
	}
	if want := "\x1b[37mline 099999\x1b[m"; lines[len(lines)-1] != want {
		t.Errorf("last kept line %q, want %q", lines[len(lines)-1], want)
	}

	small := Bound(in, d.Lines, 1000)
	if len(small) > 1000 || !bytes.HasPrefix(small, []byte("\x1b[")) || !bytes.HasSuffix(small, []byte("line 099999\x1b[m")) {
		t.Errorf("bounded to 1000 bytes: %d bytes, %q...%q", len(small), small[:min(20, len(small))], small[max(0, len(small)-20):])
	}

	long := Filter([]byte(strings.Repeat("é", 100_000)))
	if got := Bound(long, d.Lines, 1001); len(got) > 1001 || !utf8.Valid(got) || len(got) < 998 {
		t.Errorf("one long line bounded to %d bytes (valid %v)", len(got), utf8.Valid(got))
	}
	if got := Bound([]byte("a\nb\nc\n"), 2, 100); string(got) != "b\nc\n" {
		t.Errorf("the last 2 lines of a text ending in a newline: %q", got)
	}
	if got := Bound([]byte("\n \n\x1b[m\n"), 2000, 1<<20); len(got) != 0 {
		t.Errorf("a blank screen keeps %q", got)
	}
}
