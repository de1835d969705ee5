package published

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/paths"
)

func names(t *testing.T, p paths.Paths) []string {
	t.Helper()
	all, err := List(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, in := range all {
		out = append(out, in.Name)
	}
	return out
}

// TestDeleteAndRenameRefuseASaveInUse: while a restore or an offer holds
// Use on a save, Delete and Rename refuse it and leave it as it was; once
// released they go ahead, and no lock file stays behind.
func TestDeleteAndRenameRefuseASaveInUse(t *testing.T) {
	p := paths.Under(t.TempDir())
	for _, n := range []string{"work", "other"} {
		if _, err := Publish(p, n, []byte("new_tab "+n+"\n")); err != nil {
			t.Fatal(err)
		}
	}
	release := Use(p, "work")
	if err := Delete(p, "work"); !errors.Is(err, ErrInUse) {
		t.Errorf("delete in use: %v", err)
	}
	if err := Rename(p, "work", "w2"); !errors.Is(err, ErrInUse) {
		t.Errorf("rename in use: %v", err)
	}
	if got := names(t, p); !cmp.Equal(got, []string{"other", "work"}) && !cmp.Equal(got, []string{"work", "other"}) {
		t.Errorf("saves after refusals: %v", got)
	}
	release()

	if err := Rename(p, "work", "other"); err == nil || !strings.Contains(err.Error(), "saved already") {
		t.Errorf("rename over another save: %v", err)
	}
	if err := Rename(p, "work", "w2"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p.Session("w2")); string(b) != "new_tab work\n" {
		t.Errorf("renamed save holds %q", b)
	}
	if err := Delete(p, "work"); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete of the old name: %v", err)
	}
	if err := Delete(p, "other"); err != nil {
		t.Fatal(err)
	}
	if got := names(t, p); !cmp.Equal(got, []string{"w2"}) {
		t.Errorf("saves: %v", got)
	}
	ents, _ := os.ReadDir(p.SessionsDir())
	if len(ents) != 1 {
		t.Errorf("sessions dir holds %d entries, want only w2's file", len(ents))
	}
}
