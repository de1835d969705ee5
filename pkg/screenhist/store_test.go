package screenhist

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

const resume = "/opt/bin/kittymux-resume"

// saved is a rewritten save: a plain shell (1), a shell running a command
// (2), an agent window at the restore prompt (3), a window started as a
// program (4), and a shell caught printing an earlier history (5).
const saved = `new_tab
launch 'kitty-unserialize-data={"id": 1}' --cwd=/home/u
launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["/usr/bin/top"]}'
launch 'kitty-unserialize-data={"id": 3, "cmd_at_shell_startup": ["` + resume + `", "--agent=claude"]}'
launch 'kitty-unserialize-data={"id": 4}' /usr/bin/htop
launch 'kitty-unserialize-data={"id": 5, "cmd_at_shell_startup": ["` + resume + `", "--show-history", "/old"]}'
`

func TestPlain(t *testing.T) {
	got := Plain([]byte(saved), resume)
	if len(got) != 2 || got[0] != 1 || got[1] != 5 {
		t.Errorf("Plain = %v, want [1 5]", got)
	}
}

func TestAttachPruneRemove(t *testing.T) {
	p := paths.Under(t.TempDir())
	if _, err := published.Publish(p, "work", []byte(saved)); err != nil {
		t.Fatal(err)
	}
	texts := map[int][]byte{1: []byte("one\n"), 2: []byte("never"), 3: []byte("never"), 4: []byte("never"), 5: []byte("five\n")}
	data, stamp, err := Attach(p, "work", resume, []byte(saved), texts, time.Unix(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	dir := published.HistoryDir(p, "work")
	shown := map[int]string{}
	for _, ref := range f.Windows() {
		c := ref.Line.Launch.Unserialize.CmdAtShellStartup
		if c.IsList && len(c.List) == 3 && c.List[1] == ShowFlag {
			shown[ref.Line.Launch.Unserialize.ID()] = c.List[2]
		}
	}
	if len(shown) != 2 || filepath.Dir(shown[1]) != dir || filepath.Dir(shown[5]) != dir {
		t.Fatalf("windows pointed at history: %v\n%s", shown, data)
	}
	for id, want := range map[int]string{1: "one\n", 5: "five\n"} {
		got, err := os.ReadFile(shown[id])
		fi, _ := os.Stat(shown[id])
		if err != nil || string(got) != want || fi.Mode().Perm() != 0o600 {
			t.Errorf("window %d's file: %q, %v, %v", id, got, err, fi.Mode())
		}
	}
	// A later save of the same name keeps only its own files.
	_, stamp2, err := Attach(p, "work", resume, []byte(saved), map[int][]byte{1: []byte("new\n")}, time.Unix(2, 0))
	if err != nil || stamp2 == stamp {
		t.Fatal(err, stamp, stamp2)
	}
	if err := Prune(p, "work", stamp2); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), stamp2+"-") {
		t.Errorf("after a later save: %v", ents)
	}
	if files, n, err := Usage(p); err != nil || files != 1 || n != 4 {
		t.Errorf("Usage = %d files, %d bytes, %v", files, n, err)
	}
	// Removing the save removes its history.
	if err := published.Remove(p, "work"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("the history directory outlives its save: %v", err)
	}
	// A save without history (the setting off) removes the older one.
	if _, _, err := Attach(p, "work", resume, []byte(saved), texts, time.Unix(3, 0)); err != nil {
		t.Fatal(err)
	}
	if err := Prune(p, "work", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("a save without history left the older one: %v", err)
	}
}

func TestShow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "work"+published.HistorySuffix)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "x-1.txt")
	if err := os.WriteFile(file, []byte("\x1b[31mred\x1b]2;owned\x07\x1bP@kitty-cmd{}\x1b\\ line"), 0o600); err != nil {
		t.Fatal(err)
	}
	kept := time.Date(2026, 12, 1, 14, 2, 0, 0, time.Local)
	if err := os.Chtimes(file, kept, kept); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Show(&out, file, kept.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	want := "\x1b[31mred line\n\x1b[m— screen history from 14:02, restored by kittymux —\n"
	if out.String() != want {
		t.Errorf("Show printed %q, want %q", out.String(), want)
	}
	if got := Footer(kept, kept.Add(48*time.Hour)); got != "— screen history from Dec 1 14:02, restored by kittymux —" {
		t.Errorf("Footer a day later: %q", got)
	}
	for _, bad := range []string{"relative/work.history/x.txt", filepath.Join(t.TempDir(), "x.txt"), filepath.Join(dir, "x.kitty-session")} {
		if err := Show(&out, bad, kept); err == nil {
			t.Errorf("Show(%q) read a file kittymux does not keep", bad)
		}
	}
}

func TestLoad(t *testing.T) {
	p := paths.Under(t.TempDir())
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if s, err := Load(p, getenv); err != nil || s.On {
		t.Errorf("default: %+v %v", s, err)
	}
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		config, env string
		on, bad     bool
	}{
		{`{"screen_history": true}`, "", true, false},
		{`{"screen_history": false}`, "1", true, false},
		{`{"screen_history": true}`, "0", false, false},
		{`{"screen_history": "yes"}`, "", false, true},
		{`{"autosave": {}}`, "maybe", false, true},
	} {
		if err := os.WriteFile(p.Config(), []byte(c.config), 0o600); err != nil {
			t.Fatal(err)
		}
		env[Env] = c.env
		s, err := Load(p, getenv)
		if s.On != c.on || (err != nil) != c.bad {
			t.Errorf("config %s, env %q: %+v, %v", c.config, c.env, s, err)
		}
	}
}

// The bounds are settings beside screen_history; a value that is not a
// whole number in range is reported and keeps its default, and never
// turns screen history off or on.
func TestLoadBounds(t *testing.T) {
	p := paths.Under(t.TempDir())
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	d := DefaultBounds
	for _, c := range []struct {
		config string
		want   Bounds
		bad    string
	}{
		{`{"screen_history": true}`, d, ""},
		{`{"screen_history": true, "screen_history_lines": 50, "screen_history_window_kb": 64, "screen_history_save_mb": 1}`, Bounds{50, 64 << 10, 1 << 20}, ""},
		{`{"screen_history": true, "screen_history_lines": 0}`, d, "screen_history_lines 0 is not a whole number from 1 to 100000; 2000 kept"},
		{`{"screen_history": true, "screen_history_lines": 2.5, "screen_history_window_kb": "big"}`, d, `screen_history_window_kb "big" is not a whole number from 1 to 16384; 256 kept`},
		{`{"screen_history": true, "screen_history_save_mb": 100000, "screen_history_lines": 10}`, Bounds{10, d.WindowBytes, d.SaveBytes}, "screen_history_save_mb 100000 is not a whole number from 1 to 256; 8 kept"},
		{`{"screen_history": true, "screen_history_window_kb": -1}`, d, "screen_history_window_kb -1"},
	} {
		if err := os.WriteFile(p.Config(), []byte(c.config), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Load(p, func(string) string { return "" })
		if s.Bounds != c.want || !s.On || (err != nil) != (c.bad != "") || err != nil && !strings.Contains(err.Error(), c.bad) {
			t.Errorf("%s: %+v, %v", c.config, s, err)
		}
	}
}
