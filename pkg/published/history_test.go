package published

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
)

// withHistory is a save whose window 1 shows a history kept in dir.
func withHistory(dir string) string {
	return `new_tab
launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": ["/opt/kittymux-resume", "--show-history", "` + dir + `/s-1.txt"]}' --cwd=/home/u
launch 'kitty-unserialize-data={"id": 2}' --cwd=/srv
`
}

// A renamed save keeps its screen history: the directory moves with it,
// the save points at it under its new name, and it keeps the time it was
// saved. A rename that cannot move the history leaves the old name whole;
// removing a save removes its history.
func TestRenameKeepsHistory(t *testing.T) {
	p := paths.Under(t.TempDir())
	if _, err := Publish(p, "work", []byte(withHistory(HistoryDir(p, "work")))); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(HistoryDir(p, "work"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(HistoryDir(p, "work"), "s-1.txt"), []byte("make: ok\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	saved := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p.Session("work"), saved, saved); err != nil {
		t.Fatal(err)
	}
	whole := func(name string) {
		t.Helper()
		data, err := os.ReadFile(p.Session(name))
		fi, _ := os.Stat(p.Session(name))
		if err != nil || string(data) != withHistory(HistoryDir(p, name)) || !fi.ModTime().Equal(saved) {
			t.Fatalf("save %s: %v, saved %v:\n%s", name, err, fi.ModTime(), data)
		}
		if b, err := os.ReadFile(filepath.Join(HistoryDir(p, name), "s-1.txt")); string(b) != "make: ok\n" {
			t.Fatalf("history of %s: %q %v", name, b, err)
		}
	}

	// A history directory in the way: nothing moves.
	if err := os.MkdirAll(filepath.Join(HistoryDir(p, "w3"), "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Rename(p, "work", "w3"); err == nil {
		t.Error("rename over a history directory in the way went ahead")
	}
	whole("work")
	if _, err := os.Lstat(p.Session("w3")); err == nil {
		t.Error("a failed rename left the new name's save")
	}

	if err := Rename(p, "work", "w2"); err != nil {
		t.Fatal(err)
	}
	whole("w2")
	for _, gone := range []string{p.Session("work"), HistoryDir(p, "work")} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s is left after the rename", gone)
		}
	}

	if err := Delete(p, "w2"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(HistoryDir(p, "w2")); err == nil {
		t.Error("removing the save left its history")
	}
}
