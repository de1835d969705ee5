package kitty

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReadConf: kitty.conf is the user's, and so are the files it
// includes. For any configuration (a kitty.conf, an included file and one
// more beside it, with includes by relative and absolute path, ~, $VARS
// and globs) ReadConf reads each file once and places every setting at a
// line of a file it read, and discovery finds the listen_on that setup and
// doctor report.
func FuzzReadConf(f *testing.F) {
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
		c, _ := ReadConf(path, ConfOptions{Home: dir, Getenv: getenv})
		lines := map[string]int{}
		for _, file := range c.Files {
			if _, dup := lines[file]; dup {
				t.Fatalf("%s read twice: %q", file, c.Files)
			}
			data, _ := os.ReadFile(file)
			lines[file] = strings.Count(string(data), "\n") + 1
		}
		settings := slices.Concat(c.Watchers, c.Includes)
		for _, s := range []*Setting{c.ListenOn, c.AllowRC} {
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
		if got := listenOnFromConf(path, getenv); got != want {
			t.Fatalf("discovery reads listen_on %q, setup %q", got, want)
		}
	})
}

// confHome is testdata/conf/home, as absolute paths: kitty.conf there uses
// every kind of include kitty has.
func confHome(t *testing.T) (home, confDir string, getenv func(string) string) {
	t.Helper()
	home, err := filepath.Abs(filepath.Join("testdata", "conf", "home"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "EXTRA": filepath.Join(home, "extra"), "XDG_RUNTIME_DIR": "/run/user/1000"}
	return home, filepath.Join(home, ".config", "kitty"), func(k string) string { return env[k] }
}

func TestReadConf(t *testing.T) {
	home, dir, getenv := confHome(t)
	c, err := ReadConf(filepath.Join(dir, "kitty.conf"), ConfOptions{Home: home, Getenv: getenv})
	// The directory named by an include is passed over and named; the
	// reading goes on past it, as kitty's does.
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "adir")) {
		t.Errorf("error = %v, want one naming %s", err, filepath.Join(dir, "adir"))
	}
	rel := func(p string) string { r, _ := filepath.Rel(home, p); return r }
	var files []string
	for _, f := range c.Files {
		files = append(files, rel(f))
	}
	wantFiles := []string{
		".config/kitty/kitty.conf", ".config/kitty/theme.conf", // include ./theme.conf
		".config/kitty/conf.d/10-a.conf", ".config/kitty/conf.d/20-b.conf", // globinclude, in order
		".config/kitty/" + kittyOS() + ".conf", // ${KITTY_OS}
		"extra/remote.conf",                    // ~
		"extra/more.conf",                      // $EXTRA
	}
	if diff := cmp.Diff(wantFiles, files); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}
	if want := (Setting{Value: "unix:${XDG_RUNTIME_DIR}/kitty-main", File: filepath.Join(home, "extra", "more.conf"), Line: 2}); c.ListenOn == nil || *c.ListenOn != want {
		t.Errorf("listen_on = %+v, want %+v", c.ListenOn, want)
	}
	// allow_remote_control's value is on a continuation line.
	if want := (Setting{Value: "socket-only", File: filepath.Join(dir, "kitty.conf"), Line: 11}); c.AllowRC == nil || *c.AllowRC != want || c.RemoteControl() != "socket" {
		t.Errorf("allow_remote_control = %+v (%s), want %+v", c.AllowRC, c.RemoteControl(), want)
	}
	// A watcher resolves against kitty's configuration directory, wherever
	// its line is.
	if _, ok := c.HasWatcher(filepath.Join(dir, "mywatcher.py")); !ok {
		t.Errorf("watchers = %+v", c.Watchers)
	}
	if _, ok := c.IncludesFile(filepath.Join(dir, "missing.conf")); !ok {
		t.Errorf("the missing include is not reported: %+v", c.Includes)
	}
	wantUnread := []string{"envinclude KITTY_CONF_* (" + filepath.Join(dir, "kitty.conf") + ":9)", "geninclude gen.py (" + filepath.Join(dir, "kitty.conf") + ":10)"}
	if diff := cmp.Diff(wantUnread, c.Unread); diff != "" {
		t.Errorf("unread (-want +got):\n%s", diff)
	}
	// Discovery reads the listen_on that setup and doctor report.
	if got := listenOnFromConf(filepath.Join(dir, "kitty.conf"), getenv); got != c.ListenOn.Value {
		t.Errorf("discovery reads listen_on %q, setup %q", got, c.ListenOn.Value)
	}
}

func TestLogicalLines(t *testing.T) {
	got := logicalLines([]byte("a 1\n  \\ continued\nmap x\n\t\\ y\n\\ z\n# c\n"))
	want := []confLine{{"a 1 continued", 1}, {"map x y z", 3}, {"# c", 6}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(confLine{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Includes that loop, or lead to a file kittymux skips, end.
func TestReadConfLoopAndSkip(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "kitty.conf"), []byte("include a.conf\nlisten_on unix:/x\ninclude mine.conf\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.conf"), []byte("include kitty.conf\nallow_remote_control yes\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "mine.conf"), []byte("listen_on unix:/mine\n"), 0o644)
	c, err := ReadConf(filepath.Join(dir, "kitty.conf"), ConfOptions{Skip: filepath.Join(dir, "mine.conf")})
	if err != nil {
		t.Fatal(err)
	}
	if c.ListenOn.Value != "unix:/x" || c.RemoteControl() != "socket" {
		t.Errorf("listen_on %+v, remote control %q", c.ListenOn, c.RemoteControl())
	}
	if _, ok := c.IncludesFile(filepath.Join(dir, "mine.conf")); !ok {
		t.Error("the skipped file's include line is not reported")
	}
}

// An include chain deeper than maxIncludeDepth is cut there and said; the
// lines after the include that went too deep are still read.
func TestReadConfDeep(t *testing.T) {
	dir := t.TempDir()
	for i := range maxIncludeDepth + 2 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.conf", i)), []byte(fmt.Sprintf("listen_on unix:/deep-%d\ninclude %d.conf\n", i, i+1)), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "kitty.conf"), []byte("include 0.conf\nallow_remote_control yes\n"), 0o644)
	c, err := ReadConf(filepath.Join(dir, "kitty.conf"), ConfOptions{})
	if err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("error = %v, want one saying the includes nest too deep", err)
	}
	if want := fmt.Sprintf("unix:/deep-%d", maxIncludeDepth-1); c.ListenOn == nil || c.ListenOn.Value != want {
		t.Errorf("listen_on = %+v, want %s", c.ListenOn, want)
	}
	if c.RemoteControl() != "socket" {
		t.Errorf("the main file's line after the deep include was not read: %+v", c.AllowRC)
	}
}
