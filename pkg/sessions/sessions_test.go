package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
)

func TestPublishAndResolve(t *testing.T) {
	p := paths.Under(t.TempDir())
	if _, err := Resolve(p, "last"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nothing saved yet") {
		t.Fatalf("empty: %v", err)
	}
	path, err := Publish(p, "work", []byte("new_tab\n"))
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	di, _ := os.Stat(p.SessionsDir())
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes %v %v", fi.Mode(), di.Mode())
	}
	if _, err := Publish(p, "work", nil); err == nil {
		t.Errorf("an empty publish was accepted")
	}
	if b, _ := os.ReadFile(path); string(b) != "new_tab\n" {
		t.Errorf("a refused publish changed the file: %q", b)
	}
	for _, bad := range []string{"../x", "a/b", "", ".hidden", "-x", "last", "x.kitty-session", "a b"} {
		if _, err := Publish(p, bad, []byte("x")); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	old := time.Now().Add(-time.Hour)
	Publish(p, "other", []byte("x\n"))
	os.Chtimes(filepath.Join(p.SessionsDir(), "other.kitty-session"), old, old)
	if in, err := Resolve(p, "last"); err != nil || in.Name != "work" {
		t.Errorf("last = %+v %v, want the newest save", in, err)
	}
	Publish(p, AutosavePrefix+"1", []byte("x\n"))
	os.Chtimes(filepath.Join(p.SessionsDir(), AutosavePrefix+"1.kitty-session"), old, old)
	if in, _ := Resolve(p, "last"); in.Name != AutosavePrefix+"1" {
		t.Errorf("last = %s, want the newest autosave", in.Name)
	}
	_, err = Resolve(p, "nope")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "work") || !strings.Contains(err.Error(), "other") {
		t.Errorf("unknown name: %v", err)
	}
}
