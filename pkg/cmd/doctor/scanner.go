package doctor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
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

func checkScanner(o *Options) ScannerReport {
	st := scanner.Current(o.Paths.StateDir)
	r := ScannerReport{Running: st.Running, Note: st.Describe(), Status: st.Status}
	if st.Running && st.Status != nil {
		r.PID = st.Status.PID
	}
	r.Journal = checkJournal(o)
	return r
}

func checkJournal(o *Options) JournalReport {
	off := journal.IsOff(o.Paths.StateDir, o.Getenv)
	j := journal.New(o.Paths.Journal(), off)
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

// AutosaveReport is autosave: on or off and why, and for each kitty how it
// goes (from the scanner's status) or why it is off there.
type AutosaveReport struct {
	On      bool            `json:"on"`
	Note    string          `json:"note"`
	Kitties []AutosaveKitty `json:"kitties"`
}

// AutosaveKitty is autosave of one kitty.
type AutosaveKitty struct {
	Socket string `json:"socket"`
	Note   string `json:"note"`
}

func checkAutosave(o *Options, kitties []KittyReport, installed *InstalledKitty, sc ScannerReport) AutosaveReport {
	r := AutosaveReport{Kitties: []AutosaveKitty{}}
	if why := autosave.Off(o.Paths, o.Getenv); why != "" {
		r.Note = "off: " + why
		return r
	}
	found := kitties
	if installed != nil {
		// No kitty runs: the one that will is the one installed.
		found = []KittyReport{{Version: installed.Version}}
	}
	if v, ok := noneCanSave(found); ok {
		r.Note = fmt.Sprintf("off: kitty %s cannot save its layout (save, autosave and restore need kitty %s or newer); `kittymux sessions recover` rebuilds from the journal", v, kitty.VersionSaveAsSession)
		r.Kitties = autosaveKitties(kitties, nil, nil)
		return r
	}
	r.On = true
	s, err := autosave.LoadSettings(o.Paths, o.Getenv)
	r.Note = fmt.Sprintf("on: settle %v, at most every %v, at least every %v while changed, keep %d per kitty", s.Settle, s.AtMostEvery, s.AtLeastEvery, s.Keep)
	if err != nil {
		r.Note += "; PROBLEM: " + err.Error()
	}
	if !sc.Running {
		r.Note += "; it runs in the scanner, which is not running"
	}
	byScanner := map[string]string{}
	if sc.Running && sc.Status != nil {
		for _, k := range sc.Status.Kitties {
			byScanner[k.Socket] = k.Autosave
		}
	}
	ours := func(pid int) bool {
		return kitty.Ours(kitty.DiscoverOptions{Getenv: o.Getenv, StateDir: o.Paths.StateDir}, pid)
	}
	r.Kitties = autosaveKitties(kitties, byScanner, ours)
	return r
}

// autosaveKitties is autosave of each kitty: as the scanner reports it
// (byScanner, by socket), off where the kitty cannot save, or left to
// another kittymux (ours, nil: every kitty is this one's).
func autosaveKitties(kitties []KittyReport, byScanner map[string]string, ours func(pid int) bool) []AutosaveKitty {
	out := []AutosaveKitty{}
	for _, k := range kitties {
		if k.Utility != "" {
			continue
		}
		note := byScanner[k.Socket]
		if v, err := kitty.ParseVersion(k.Version); err == nil && !v.IsZero() && !v.AtLeast(kitty.VersionSaveAsSession) {
			note = fmt.Sprintf("off: kitty %s cannot save its layout (save_as_session needs %s)", k.Version, kitty.VersionSaveAsSession)
		}
		if note == "" && ours != nil && k.PID > 0 && !ours(k.PID) {
			note = "another kittymux's: started with another HOME and kittymux state directory, so this scanner leaves it alone"
		}
		if note == "" {
			note = "not seen by the scanner yet"
		}
		out = append(out, AutosaveKitty{Socket: k.Socket, Note: note})
	}
	return out
}

// noneCanSave reports whether every kitty found (utility kitties left out)
// is of a known version too old to save its layout, and the newest of them;
// false when none was found.
func noneCanSave(kitties []KittyReport) (newest kitty.Version, ok bool) {
	for _, k := range kitties {
		if k.Utility != "" {
			continue
		}
		v, err := kitty.ParseVersion(k.Version)
		if err != nil || v.IsZero() || v.AtLeast(kitty.VersionSaveAsSession) {
			return kitty.Version{}, false
		}
		if v.AtLeast(newest) {
			newest = v
		}
		ok = true
	}
	return newest, ok
}
