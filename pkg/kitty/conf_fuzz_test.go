package kitty_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/setup"
)

// FuzzConfListenOn: kitty.conf is the user's, and so are the files it
// includes. Discovery's reader (the socket kitty listens on) must find the
// listen_on that setup's reader (what setup and doctor report) finds, for
// any configuration: a kitty.conf, an included file and one more beside
// it, with includes by relative and absolute path, ~, $VARS and globs.
func FuzzConfListenOn(f *testing.F) {
	for _, seed := range [][3]string{
		{"allow_remote_control yes\nlisten_on unix:/tmp/kitty\n", "", ""},
		{"listen_on unix:/tmp/a\ninclude inc.conf\n", "listen_on unix:/tmp/b\n", ""},
		{"include inc.conf\nlisten_on unix:/tmp/a\n", "listen_on unix:/tmp/b\ninclude more.conf\n", "listen_on\tunix:@x\n"},
		{"globinclude *.conf\n", "listen_on unix:${D}/k\n", "include kitty.conf\n"},
		{"include ~/inc.conf\n", "listen_on unix:/tmp/b\n\\ -suffix\n", ""},
		{"include $D/more.conf\nlisten_on\n", "", "  listen_on   unix:/tmp/c  \n# listen_on unix:/tmp/d\n"},
		{"envinclude KITTY_CONF_*\ngeninclude x.py\nlisten_on none\n", "", ""},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, main, inc, more string) {
		dir := t.TempDir()
		for name, data := range map[string]string{"kitty.conf": main, "inc.conf": inc, "more.conf": more} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		env := map[string]string{"HOME": dir, "D": dir}
		getenv := func(k string) string { return env[k] }
		path := filepath.Join(dir, "kitty.conf")
		c, err := setup.ReadConf(path, setup.ConfOptions{Home: dir, Getenv: getenv})
		if err != nil {
			return // too deep, or a directory named by an include: setup says so
		}
		// setup's own account: each file read once, every setting in one of
		// them at a line it has.
		lines := map[string]int{}
		for _, file := range c.Files {
			if _, dup := lines[file]; dup {
				t.Fatalf("%s read twice: %q", file, c.Files)
			}
			data, _ := os.ReadFile(file)
			lines[file] = strings.Count(string(data), "\n") + 1
		}
		settings := slices.Concat(c.Watchers, c.Includes)
		for _, s := range []*setup.Setting{c.ListenOn, c.AllowRC} {
			if s != nil {
				settings = append(settings, *s)
			}
		}
		for _, s := range settings {
			if n, ok := lines[s.File]; !ok || s.Line < 1 || s.Line > n {
				t.Fatalf("setting %+v is not in a file read (%q)", s, c.Files)
			}
		}
		want := ""
		if c.ListenOn != nil {
			want = c.ListenOn.Value
		}
		if got := kitty.ListenOnFromConf(path, getenv); got != want {
			t.Fatalf("discovery reads listen_on %q, setup %q", got, want)
		}
	})
}
