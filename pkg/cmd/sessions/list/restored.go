package list

import (
	"fmt"
	"slices"

	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
)

// restoredAs says what became of the resume a restore prompt ran in
// window w (the prompt execs the agent, so it is the agent's own process):
// "resumed X" when the agent reports the conversation asked for, "started
// a different conversation" when it reports another; "" when no prompt
// resumed there, or the agent has not reported an id (its command line
// says only what was asked).
func restoredAs(jf *journal.File, inst kitty.Instance, w live.Window, rec *journal.Record) string {
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
	switch src := live.IDSource(w.KnownIDFrom); {
	case src == "hook" || src == "agent record":
		id, from = w.KnownID, src
	default:
		id, from = rec.ReportedID()
		from = live.IDSource(from)
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
