package doctor

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// TestDoctorScanner: doctor reports the scanner from its lock and status
// file, as `scanner status` does, and a journal moved aside as corrupt.
func TestDoctorScanner(t *testing.T) {
	f, _ := testFactory(t, nil)
	type seen struct {
		Running       bool
		PID           int
		NoteHas       string
		JournalOK     bool
		CorruptCopies int
	}
	check := func(r ScannerReport, noteHas string) seen {
		s := seen{Running: r.Running, PID: r.PID, JournalOK: r.Journal.OK, CorruptCopies: len(r.Journal.CorruptCopies)}
		if strings.Contains(r.Note+" "+r.Journal.Note, noteHas) {
			s.NoteHas = noteHas
		}
		return s
	}
	got := map[string]seen{}
	got["never ran"] = check(checkScanner(Options{}.From(f)), "not running; start it with `kittymux scanner run`")

	if err := statefile.EnsureState(f.Paths); err != nil {
		t.Fatal(err)
	}
	lock, err := scanner.Lock(t.Context(), f.Paths.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := scanner.WriteStatus(f.Paths.StateDir, scanner.Status{PID: 4242, Started: time.Now(), Updated: time.Now(), OpenSessions: 3}); err != nil {
		t.Fatal(err)
	}
	got["running"] = check(checkScanner(Options{}.From(f)), "3 agent sessions open")
	_ = lock.Unlock()
	got["crashed"] = check(checkScanner(Options{}.From(f)), "ended without stopping cleanly")

	if err := os.WriteFile(f.Paths.Journal(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.Paths.Journal()+".corrupt-20260101T000000.000000000", []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	got["corrupt journal"] = check(checkScanner(Options{}.From(f)), "moved aside")

	want := map[string]seen{
		"never ran":       {NoteHas: "not running; start it with `kittymux scanner run`", JournalOK: true},
		"running":         {Running: true, PID: 4242, NoteHas: "3 agent sessions open", JournalOK: true},
		"crashed":         {NoteHas: "ended without stopping cleanly", JournalOK: true},
		"corrupt journal": {NoteHas: "moved aside", CorruptCopies: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
