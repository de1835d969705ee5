package prompt

import (
	"slices"
	"strings"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// learned fills in r the conversation its save had not learned yet: a
// sealed record that names none (latest or new) but names the journal's
// record of the window's agent process as the save saw it (its origin:
// kitty, window, agent process, and when it was first seen). Where the
// agent reported an id for that very process after the save (its hook,
// or its own record of the process), the window resumes that id exactly.
// A record that names one (exact) whose agent process left it after the
// save (claude's /clear, a /new, a /resume inside the agent: the journal
// lists the saved id among that process's previous ones) resumes the id
// the agent reported last instead: the conversation the user was in.
// Nothing else counts: a record of another process, agent or directory, an
// id only a command line or a user var named, an unsealed record (its
// origin could name any record), an id another window holds (its lease,
// or the journal's open record of a live agent there): then the record
// runs as saved.
func (e *Env) learned(r resumerecord.Record, sealed bool) resumerecord.Record {
	if !sealed || r.Origin == "" || r.Dir == "" || e.ExactArgv == nil {
		return r
	}
	j := e.journal()
	if j.Off || r.Mode == "exact" && !j.MayHaveLeft(r.ID) {
		return r // the common case, kept off the decoding of the journal
	}
	f, err := j.Read()
	if err != nil {
		return r
	}
	rec := f.FindOrigin(r.Origin)
	if rec == nil || rec.Nested || rec.Agent != r.Agent || rec.Dir != r.Dir {
		return r
	}
	id, from := rec.ReportedID()
	if id == "" || strings.HasPrefix(from, "kitty user var") {
		return r
	}
	if r.Mode == "exact" && (id == r.ID || !slices.Contains(rec.PreviousIDs, r.ID)) {
		return r
	}
	argv, err := e.ExactArgv(r, id)
	if err != nil {
		return r
	}
	filled := r
	filled.Mode, filled.ID, filled.Argv = "exact", id, argv
	if e.openElsewhere(filled) != "" {
		return r
	}
	e.learnedFrom = "the agent's own record"
	if from == journal.FromHook {
		e.learnedFrom = "its hook"
	}
	if r.Mode == "exact" {
		e.movedFrom = r.ID
	}
	return filled
}
