package journal

import "strings"

// Became is the journal's record of the agent process a restore prompt
// became: the prompt execs the agent, so it is the same process (PID) in
// the same kitty window. nil when the journal has none (yet), or o does
// not say where it ran.
func (f *File) Became(o Restore) *Record {
	if f == nil || o.PID <= 0 || o.WindowID <= 0 {
		return nil
	}
	for i := len(f.Records) - 1; i >= 0; i-- {
		r := &f.Records[i]
		if r.Agent == o.Agent && r.PID == o.PID && r.WindowID == o.WindowID && (o.KittyPID == 0 || r.KittyPID == o.KittyPID) {
			return r
		}
	}
	return nil
}

// ReportedID is the conversation id the agent itself reports for the
// process of r (its hook, or its own record of the process); "" when only
// its command line names one, which says what was asked, not what the
// agent did. (PreviousIDs mixes ids from the command line with the
// agent's, so the restore report, which reads this seconds after the
// resume, takes the id as it is now.)
func (r *Record) ReportedID() (id, from string) {
	if r == nil || r.ID == "" || r.IDFrom == "" || strings.HasPrefix(r.IDFrom, "command line") || r.IDFrom == "journal" {
		return "", ""
	}
	return r.ID, r.IDFrom
}
