package doctor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/scanner"
)

// JournalReport is agent-sessions.json.
type JournalReport struct {
	Path    string `json:"path"`
	Off     bool   `json:"off"`
	Records int    `json:"records"`
	Open    int    `json:"open"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
	// CorruptCopies are journals moved aside because they did not parse.
	CorruptCopies []string `json:"corrupt_copies"`
	Note          string   `json:"note"`
}

func checkScanner(f *factory.Factory) ScannerReport {
	st := scanner.Current(f.Paths.StateDir)
	r := ScannerReport{Running: st.Running, Note: st.Describe(), Status: st.Status}
	if st.Running && st.Status != nil {
		r.PID = st.Status.PID
	}
	r.Journal = checkJournal(f)
	return r
}

func checkJournal(f *factory.Factory) JournalReport {
	off := journal.IsOff(f.Paths.StateDir, f.Getenv)
	j := journal.New(f.Paths.Journal(), off)
	r := JournalReport{Path: j.Path, Off: off, CorruptCopies: j.CorruptCopies()}
	if r.CorruptCopies == nil {
		r.CorruptCopies = []string{}
	}
	var notes []string
	if off {
		notes = append(notes, "off (KITTYMUX_JOURNAL=0 or journal-off): nothing is recorded")
	}
	jf, err := j.Read()
	var ce *journal.CorruptError
	switch {
	case errors.As(err, &ce):
		r.Problem = err.Error() + "; the next update moves it aside and starts a new one"
	case err != nil:
		r.Problem = err.Error()
	default:
		r.OK = true
		r.Records = len(jf.Records)
		for _, rec := range jf.Records {
			if rec.Open {
				r.Open++
			}
		}
		if !off {
			notes = append(notes, fmt.Sprintf("%d records, %d open", r.Records, r.Open))
		}
	}
	if r.Problem != "" {
		notes = append(notes, "PROBLEM: "+r.Problem)
	}
	if n := len(r.CorruptCopies); n > 0 {
		notes = append(notes, fmt.Sprintf("%d corrupt journal(s) were moved aside, newest %s", n, r.CorruptCopies[n-1]))
	}
	r.Note = r.Path + "  " + strings.Join(notes, "; ")
	return r
}
