package spool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/statefile"
)

// Lines appended are read whole and in order, a line cut short passed
// over; a queue over Max refuses more; a writer that took n bytes drops
// only those, and what came since stays.
func TestSpool(t *testing.T) {
	s := Spool{Path: filepath.Join(t.TempDir(), "state", "q"), What: "test line"}
	if s.Waiting() {
		t.Fatal("a queue never written is waiting")
	}
	for _, l := range []string{`"a"`, `"b"`} {
		if err := s.Append(context.Background(), []byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := statefile.Make(filepath.Dir(s.Path))
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	taken := s.Take(dir)
	n := len(taken.Lines())
	taken.Close()
	if err := s.Append(context.Background(), []byte(`"c"`)); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(s.Path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`"cut sh`)
	f.Close()
	var got []string
	s.With(func(data []byte) error {
		Each(data, func(l []byte) { got = append(got, string(l)) })
		return nil
	})
	if !slices.Equal(got, []string{`"a"`, `"b"`, `"c"`}) {
		t.Errorf("read %q", got)
	}
	taken = s.Take(dir)
	taken.Drop(n)
	taken.Close()
	if b, _ := os.ReadFile(s.Path); string(b) != "\"c\"\n\"cut sh" {
		t.Errorf("after dropping what was taken: %q", b)
	}
	if err := os.WriteFile(s.Path, []byte(strings.Repeat("x", Max+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(context.Background(), []byte(`"d"`)); !errors.Is(err, ErrFull) {
		t.Errorf("a full queue took a line: %v", err)
	}
}
