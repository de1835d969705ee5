package prompt

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

const testID = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"

// viewEnv is an Env for drawing the prompt, in a directory with a long
// name, with a journal that knows the conversation.
func viewEnv(t *testing.T, env map[string]string) *Env {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, "code", "kittymux-api-server-with-a-long-name", "internal")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	state := filepath.Join(home, "state")
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	j := journal.New(paths.Paths{StateDir: state}.Journal(), false)
	j.Clock = clock.NewFake(now)
	if _, err := j.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: "1", Agent: "claude", ID: testID, LastSeen: now.Add(-12 * time.Minute),
			RunsFinished: 7, WorkingSeconds: (80 * time.Minute).Seconds(), TabTitle: "api work"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if env == nil {
		env = map[string]string{}
	}
	env["HOME"] = home
	if _, ok := env["TERM"]; !ok {
		env["TERM"] = "xterm-kitty"
	}
	return &Env{
		Getenv: func(k string) string { return env[k] },
		Paths:  paths.Paths{StateDir: state},
		Clock:  clock.NewFake(now),
		NewArgv: func(r resumerecord.Record) ([]string, error) {
			return []string{"claude", "--model", "sonnet"}, nil
		},
		LatestPerDir: func(string) bool { return true },
	}
}

func exact(extra func(*resumerecord.Record)) resumerecord.Record {
	r := resumerecord.Record{Agent: "claude", Mode: "exact", ID: testID, Tab: "api work",
		Argv: []string{"claude", "--model", "sonnet", "--resume", testID}}
	if extra != nil {
		extra(&r)
	}
	return r
}

// TestPromptFits draws the prompt at 20, 40, 80 and 120 columns: no line is
// wider than the window, no word is cut (only shortened with "…", or, in a
// command shown for checking, broken because it is wider than a line),
// every key hint is whole, and the question comes first. The plain
// drawings are golden files (go test -run TestPromptFits -update).
func TestPromptFits(t *testing.T) {
	cases := []struct {
		name   string
		r      resumerecord.Record
		sealed bool
	}{
		{"exact", exact(nil), true},
		{"edited", exact(func(r *resumerecord.Record) {
			r.Env = []string{"CLAUDE_CONFIG_DIR=/home/me/.claude-work"}
			r.Seal = "00"
		}), false},
		{"confirm", exact(func(r *resumerecord.Record) {
			r.Confirm = true
			r.Argv = []string{"claude", "--frobnicate", "loud", "--resume", testID}
		}), true},
		{"latest", resumerecord.Record{Agent: "claude", Mode: "latest", Argv: []string{"claude", "--continue"}}, true},
		{"new", resumerecord.Record{Agent: "gemini", Mode: "new", Tab: "docs and a rather long tab title", Argv: []string{"gemini"}}, true},
	}
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for _, width := range []int{20, 40, 80, 120} {
			t.Run(c.name+"/"+strconv.Itoa(width), func(t *testing.T) {
				e := viewEnv(t, nil)
				ps := e.question(c.r, c.sealed, width < 40)
				got := layout(ps, width)
				wide := layout(e.question(c.r, c.sealed, width < 40), 10000)
				var b strings.Builder
				for _, l := range got {
					s := l.String()
					b.WriteString(s + "\n")
					if n := kitty.Cells(s); n > width {
						t.Errorf("line wider than %d (%d): %q", width, n, s)
					}
				}
				drawn := b.String()
				if err := sameWords(wide, got, width); err != "" {
					t.Errorf("%s\n%s", err, drawn)
				}
				for _, h := range hintTexts(width < 40) {
					if !lineHas(got, h) {
						t.Errorf("key hint %q is not whole on a line:\n%s", h, drawn)
					}
				}
				if !strings.HasPrefix(got[0].String(), c.r.Agent+" ·") {
					t.Errorf("the question is not first:\n%s", drawn)
				}
				golden(t, filepath.Join(testdata, "prompt", c.name+"-"+strconv.Itoa(width)+".txt"), drawn)
			})
		}
	}
}

func hintTexts(narrow bool) []string {
	if narrow {
		return []string{"Enter resume", "n new", "s shell", "a resume all", "i commands"}
	}
	return []string{"Enter resume", "n new conversation", "s shell", "a resume all", "i commands"}
}

func lineHas(lines []line, s string) bool {
	for _, l := range lines {
		if strings.Contains(l.String(), s) || strings.Contains(l.String(), strings.Replace(s, "resume", "start", 1)) {
			return true
		}
	}
	return false
}

