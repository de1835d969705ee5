package sessionfile_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/sessionfile"
)

var update = flag.Bool("update", false, "rewrite testdata/sessionfile/*.golden")

const (
	fixtureDir  = "../../testdata/kitty/0.48.2"
	testdataDir = "../../testdata/sessionfile"
	saveFixture = fixtureDir + "/save_as_session-use-foreground-process.kitty-session"
)

// sessionFiles are the real kitty files (testdata/kitty) and ours.
func sessionFiles(t *testing.T) []string {
	t.Helper()
	if _, err := os.Stat(fixtureDir); err != nil {
		t.Fatalf("kitty fixtures missing: %v", err)
	}
	var files []string
	for _, dir := range []string{fixtureDir, testdataDir} {
		m, err := filepath.Glob(filepath.Join(dir, "*.kitty-session"))
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no session files in %s", dir)
		}
		files = append(files, m...)
	}
	return files
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func parse(t *testing.T, data []byte) *sessionfile.File {
	t.Helper()
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRoundTrip(t *testing.T) {
	for _, path := range sessionFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data := read(t, path)
			f := parse(t, data)
			if got := f.Bytes(); !bytes.Equal(got, data) {
				t.Errorf("Bytes() differs from the file:\n%s", cmp.Diff(string(data), string(got)))
			}
			if n := bytes.Count(data, []byte("\nlaunch")); n > 0 && len(f.Launches()) < n {
				t.Errorf("%d launch lines, want at least %d", len(f.Launches()), n)
			}
		})
	}
}

