package sessions

import (
	"errors"
	"syscall"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/store"
)

// confirmFrom asks which conversation the agent a prompt resumed reports:
// the journal's record of that process when a hook or the agent's own
// record gave its id (the scanner writes it), else the agent's record read
// now. Never its command line, which says only what was asked.
func confirmFrom(jf *journal.File, recs live.Records) store.Confirm {
	return func(o journal.Restore) (string, string, bool) {
		if id, from := jf.Became(o).ReportedID(); id != "" {
			return id, from, false
		}
		if o.PID <= 0 {
			return "", "", false
		}
		if rec, ok := recs.Read(o.Agent, []int{o.PID}); ok {
			return rec.ID, rec.IDFrom, false
		}
		return "", "", recs.Reports(o.Agent) && alive(o.PID)
	}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
