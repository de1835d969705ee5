package sessionfile_test

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// TestSafeDir: a directory kitty 0.26.5 or 0.48.2 would read differently
// becomes its nearest parent that both read as written.
func TestSafeDir(t *testing.T) {
	for _, c := range []struct{ dir, want string }{
		{"/home/u/code/api", "/home/u/code/api"},
		{"/home/u/x y/api", "/home/u/x y/api"},
		{"/home/u/it's", "/home/u/it's"},
		{"/home/u/x\nlaunch sh -c 'touch /tmp/m'", "/home/u"},
		{"/home/u/x\nlaunch y\\", "/home/u"},
		{"/home/u/x\r/y", "/home/u"},
		{"/home/u/a\u2028b/c", "/home/u"},
		{"/home/u/$HOME/api", "/home/u"},
		{"/home/u/api ", "/home/u"},
		{"/home/u/\x1b]2;t\x07", "/home/u"},
		{"/home/u/it's `x`", "/home/u"},
		{"/home/u/x\n/../../etc", "/home/u"},
		{"relative/dir", "/relative/dir"},
		{"/\n", "/"},
	} {
		if got := sessionfile.SafeDir(c.dir); got != c.want {
			t.Errorf("SafeDir(%q) = %q, want %q", c.dir, got, c.want)
		}
		if safe := sessionfile.DirProblem(c.dir) == ""; safe != (c.dir == c.want) {
			t.Errorf("DirProblem(%q) safe = %v", c.dir, safe)
		}
	}
}

// TestQuoteWord: only quoting kitty 0.26.5's shlex and 0.48.2's lexer read
// the same: a word that would need "\$" or "\`" is refused.
func TestQuoteWord(t *testing.T) {
	for _, c := range []struct {
		word, want string
		fails      bool
	}{
		{word: "plain", want: "plain"},
		{word: "it `works`", want: "'it `works`'"},
		{word: "$HOME", want: "'$HOME'"},
		{word: "it's", want: `"it's"`},
		{word: `it's \ "x"`, want: `"it's \\ \"x\""`},
		{word: "it's `x`", fails: true},
		{word: "it's $x", fails: true},
		{word: "a\nb", fails: true},
	} {
		got, err := sessionfile.QuoteWord(c.word)
		if (err != nil) != c.fails || got != c.want {
			t.Errorf("QuoteWord(%q) = %q, %v", c.word, got, err)
		}
	}
}