func TestLines(t *testing.T) {
	f := parse(t, []byte("# c\r\n\n  new_tab   my tab  \nlaunch\tvim\nfocus"))
	type view struct {
		Num                       int
		Raw, EOL, Directive, Rest string
		IsLaunch                  bool
	}
	var got []view
	for _, l := range f.Lines {
		got = append(got, view{l.Num, l.Raw, l.EOL, l.Directive, l.Rest, l.Launch != nil})
	}
	want := []view{
		{1, "# c", "\r\n", "", "", false},
		{2, "", "\n", "", "", false},
		{3, "  new_tab   my tab  ", "\n", "new_tab", "my tab", false},
		{4, "launch\tvim", "\n", "launch", "vim", true},
		{5, "focus", "", "focus", "", false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	if got := parse(t, nil).Bytes(); len(got) != 0 {
		t.Errorf("empty file: got %q", got)
	}
}

// launchView is what a caller sees of a Launch.
type launchView struct {
	ID      int // -1 without kitty-unserialize-data
	Cmd     sessionfile.CmdAtShellStartup
	Options []sessionfile.Option
	Argv    []string
}

func viewOf(l *sessionfile.Launch) launchView {
	v := launchView{ID: -1, Options: l.Options, Argv: l.Argv}
	if l.Unserialize != nil {
		v.ID, v.Cmd = l.Unserialize.ID(), l.Unserialize.CmdAtShellStartup
	}
	return v
}

func opt(name, value string) sessionfile.Option {
	return sessionfile.Option{Name: name, Value: value, HasValue: true}
}

func sep(name, value string) sessionfile.Option {
	return sessionfile.Option{Name: name, Value: value, HasValue: true, Separate: true}
}

func flagOpt(name string) sessionfile.Option { return sessionfile.Option{Name: name} }

func TestParseLaunch(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       launchView
	}{
		{"kitty shell window", `launch 'kitty-unserialize-data={"id": 1}'`, launchView{ID: 1}},
		{"bare launch", `launch`, launchView{ID: -1}},
		{"cmd string", `launch 'kitty-unserialize-data={"id": 6, "cmd_at_shell_startup": "opencode -m x \"fix the tests\""}'`,
			launchView{ID: 6, Cmd: sessionfile.CmdAtShellStartup{Set: true, String: `opencode -m x "fix the tests"`}}},
		{"cmd list", `launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["/usr/bin/top", "-d", "1"]}'`,
			launchView{ID: 2, Cmd: sessionfile.CmdAtShellStartup{Set: true, IsList: true, List: []string{"/usr/bin/top", "-d", "1"}}}},
		{"cmd empty list", `launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": []}'`,
			launchView{ID: 2, Cmd: sessionfile.CmdAtShellStartup{Set: true, IsList: true, List: []string{}}}},
		{"kitty launched command", `launch 'kitty-unserialize-data={"id": 2}' '--title=codex pane' /home/u/.local/bin/codex resume 0199a213`,
			launchView{ID: 2, Options: []sessionfile.Option{opt("--title", "codex pane")}, Argv: []string{"/home/u/.local/bin/codex", "resume", "0199a213"}}},
		{"quoted quote in title", `launch '--title=it'"'"'s'`, launchView{ID: -1, Options: []sessionfile.Option{opt("--title", "it's")}}},
		{"env var hold", `launch --env=K=V --var=a=b=c --hold bash`,
			launchView{ID: -1, Options: []sessionfile.Option{opt("--env", "K=V"), opt("--var", "a=b=c"), flagOpt("--hold")}, Argv: []string{"bash"}}},
		{"bool with value", `launch --hold=no bash`, launchView{ID: -1, Options: []sessionfile.Option{opt("--hold", "no")}, Argv: []string{"bash"}}},
		{"two-word options", `launch --cwd /x\ y --title "a b" -w w.py prog arg`,
			launchView{ID: -1, Options: []sessionfile.Option{sep("--cwd", "/x y"), sep("--title", "a b"), sep("-w", "w.py")}, Argv: []string{"prog", "arg"}}},
		{"two-word value looks like an option", `launch --title --hold prog`,
			launchView{ID: -1, Options: []sessionfile.Option{sep("--title", "--hold")}, Argv: []string{"prog"}}},
		{"prefix of an option", `launch --ti x prog`, launchView{ID: -1, Options: []sessionfile.Option{sep("--ti", "x")}, Argv: []string{"prog"}}},
		{"unknown option is a flag", `launch --future prog`, launchView{ID: -1, Options: []sessionfile.Option{flagOpt("--future")}, Argv: []string{"prog"}}},
		{"end of options", `launch --cwd=/x -- -prog --hold`, launchView{ID: -1, Options: []sessionfile.Option{opt("--cwd", "/x")}, Argv: []string{"-prog", "--hold"}}},
		{"dollar is text", `launch --title=a$b $HOME "x$y" '$z' ${W} a$ $'q' $"r"`,
			launchView{ID: -1, Options: []sessionfile.Option{opt("--title", "a$b")}, Argv: []string{"$HOME", "x$y", "$z", "${W}", "a$", "$q", "$r"}}},
		{"kitty backslash rules", `launch a\ b "\a\"\\" 'c\d' ''`, launchView{ID: -1, Argv: []string{"a b", `a"\`, `c\d`, ""}}},
		{"shell words that are text to kitty", `launch FOO=bar ! { } if ~ * [x] a#b`,
			launchView{ID: -1, Argv: []string{"FOO=bar", "!", "{", "}", "if", "~", "*", "[x]", "a#b"}}},
		{"unserialize data only counts first", `launch prog 'kitty-unserialize-data={"id": 1}'`,
			launchView{ID: -1, Argv: []string{"prog", `kitty-unserialize-data={"id": 1}`}}},
		{"unknown keys and duplicate id", `launch 'kitty-unserialize-data={"x": [1, {"y": null}], "id": 3, "id": 4}'`, launchView{ID: 4}},
		{"blanks around", "  launch\t 'kitty-unserialize-data={\"id\":  5}'  \t", launchView{ID: 5}},
		{"python whitespace after directive", "launch\u00a0prog", launchView{ID: -1, Argv: []string{"prog"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, []byte(tc.line))
			if len(f.Lines) != 1 || f.Lines[0].Launch == nil {
				t.Fatalf("not one launch line: %+v", f.Lines)
			}
			if diff := cmp.Diff(tc.want, viewOf(f.Lines[0].Launch), cmpopts.EquateEmpty()); diff != "" {
				t.Error(diff)
			}
			if got := string(f.Bytes()); got != tc.line {
				t.Errorf("Bytes() = %q, want %q", got, tc.line)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const head = "new_tab\ncd /x\n" // the bad line is line 3
	for _, tc := range []struct {
		name, line, want string
	}{
		{"unterminated single quote", `launch 'kitty-unserialize-data={"id": 1}`, "line 3: splitting launch words: 1:8: reached EOF without closing quote `'`"},
		{"unterminated double quote", `launch --title="x`, "line 3: splitting launch words: 1:16: reached EOF without closing quote `\"`"},
		{"bad json", `launch 'kitty-unserialize-data={"id": 1'`, "line 3: kitty-unserialize-data: bad JSON"},
		{"json not an object", `launch 'kitty-unserialize-data=[1]'`, "line 3: kitty-unserialize-data: not a JSON object"},
		{"json trailing data", `launch 'kitty-unserialize-data={"id": 1}x'`, "line 3: kitty-unserialize-data: bad JSON: data after the object"},
		{"id missing", `launch 'kitty-unserialize-data={"cmd_at_shell_startup": "x"}'`, "line 3: kitty-unserialize-data: no id"},
		{"id a string", `launch 'kitty-unserialize-data={"id": "1"}'`, `line 3: kitty-unserialize-data: id "1" is not an integer`},
		{"id a float", `launch 'kitty-unserialize-data={"id": 1.5}'`, "line 3: kitty-unserialize-data: id 1.5 is not an integer"},
		{"cmd null", `launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": null}'`, "line 3: kitty-unserialize-data: cmd_at_shell_startup is null, not a string or a list of strings"},
		{"cmd list with null", `launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": ["a", null]}'`, "not a string or a list of strings"},
		{"command substitution", `launch echo $(ls)`, "line 3: column 13: command substitution"},
		{"backticks", "launch echo `ls`", "line 3: column 13: command substitution"},
		{"arithmetic", `launch echo $((1+2))`, "line 3: column 13: arithmetic expansion"},
		{"parameter with blank", `launch echo ${a:-x y}`, "line 3: column 13: a parameter expansion with blanks"},
		{"quote nested in double quotes", `launch echo "${a:-"x"}"`, "line 3: column 19: quote nested in a double-quoted string"},
		{"semicolon", `launch a; b`, `line 3: column 9: a shell operator (at "; b")`},
		{"trailing semicolon", `launch a;`, `line 3: column 9: unexpected ';'`},
		{"background", `launch a &`, `line 3: column 10: a shell operator (at "&")`},
		{"pipe", `launch a | b`, `line 3: column 10: a shell operator (at "| b")`},
		{"and", `launch a && b`, `line 3: column 10: a shell operator (at "&& b")`},
		{"redirection", `launch a > b`, "line 3: column 10: a redirection"},
		{"comment", `launch a #b`, `line 3: column 10: unexpected '#'`},
		{"subshell", `launch (a)`, "line 3: splitting launch words"},
		{"trailing backslash", `launch a\`, "line 3: column 9: trailing backslash"},
		{"option without value", `launch --cwd`, "line 3: launch option --cwd needs a value"},
		{"form feed", "# a\fb", `line 3: column 4: '\f' inside a line: kitty reads it as a line break`},
		{"lone CR", "cd /a\rlaunch x", `line 3: column 6: '\r' inside a line`},
		{"invalid UTF-8", "launch \xff", "line 3: launch line is not valid UTF-8"},
		{"NUL", "launch a\x00b", "line 3: column 9: NUL byte in a launch line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := sessionfile.Parse([]byte(head + tc.line + "\nfocus\n"))
			if err == nil {
				t.Fatalf("no error; parsed %+v", f.Lines[2])
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			var pe *sessionfile.LineError
			if !errors.As(err, &pe) || pe.Line != 3 {
				t.Errorf("error %v is not a *LineError for line 3", err)
			}
		})
	}
}

func TestWindows(t *testing.T) {
	f := parse(t, read(t, testdataDir+"/handwritten.kitty-session"))
	type ref struct {
		Num               int
		Cwd, TabTitle     string
		OSWindow, Tab, ID int
	}
	var got []ref
	for _, w := range f.Windows() {
		got = append(got, ref{w.Line.Num, w.Cwd, w.TabTitle, w.OSWindow, w.Tab, viewOf(w.Line.Launch).ID})
	}
	want := []ref{
		{12, "~/code/my project", `my "odd" title`, 0, 0, -1},
		{13, "/tmp/dir with spaces", `my "odd" title`, 0, 0, -1},
		{14, "/srv/two words", `my "odd" title`, 0, 0, -1},
		{15, "$HOME/x", `my "odd" title`, 0, 0, 7},
		{24, "$HOME", "second os window", 1, 0, 8},
		{25, "$HOME", "second os window", 1, 0, 9},
		{28, "", "", 1, 1, 10},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	var launches []int
	for _, l := range f.Launches() {
		launches = append(launches, l.Num)
	}
	if diff := cmp.Diff([]int{12, 13, 14, 15, 24, 25, 28}, launches); diff != "" {
		t.Errorf("Launches: %s", diff)
	}
}

func TestWindowsTabIndexes(t *testing.T) {
	// kitty drops a tab without windows when another new_tab follows, and a
	// leading new_os_window does not open a second OS window.
	f := parse(t, []byte("new_os_window\ncd /a\nnew_tab empty\nnew_tab one\nlaunch a\nnew_tab two\ncd /b\nlaunch --cwd= b\n"+
		"new_os_window\nnew_os_window three\nlaunch c\n"))
	type ref struct {
		Cwd, TabTitle string
		OSWindow, Tab int
	}
	var got []ref
	for _, w := range f.Windows() {
		got = append(got, ref{w.Cwd, w.TabTitle, w.OSWindow, w.Tab})
	}
	want := []ref{{"", "one", 0, 0}, {"/b", "two", 0, 1}, {"", "three", 2, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestOptionLookup(t *testing.T) {
	f := parse(t, []byte(`launch --window-title=a --cw /x --var=k=1 --va k=2 --var=flag --hold --env=E=1 -- prog`))
	l := f.Lines[0].Launch
	for _, tc := range []struct {
		name, value string
		ok          bool
	}{
		{"--title", "a", true},
		{"--window-title", "a", true},
		{"--cwd", "/x", true},
		{"--hold", "", true},
		{"--env", "E=1", true},
		{"--var", "flag", true},
		{"--keep-focus", "", false},
		{"--tab-title", "", false},
	} {
		value, ok := l.Option(tc.name)
		if value != tc.value || ok != tc.ok {
			t.Errorf("Option(%q) = %q, %v; want %q, %v", tc.name, value, ok, tc.value, tc.ok)
		}
	}
	if diff := cmp.Diff(map[string]string{"k": "2", "flag": ""}, l.Vars()); diff != "" {
		t.Errorf("Vars: %s", diff)
	}
}

// TestModify changes window 2's argv and turns window 1's string
// cmd_at_shell_startup into a list, on kitty's own file.
func TestModify(t *testing.T) {
	data := read(t, saveFixture)
	f := parse(t, data)
	ws := f.Windows()
	newArgv := []string{"/home/u/.local/bin/codex", "resume", "it's a $test", "-x"}
	newCmd := []string{"/home/u/.local/bin/claude", "--resume", "4f9e2a51", "--model", "opus"}
	if err := ws[1].Line.Launch.SetArgv(newArgv); err != nil {
		t.Fatal(err)
	}
	if err := ws[0].Line.Launch.SetCmdAtShellStartupList(newCmd); err != nil {
		t.Fatal(err)
	}
	out, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, f.Bytes()) {
		t.Error("Encode and Bytes differ")
	}
	again := parse(t, out)
	before := parse(t, data)
	if len(again.Lines) != len(before.Lines) {
		t.Fatalf("%d lines, want %d", len(again.Lines), len(before.Lines))
	}
	modified := map[int]bool{ws[0].Line.Num: true, ws[1].Line.Num: true}
	for i, l := range again.Lines {
		if !modified[l.Num] && (l.Raw != before.Lines[i].Raw || l.EOL != before.Lines[i].EOL) {
			t.Errorf("untouched line %d changed: %q, was %q", l.Num, l.Raw, before.Lines[i].Raw)
		}
	}
	w1, w2 := again.Lines[ws[0].Line.Num-1].Launch, again.Lines[ws[1].Line.Num-1].Launch
	want1 := launchView{ID: 1, Cmd: sessionfile.CmdAtShellStartup{Set: true, IsList: true, List: newCmd}}
	if diff := cmp.Diff(want1, viewOf(w1), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("window 1: %s", diff)
	}
	want2 := launchView{ID: 2, Options: []sessionfile.Option{opt("--title", "codex pane")}, Argv: newArgv}
	if diff := cmp.Diff(want2, viewOf(w2), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("window 2: %s", diff)
	}
	// kitty's style: JSON as json.dumps writes it, unchanged words as they were.
	wantLine1 := `launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": ["/home/u/.local/bin/claude", "--resume", "4f9e2a51", "--model", "opus"]}'`
	if got := again.Lines[ws[0].Line.Num-1].Raw; got != wantLine1 {
		t.Errorf("line 1:\n got %s\nwant %s", got, wantLine1)
	}
	wantLine2 := `launch 'kitty-unserialize-data={"id": 2}' '--title=codex pane' /home/u/.local/bin/codex resume "it's a \$test" -x`
	if got := again.Lines[ws[1].Line.Num-1].Raw; got != wantLine2 {
		t.Errorf("line 2:\n got %s\nwant %s", got, wantLine2)
	}
}

func TestUnchangedValuesKeepRaw(t *testing.T) {
	data := read(t, saveFixture)
	f := parse(t, data)
	for _, l := range f.Launches() {
		if err := l.Launch.SetArgv(l.Launch.Argv); err != nil {
			t.Fatal(err)
		}
		if u := l.Launch.Unserialize; u != nil && u.CmdAtShellStartup.Set && !u.CmdAtShellStartup.IsList {
			if err := l.Launch.SetCmdAtShellStartupString(u.CmdAtShellStartup.String); err != nil {
				t.Fatal(err)
			}
		}
		if l.Launch.Modified() {
			t.Errorf("line %d: setting the same values counts as a modification", l.Num)
		}
	}
	if !bytes.Equal(f.Bytes(), data) {
		t.Error("file changed")
	}
}

func TestJSONStyle(t *testing.T) {
	f := parse(t, []byte(`launch 'kitty-unserialize-data={"future":{"b":[1,2.50,null,true],"a":"é"},"cmd_at_shell_startup":"x","id":10}'`))
	l := f.Lines[0].Launch
	if err := l.SetCmdAtShellStartupList([]string{"é", `a"b`, "\x01", "😀", "<&>", "\x7f", "it's"}); err != nil {
		t.Fatal(err)
	}
	got, err := l.Unserialize.JSON()
	if err != nil {
		t.Fatal(err)
	}
	// As Python's json.dumps writes it (checked with python3).
	want := `{"id": 10, "future": {"b": [1, 2.50, null, true], "a": "\u00e9"}, "cmd_at_shell_startup": ["\u00e9", "a\"b", "\u0001", "\ud83d\ude00", "<&>", "\u007f", "it's"]}`
	if got != want {
		t.Errorf("JSON:\n got %s\nwant %s", got, want)
	}
	l.Unserialize.CmdAtShellStartup = sessionfile.CmdAtShellStartup{}
	if got, _ := l.Unserialize.JSON(); got != `{"id": 10, "future": {"b": [1, 2.50, null, true], "a": "\u00e9"}}` {
		t.Errorf("unset cmd: %s", got)
	}
	f = parse(t, []byte(`launch 'kitty-unserialize-data={"id": 3}'`))
	if err := f.Lines[0].Launch.SetCmdAtShellStartupString("claude"); err != nil {
		t.Fatal(err)
	}
	if got := string(f.Bytes()); got != `launch 'kitty-unserialize-data={"id": 3, "cmd_at_shell_startup": "claude"}'` {
		t.Errorf("new cmd: %s", got)
	}
}

func TestWriteErrors(t *testing.T) {
	const line = `launch 'kitty-unserialize-data={"id": 1}' --title=x vim`
	f := parse(t, []byte("new_tab\n"+line+"\n"))
	l := f.Lines[1].Launch
	if err := l.SetArgv([]string{"a\tb"}); err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Errorf("SetArgv with a tab: %v", err)
	}
	if err := l.SetArgv([]string{"a\x00b"}); err == nil {
		t.Error("SetArgv with NUL: no error")
	}
	if err := l.SetCmdAtShellStartupList([]string{"\xff"}); err == nil {
		t.Error("SetCmdAtShellStartupList with invalid UTF-8: no error")
	}
	if l.Modified() {
		t.Error("failed setters modified the line")
	}
	bare := parse(t, []byte("launch vim")).Lines[0].Launch
	if err := bare.SetCmdAtShellStartupList([]string{"x"}); err == nil || !strings.Contains(err.Error(), "no kitty-unserialize-data") {
		t.Errorf("SetCmdAtShellStartupList without data: %v", err)
	}
	// Fields changed directly are checked by Encode; Bytes keeps the line.
	for _, o := range []sessionfile.Option{{Name: "--cwd"}, {Name: "--hold", Value: "x", HasValue: true, Separate: true}, {Name: "title", Value: "x", HasValue: true}, {Name: "--"}} {
		l.Options = []sessionfile.Option{o}
		if _, err := f.Encode(); err == nil || !strings.HasPrefix(err.Error(), "line 2: ") {
			t.Errorf("option %+v: Encode error %v", o, err)
		}
		if got := string(f.Bytes()); got != "new_tab\n"+line+"\n" {
			t.Errorf("option %+v: Bytes = %q", o, got)
		}
	}
}

// golden cases: a modification of a session file whose expected output is
// testdata/sessionfile/NAME.golden (go test -update rewrites them).
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		modify      func(t *testing.T, ws []sessionfile.WindowRef)
	}{
		{"save_as_session", saveFixture, func(t *testing.T, ws []sessionfile.WindowRef) {
			must(t, ws[0].Line.Launch.SetCmdAtShellStartupList([]string{"/home/u/.local/bin/claude", "--resume", "9d2c7a10-1111-4c2e-8f00-0123456789ab", "--model", "opus"}))
			must(t, ws[1].Line.Launch.SetArgv([]string{"/home/u/.local/bin/codex", "resume", "0199a213-81c0-7800-8aa1-bbab2a035a53"}))
			must(t, ws[5].Line.Launch.SetCmdAtShellStartupString(`opencode -m anthropic/claude --session ses_1 "fix the tests"`))
		}},
		{"handwritten", testdataDir + "/handwritten.kitty-session", func(t *testing.T, ws []sessionfile.WindowRef) {
			must(t, ws[0].Line.Launch.SetArgv([]string{"claude", "--resume", "it's $HOME"}))
			must(t, ws[2].Line.Launch.SetArgv([]string{"-c"}))
			must(t, ws[3].Line.Launch.SetCmdAtShellStartupString("claude --continue"))
			must(t, ws[5].Line.Launch.SetArgv(nil))
			must(t, ws[6].Line.Launch.SetCmdAtShellStartupList([]string{"/usr/bin/claude", "--resume", "é"}))
		}},
		{"crlf", testdataDir + "/crlf.kitty-session", func(t *testing.T, ws []sessionfile.WindowRef) {
			must(t, ws[0].Line.Launch.SetCmdAtShellStartupList([]string{"claude", "--model", "opus", "--resume", "abc"}))
			must(t, ws[1].Line.Launch.SetArgv([]string{"vim", "notes 2.txt"}))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, read(t, tc.input))
			tc.modify(t, f.Windows())
			got, err := f.Encode()
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join(testdataDir, tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := read(t, golden)
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s differs (go test -update rewrites it):\n%s", golden, diff)
			}
			parse(t, got) // what we write, we read back
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSetOption: every spelling kitty accepts for the option (a prefix, an
// alias, a separate value) is replaced by one --name=value.
func TestSetOption(t *testing.T) {
	f, err := sessionfile.Parse([]byte("launch --cw /a --hold --cwd=/b --title x prog arg\n"))
	if err != nil {
		t.Fatal(err)
	}
	l := f.Windows()[0].Line.Launch
	if err := l.SetOption("--cwd", "/srv/my dir"); err != nil {
		t.Fatal(err)
	}
	if err := l.SetOption("--hold", "x"); err == nil {
		t.Error("--hold took a value")
	}
	if err := l.SetOption("--cwd", "/a\x00b"); err == nil {
		t.Error("a NUL was accepted")
	}
	out, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if want := "launch --hold --title x '--cwd=/srv/my dir' prog arg\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
