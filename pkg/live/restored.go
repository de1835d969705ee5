package live

import (
	"fmt"
	"slices"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
)

// Journaled is an agent window with what the journal has of it.
type Journaled struct {
	AgentWindow
	// State is the agent's state as the journal has it (from its hook,
	// its records or kitty), else as the window's title shows it.
	State string
	// Restored says what became of the resume a restore prompt ran there
	// (RestoredAs).
	Restored string
}

// JournalWindows are the agent windows of the kitty that answered a, with
// the ids the agents' records give, then the journal's (jf; nil: none),
// their state and what their restore prompt did.
func (r Records) JournalWindows(set *agents.Set, jf *journal.File, a kitty.Answer) []Journaled {
	var out []Journaled
	aws := r.AgentWindows(set, a.LS)
	r.ReadIDs(aws)
	var recs []*journal.Record
	if jf != nil {
		recs = OpenRecords(jf, a.Instance.Socket, a.Instance.PID, aws)
		JournalIDs(aws, recs)
	}
	for i, w := range aws {
		st := ""
		var rec *journal.Record
		if recs != nil && recs[i] != nil {
			rec = recs[i]
			st = rec.State
		}
		if st == "" {
			st = set.TitleState(w.Cmd.Agent, w.Ref.Window.Title)
		}
		out = append(out, Journaled{w, st, RestoredAs(jf, a.Instance, w, rec)})
	}
	return out
}

// RestoredAs says what became of the resume a restore prompt ran in
// window w (the prompt execs the agent, so it is the agent's own process):
// "resumed X" when the agent reports the conversation asked for, "started
// a different conversation" when it reports another; "" when no prompt
// resumed there, or the agent has not reported an id (its command line
// says only what was asked).
func RestoredAs(jf *journal.File, inst kitty.Instance, w AgentWindow, rec *journal.Record) string {
	if jf == nil {
		return ""
	}
	var asked *journal.Restore
	for i := len(jf.Restores) - 1; i >= 0; i-- {
		o := &jf.Restores[i]
		if o.Outcome == journal.OutcomeResumed && o.ID != "" && o.Agent == w.Cmd.Agent &&
			o.WindowID == w.Ref.Window.ID && (o.KittyPID == 0 || inst.PID == 0 || o.KittyPID == inst.PID) &&
			o.PID > 0 && (o.PID == w.PID || slices.Contains(w.PIDs, o.PID)) {
			asked = o
			break
		}
	}
	if asked == nil {
		return ""
	}
	id, from := "", ""
	switch src := IDSource(w.KnownIDFrom); {
	case src == "hook" || src == "agent record":
		id, from = w.KnownID, src
	default:
		id, from = rec.ReportedID()
		from = IDSource(from)
	}
	switch {
	case id == "":
		return ""
	case id == asked.ID:
		return "resumed " + ids.Short(asked.ID)
	case rec != nil && slices.Contains(rec.PreviousIDs, asked.ID):
		// /clear or /resume in the window moved on from it.
		return fmt.Sprintf("resumed %s, since moved on to %s", ids.Short(asked.ID), ids.Short(id))
	}
	return fmt.Sprintf("started a different conversation %s (asked for %s; %s reports it)", ids.Short(id), ids.Short(asked.ID), from)
}