// sameWords checks that got holds the words of wide in order: each whole,
// shortened with "…" (the start or the end kept), or broken across lines
// only when wider than a line.
func sameWords(wide, got []line, width int) string {
	var want, have []string
	for _, l := range wide {
		want = append(want, strings.Fields(l.String())...)
	}
	for _, l := range got {
		have = append(have, strings.Fields(l.String())...)
	}
	i := 0
	for _, w := range want {
		if i >= len(have) {
			return "missing " + w
		}
		h := have[i]
		switch {
		case h == w:
			i++
		case strings.HasSuffix(h, "…") && strings.HasPrefix(w, strings.TrimSuffix(h, "…")),
			strings.HasPrefix(h, "…") && strings.HasSuffix(w, strings.TrimPrefix(h, "…")):
			i++
		case kitty.Cells(w) > width-2 && strings.HasPrefix(w, h):
			// Wider than a line: broken, in pieces that make it up again.
			joined := ""
			for i < len(have) && len(joined) < len(w) {
				joined += have[i]
				i++
			}
			if joined != w {
				return "word " + w + " drawn as " + joined
			}
		default:
			return "word " + w + " drawn as " + h
		}
	}
	if i != len(have) {
		return "extra words: " + strings.Join(have[i:], " ")
	}
	return ""
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestEmphasis: key letters bold, the directory dim, "(edited)" in the
// terminal's red (SGR 31, never a chosen colour); nothing with NO_COLOR or
// a dumb terminal.
func TestEmphasis(t *testing.T) {
	e := viewEnv(t, nil)
	got := render(layout(e.question(exact(func(r *resumerecord.Record) { r.Seal = "00" }), false, false), 80), e.color())
	for _, want := range []string{"\x1b[1mEnter\x1b[22m resume", "\x1b[1mn\x1b[22m new conversation",
		"\x1b[1mi\x1b[22m commands", "\x1b[31m(edited)\x1b[39m", "\x1b[2m~/code/"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%q", want, got)
		}
	}
	for _, no := range []string{"38;", "48;"} {
		if strings.Contains(got, "\x1b["+no) {
			t.Errorf("a chosen colour (%q):\n%q", no, got)
		}
	}
	for _, env := range []map[string]string{{"NO_COLOR": "1"}, {"TERM": "dumb"}} {
		e := viewEnv(t, env)
		if got := render(layout(e.question(exact(nil), false, false), 80), e.color()); strings.Contains(got, "\x1b") {
			t.Errorf("%v: escape codes drawn:\n%q", env, got)
		}
	}
}

// TestPrintable: text from outside (a directory name, a tab title) never
// reaches the terminal as a control: escape sequences go, line breaks and
// tabs become spaces, other unprintables show as "�".
func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"api work", "api work"},
		{"x\x1b]2;pwned\x07y", "xy"},
		{"x\x1b]2;pwned\x1b\\y", "xy"},
		{"x\x1b]0;pwned", "x"},
		{"\x1b[2J\x1b[Hclear", "clear"},
		{"\x1b[38;2;255;0;0mred\x1b[0m", "red"},
		{"a\u009b2Jb", "ab"},
		{"a\u009d2;t\u009cb", "ab"},
		{"a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"a\x1bcb", "ab"},
		{"a\x1b(0b", "ab"},
		{"line\nbreak\tand\rreturn", "line break and return"},
		{"bell\x07\x08\x7f", "bell"},
		{"rtl \u202eevil", "rtl �evil"},
		{"bad \xff utf8", "bad � utf8"},
		{"ünïcødé 日本 ↻", "ünïcødé 日本 ↻"},
		{"trailing esc \x1b", "trailing esc "},
	} {
		if got := printable(c.in); got != c.want {
			t.Errorf("printable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestHostileDirectory: a directory name and a tab title holding a title
// change and a clear-screen draw as plain text, and the title the prompt
// sets is its own.
func TestHostileDirectory(t *testing.T) {
	e := viewEnv(t, nil)
	evil := filepath.Join(t.TempDir(), "x\x1b]2;pwned\x07\x1b[2J\x1b[3Jdir")
	if err := os.Mkdir(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(evil)
	r := exact(func(r *resumerecord.Record) { r.Tab = "tab\x1b]2;owned\x1b\\\x1b[H" })
	got := render(layout(e.question(r, true, false), 80), e.color())
	for _, bad := range []string{"pwned", "owned", "\x1b]", "\x1b[2J", "\x1b[3J", "\x1b[H", "\x07"} {
		if strings.Contains(got, bad) {
			t.Errorf("drawn with %q:\n%q", bad, got)
		}
	}
	if !strings.Contains(got, "xdir") || !strings.Contains(got, `tab "tab"`) {
		t.Errorf("the names are not shown as text:\n%q", got)
	}
	if got, want := e.waitingTitle(r), "claude ↻ tab"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
}

func TestWaitingTitle(t *testing.T) {
	e := viewEnv(t, nil)
	for _, c := range []struct {
		r    resumerecord.Record
		want string
	}{
		{exact(nil), "claude ↻ api work"},
		// No tab saved: the journal's, else the directory's name.
		{exact(func(r *resumerecord.Record) { r.Tab = "" }), "claude ↻ api work"},
		{resumerecord.Record{Agent: "codex", Mode: "latest"}, "codex ↻ internal"},
	} {
		if got := e.waitingTitle(c.r); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}
