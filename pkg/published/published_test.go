package published

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
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

// A session file left 0666 (by hand, or by an old version) is 0600 once
// published again.
func TestPublishTightensAnExistingFile(t *testing.T) {
	p := paths.Under(t.TempDir())
	path, err := Publish(p, "work", []byte("new_tab\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{p.StateDir, p.SessionsDir()} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(p, "work", []byte("new_tab\nlaunch\n")); err != nil {
		t.Fatal(err)
	}
	var got []os.FileMode
	for _, f := range []string{p.StateDir, p.SessionsDir(), path} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fi.Mode().Perm())
	}
	if diff := cmp.Diff([]os.FileMode{0o700, 0o700, 0o600}, got); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
}

// A state or sessions directory that is a link is refused by publish and
// list with its name; the link's target keeps its files and its mode.
func TestSymlinkedStateRefused(t *testing.T) {
	for _, linked := range []string{"state", "sessions"} {
		t.Run(linked, func(t *testing.T) {
			tmp := t.TempDir()
			p := paths.Under(tmp)
			target := filepath.Join(tmp, "target")
			if err := os.Mkdir(target, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(target, "old.kitty-session"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			link := p.StateDir
			if linked == "sessions" {
				link = p.SessionsDir()
				if err := os.Mkdir(p.StateDir, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			_, err := Publish(p, "work", []byte("new_tab\n"))
			if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
				t.Errorf("publish: %v, want the link %s named", err, link)
			}
			if _, err := List(p); err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
				t.Errorf("list: %v, want the link %s named", err, link)
			}
			if err := statefile.EnsureState(p); err == nil {
				t.Errorf("EnsureState accepted the link")
			}
			ents, _ := os.ReadDir(target)
			fi, _ := os.Stat(target)
			if len(ents) != 1 || fi.Mode().Perm() != 0o755 {
				t.Errorf("target changed: %d entries, mode %v", len(ents), fi.Mode())
			}
		})
	}
}
