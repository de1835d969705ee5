package live

import (
	"errors"
	"syscall"

	"github.com/kittymux/kittymux/pkg/journal"
)

// Resumed says which conversation the agent a restore prompt resumed (o)
// reports it has: the journal's record of that process when a hook or the
// agent's own record gave its id (the scanner writes it), else the agent's
// record read now. Never its command line, which says only what was asked.
// id is "" when it has not said (yet); pending when it may still say.
func (r Records) Resumed(jf *journal.File, o journal.Restore) (id, from string, pending bool) {
	if id, from := jf.Became(o).ReportedID(); id != "" {
		return id, from, false
	}
	if o.PID <= 0 {
		return "", "", false
	}
	if rec, ok := r.Read(o.Agent, []int{o.PID}); ok {
		return rec.ID, rec.IDFrom, false
	}
	return "", "", r.Reports(o.Agent) && alive(o.PID)
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
