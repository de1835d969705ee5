package offer

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// LeftOut is an agent window of a save that does not come back: the
// journal says it was closed by hand (its window closed, or its agent
// exited) while its kitty still ran, after the save was taken.
type LeftOut struct {
	Agent  Agent
	Closed time.Time
	Why    string
}

// WithoutClosed returns the save data of the kitty kittyPID without the
// agent windows the journal says were closed by hand before the kitty
// ended, as recover decides for the journal's conversations: a save lags
// the kitty by its settle time, and kitty ended before the next. A window
// is known by its id in kitty, which the save keeps (kitty-unserialize-data
// id); kitty loads a file with a window left out of its layout state. data
// is returned as it is when nothing is left out.
func WithoutClosed(data []byte, jf *journal.File, kittyPID int) ([]byte, []LeftOut, error) {
	if jf == nil || kittyPID <= 0 {
		return data, nil, nil
	}
	latest := map[int]journal.Record{}
	for _, r := range jf.Records {
		if r.KittyPID != kittyPID {
			continue
		}
		if old, ok := latest[r.WindowID]; !ok || r.LastSeen.After(old.LastSeen) {
			latest[r.WindowID] = r
		}
	}
	if len(latest) == 0 {
		return data, nil, nil
	}
	f, err := sessionfile.Parse(data)
	if err != nil {
		return nil, nil, err
	}
	drop := map[*sessionfile.Line]bool{}
	var out []LeftOut
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		if l.Unserialize == nil {
			continue
		}
		rec, ok := resumeRecord(l)
		if !ok {
			continue
		}
		r, ok := latest[l.Unserialize.ID()]
		if !ok || r.Open || r.ClosedAt == nil || r.CloseReason == journal.ClosedKittyGone || r.Agent != rec.Agent {
			continue
		}
		why := "its window was closed"
		if strings.Contains(r.CloseDetail, "agent exited") {
			why = "the agent exited"
		}
		drop[ref.Line] = true
		out = append(out, LeftOut{Agent: Agent{Agent: rec.Agent, Mode: rec.Mode, ID: rec.ID, Dir: ref.Cwd}, Closed: *r.ClosedAt, Why: why})
	}
	if len(drop) == 0 {
		return data, nil, nil
	}
	kept := f.Lines[:0:0]
	for _, l := range f.Lines {
		if !drop[l] {
			kept = append(kept, l)
		}
	}
	f.Lines = kept
	b, err := f.Encode()
	if err != nil {
		return nil, nil, err
	}
	return b, out, nil
}

// LeaveOutClosed leaves out of an ended kitty's save (key is the kitty's)
// the agent windows the journal says were closed by hand before that kitty
// ended (WithoutClosed): what is loaded is then a copy in
// sessions/.restore/, of the same base name (kitty names the session after
// it). It returns the session to load and what was left out; a copy that
// cannot be written is a warning on errOut, and the save is loaded whole.
func LeaveOutClosed(p paths.Paths, errOut io.Writer, key string, info published.Info) (published.Info, []LeftOut) {
	pid := ended.PIDOf(key)
	if pid == 0 {
		return info, nil
	}
	jf, err := journal.New(p.Journal(), false).Read()
	if err != nil {
		return info, nil
	}
	data, err := published.ReadRaw(info.Path)
	if err != nil {
		return info, nil
	}
	kept, left, err := WithoutClosed(data, jf, pid)
	if err != nil || len(left) == 0 {
		return info, nil
	}
	path := filepath.Join(p.SessionsDir(), paths.RestoreCopiesName, filepath.Base(info.Path))
	if err := statefile.WriteFile(p.StateDir, path, kept); err != nil {
		fmt.Fprintf(errOut, "kittymux: warning: %v; the windows closed by hand come back too\n", err)
		return info, nil
	}
	info.Path = path
	return info, left
}

// resumeRecord is the restore prompt's record of an agent window.
func resumeRecord(l *sessionfile.Launch) (resumerecord.Record, bool) {
	return resumerecord.FromCommandLine(l.Command(), "")
}
