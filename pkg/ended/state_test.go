package ended

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
)

func instance(pid int, sock string) kitty.Instance {
	a, _ := kitty.ParseAddress("unix:" + sock)
	return kitty.Instance{Addr: a, Socket: a.String(), PID: pid, Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}}
}

// The marks: restored, dismissed and later are kept; a claim is taken once
// and given back only by its holder; the file is 0600 and bounded.
func TestState(t *testing.T) {
	p := paths.Under(t.TempDir())
	if st, err := Read(p); err != nil || len(st.Kitties) != 0 {
		t.Fatalf("missing state: %v %v", st, err)
	}
	if _, err := os.Stat(p.StateDir); err == nil {
		t.Errorf("reading created the state directory")
	}
	if won, err := Claim(p, "101", time.Time{}, 7, at(1)); !won || err != nil {
		t.Fatalf("claim: %v %v", won, err)
	}
	if won, _ := Claim(p, "101", time.Time{}, 8, at(2)); won {
		t.Errorf("claimed twice")
	}
	if err := Release(p, "101", 8); err != nil {
		t.Fatal(err)
	}
	if st, _ := Read(p); st.Kitties["101"].OfferedTo != 7 {
		t.Errorf("released by another kitty: %+v", st.Kitties["101"])
	}
	if err := MarkRestored(p, "202", "autosave-202-x", at(3)); err != nil {
		t.Fatal(err)
	}
	if won, _ := Claim(p, "202", time.Time{}, 7, at(4)); won {
		t.Errorf("a restored session was claimed")
	}
	MarkDismissed(p, "303", at(5))
	MarkLater(p, "404", at(6))
	st, _ := Read(p)
	if m := st.Kitties["202"]; !m.Restored.Equal(at(3)) || m.RestoredName != "autosave-202-x" {
		t.Errorf("restored: %+v", m)
	}
	if !st.Kitties["303"].Dismissed.Equal(at(5)) || !st.Kitties["404"].Later.Equal(at(6)) {
		t.Errorf("dismissed, later: %+v", st.Kitties)
	}
	fi, err := os.Stat(filepath.Join(p.StateDir, paths.EndedName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state file: %v %v", fi, err)
	}
	for i := range keepMarks + 10 {
		MarkLater(p, "k"+strconv.Itoa(i), at(100+i))
	}
	if st, _ := Read(p); len(st.Kitties) != keepMarks || st.Kitties["k"+strconv.Itoa(keepMarks+9)].Later.IsZero() {
		t.Errorf("bounded to %d: %d kept", keepMarks, len(st.Kitties))
	}
	// A broken file is read as empty and replaced by the next change.
	os.WriteFile(filepath.Join(p.StateDir, paths.EndedName), []byte("{"), 0o600)
	if _, err := Read(p); err == nil {
		t.Errorf("a broken file read without an error")
	}
	if err := MarkLater(p, "101", at(9)); err != nil {
		t.Fatal(err)
	}
	if st, err := Read(p); err != nil || len(st.Kitties) != 1 {
		t.Errorf("after a broken file: %v %v", st, err)
	}
}

// A kitty is alive when discovery found it or its pid is a kitty: this
// test's own pid is no kitty.
func TestLiveness(t *testing.T) {
	alive := Liveness([]kitty.Instance{instance(4242, "/k-4242"), instance(0, "/k-nopid")})
	if !alive("4242") || !alive(autosave.KittyKey(instance(0, "/k-nopid"))) {
		t.Errorf("a discovered kitty is not alive")
	}
	if alive(strconv.Itoa(os.Getpid())) || alive("99999999") || alive("autosave-quit") {
		t.Errorf("a process that is no kitty is alive")
	}
}
