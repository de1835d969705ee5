package save

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A killed save leaves kitty's raw file (a whole session) in the sessions
// directory; the next save removes it once it is old enough that no save
// can still be writing it, and leaves everything else alone.
func TestRemoveStaleRaw(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	files := map[string]time.Duration{
		".raw-default-111.kitty-session": time.Hour,   // a dead save's
		".raw-work-222.kitty-session":    time.Minute, // a save under way
		"default.kitty-session":          time.Hour,   // a published session
		".raw-notes.txt":                 time.Hour,   // not kittymux's naming
		".raw-quit-1-2.text/":            time.Hour,   // windows' texts of a quit save never published
		".raw-quit-1-3.text/":            time.Minute, // ... being published
	}
	for name, age := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			os.Mkdir(p, 0o700)
			os.WriteFile(filepath.Join(p, "1.txt"), []byte("x"), 0o600)
		} else if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	removeStaleRaw(dir, now)
	for name := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		gone := os.IsNotExist(err)
		if want := name == ".raw-default-111.kitty-session" || name == ".raw-quit-1-2.text/"; gone != want {
			t.Errorf("%s: removed %v, want %v", name, gone, want)
		}
	}
}
