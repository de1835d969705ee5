package sessionfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse: Parse never panics; what it accepts, Bytes writes back byte for
// byte and it reads again the same; every launch line it accepts splits into
// the words kitty's own lexer reads; and after rewriting every launch line,
// the output parses back to the new values with all other lines untouched.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"../../testdata/kitty/0.48.2/*.kitty-session", "../../testdata/sessionfile/*.kitty-session"} {
		paths, _ := filepath.Glob(pattern)
		if len(paths) == 0 {
			f.Fatalf("no seeds in %s", pattern)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{
		`launch a\ b "\a\"" '' $x "${y}" --title=a$b`,
		`launch --cwd /x -- -y`,
		"launch 'kitty-unserialize-data={\"id\": 1, \"k\": [\"\\u00e9\", {\"a\": 1}]}' --hold",
		"launch \"it's\" \t x  \r\nlaunch",
	} {
		f.Add([]byte(s))
	}
	exportAll := cmp.Exporter(func(reflect.Type) bool { return true })
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			var pe *LineError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		if got := file.Bytes(); !bytes.Equal(got, data) {
			t.Fatalf("Bytes() = %q, want %q", got, data)
		}
		again, err := Parse(file.Bytes())
		if err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		if diff := cmp.Diff(file, again, exportAll); diff != "" {
			t.Fatalf("re-parse differs: %s", diff)
		}

		for _, l := range file.Launches() {
			want, err := kittyWords(l.Rest)
			if err != nil {
				t.Fatalf("line %d: accepted %q, which kitty refuses: %v", l.Num, l.Rest, err)
			}
			got, err := l.Launch.values()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("line %d %q: words %q, kitty reads %q", l.Num, l.Rest, got, want)
			}
		}

		argv := []string{"x y", "it's", "$HOME", `"\`, "", "-z", "é"}
		cmd := []string{"claude", "--resume", `a"b`, "\t\n"}
		for _, l := range file.Launches() {
			if err := l.Launch.SetArgv(argv); err != nil {
				t.Fatal(err)
			}
			if l.Launch.Unserialize != nil {
				if err := l.Launch.SetCmdAtShellStartupList(cmd); err != nil {
					t.Fatal(err)
				}
			}
		}
		out, err := file.Encode()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		mod, err := Parse(out)
		if err != nil {
			t.Fatalf("re-parse after modification: %v\n%s", err, out)
		}
		if len(mod.Lines) != len(file.Lines) {
			t.Fatalf("%d lines after modification, want %d", len(mod.Lines), len(file.Lines))
		}
		for i, l := range mod.Lines {
			old := file.Lines[i]
			if l.EOL != old.EOL || l.Directive != old.Directive {
				t.Fatalf("line %d: EOL or directive changed", l.Num)
			}
			if old.Launch == nil {
				if l.Raw != old.Raw {
					t.Fatalf("untouched line %d changed: %q", l.Num, l.Raw)
				}
				continue
			}
			if !slices.Equal(l.Launch.Argv, argv) || !slices.Equal(l.Launch.Options, old.Launch.Options) {
				t.Fatalf("line %d: %q: argv %q options %+v", l.Num, l.Raw, l.Launch.Argv, l.Launch.Options)
			}
			if (l.Launch.Unserialize == nil) != (old.Launch.Unserialize == nil) {
				t.Fatalf("line %d: kitty-unserialize-data appeared or vanished", l.Num)
			}
			if u := l.Launch.Unserialize; u != nil {
				if u.ID() != old.Launch.Unserialize.ID() || !slices.Equal(u.CmdAtShellStartup.List, cmd) {
					t.Fatalf("line %d: %q: id %d cmd %q", l.Num, l.Raw, u.ID(), u.CmdAtShellStartup.List)
				}
			}
		}
	})
}

// kittyWords is kitty's session-file lexer (next_word in
// kitty/launcher/shlex.h, ANSI-C quoting off), ported as a test oracle.
func kittyWords(s string) ([]string, error) {
	const (
		normal = iota
		inWord
		single
		double
	)
	var (
		words      []string
		buf        []byte
		state      = normal
		allowEmpty bool
	)
	escape := func(i int) (int, error) {
		if i+1 >= len(s) {
			return i, errors.New("trailing backslash")
		}
		buf = append(buf, s[i+1])
		return i + 1, nil
	}
	var err error
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch state {
		case normal:
			switch c {
			case ' ', '\n', '\t', '\r':
			case '"':
				state, buf = double, buf[:0]
			case '\'':
				state, buf = single, buf[:0]
			case '\\':
				buf = buf[:0]
				if i, err = escape(i); err != nil {
					return nil, err
				}
				state = inWord
			default:
				state, buf = inWord, append(buf[:0], c)
			}
		case inWord:
			switch c {
			case ' ', '\n', '\t', '\r':
				state = normal
				if len(buf) > 0 || allowEmpty {
					words, buf, allowEmpty = append(words, string(buf)), buf[:0], false
				}
			case '"':
				state = double
			case '\'':
				state = single
			case '\\':
				if i, err = escape(i); err != nil {
					return nil, err
				}
			default:
				buf = append(buf, c)
			}
		case single:
			if c == '\'' {
				state, allowEmpty = inWord, true
			} else {
				buf = append(buf, c)
			}
		case double:
			switch c {
			case '"':
				state, allowEmpty = inWord, true
			case '\\':
				if i, err = escape(i); err != nil {
					return nil, err
				}
			default:
				buf = append(buf, c)
			}
		}
	}
	switch state {
	case inWord:
		if len(buf) > 0 || allowEmpty {
			words = append(words, string(buf))
		}
	case single, double:
		return nil, errors.New("unterminated string")
	}
	return words, nil
}
