// Package restart ends running agents the way each CLI ends cleanly and
// starts them again in the same window, each in its own conversation,
// through the restore prompt with a sealed record, as a save would write it.
package restart

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/procid"
)

// Outcomes of one window.
const (
	Restarted    = "restarted"
	WouldRestart = "would restart"
	Skipped      = "skipped"
	Failed       = "failed"
)

// Kitty is one kitty's windows, as ls gave them.
type Kitty struct {
	Instance kitty.Instance
	LS       []kitty.OSWindow
}

// Target is one agent window and what restart does with it.
type Target struct {
	Kitty    kitty.Instance
	Window   kitty.Window
	TabTitle string
	Agent    live.AgentWindow
	// Procs are the agent's processes (Agent.PIDs) as first seen, each
	// with its start: only these are ever signalled.
	Procs []procid.ID
	// State is the agent's state as the journal (or its title) has it.
	State    string
	Decision plan.Decision
	// Skip says why the window is left alone; "" to restart it.
	Skip string
}

// PlanOptions are what Plan needs besides the windows.
type PlanOptions struct {
	Agents *agents.Set
	// Journal is the journal as read (nil: none): the ids hooks reported
	// and each agent's state.
	Journal *journal.File
	// Records reads the agents' own records of their processes.
	Records live.Records
	// Read reads a process from the OS; nil is Records.ReadProc.
	Read live.ProcReader
	// Start reads a process's start; nil is procid.Start.
	Start func(pid int) string
	// Probes checks the agents named (sessions check, cached).
	Probes func(names []string) probe.Probes
	// Agent keeps only the windows of that agent when not "".
	Agent string
	// Working also restarts agents the journal says are working.
	Working bool
}

// Plan finds every agent window of kitties and decides, by the same rules
// as `sessions list` and a save (over the windows of every kitty at once),
// which conversation each holds. Only a window whose conversation is known
// exactly is restarted; one whose agent is working is skipped unless
// Working.
func Plan(kitties []Kitty, o PlanOptions) []Target {
	var ts []Target
	for _, k := range kitties {
		ts = append(ts, kittyTargets(k, o)...)
	}
	ws := make([]live.AgentWindow, len(ts))
	for i, t := range ts {
		ws[i] = t.Agent
	}
	for _, d := range plan.DecideByPosition(o.Agents, ws, o.Probes) {
		t := &ts[d.WindowID-1]
		t.Decision = d
		t.Decision.WindowID = t.Window.ID
		switch {
		case t.Skip != "":
		case d.Mode != plan.ModeExact || d.ID == "":
			t.Skip = "no exact conversation id: " + d.Reason
		case d.Unsure != "":
			t.Skip = "its command keeps a word that may be a prompt (" + d.Unsure + "): restart it by hand"
		case t.Agent.PID <= 0:
			t.Skip = "kitty does not say which process is the agent"
		case t.State == agents.StateWorking && !o.Working:
			t.Skip = "the agent is working (--all restarts it anyway)"
		}
	}
	out := ts[:0]
	for _, t := range ts {
		if o.Agent == "" || t.Agent.Cmd.Agent == o.Agent {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b Target) int { return cmp.Compare(a.Kitty.Socket, b.Kitty.Socket) })
	return out
}

// kittyTargets are the agent windows of kitty k, each with the state its
// agent is in and why it is left alone, if it is, before the rules decide.
func kittyTargets(k Kitty, o PlanOptions) []Target {
	read := o.Read
	if read == nil {
		read = o.Records.ReadProc
	}
	aws := live.AgentWindowsFrom(o.Agents, k.LS, read)
	// The agents' own records of their processes: the id they are in
	// now (it follows /clear) and, for claude, whether it works.
	recState := make([]string, len(aws))
	for i := range aws {
		if rec, ok := o.Records.Read(aws[i].Cmd.Agent, aws[i].PIDs); ok {
			aws[i].KnownID, aws[i].KnownIDFrom = rec.ID, rec.IDFrom
			recState[i] = rec.State
		}
	}
	var recs []*journal.Record
	if o.Journal != nil {
		recs = live.OpenRecords(o.Journal, k.Instance.Socket, k.Instance.PID, aws)
		live.JournalIDs(aws, recs)
	}
	var ts []Target
	for i, w := range aws {
		// As a save writes it: a relative program made absolute in the
		// agent's directory, interpreter options dropped.
		placed, ok := w.Cmd.Placed(w.Cwd)
		skip := ""
		switch {
		case w.Unverified != "":
			// A save would not seal it, and the restore prompt would
			// ask first: nothing to run without asking.
			skip = "kittymux could not see what runs there (" + w.Unverified + "): restart it by hand"
		case !ok:
			skip = fmt.Sprintf("the program %q is a relative path and the agent's directory is unknown", w.Cmd.Program)
		default:
			w.Cmd = placed
		}
		st := ""
		if recs != nil && recs[i] != nil {
			st = recs[i].State
		}
		st = cmp.Or(st, recState[i], o.Agents.TitleState(w.Cmd.Agent, w.Ref.Window.Title))
		ts = append(ts, Target{Kitty: k.Instance, Window: *w.Ref.Window, TabTitle: w.Ref.Tab.Title, Agent: w,
			Procs: pinned(w.PIDs, o.Start), State: st, Skip: skip})
	}
	return ts
}

// pinned reads each pid's start now, as the agent's processes are seen.
func pinned(pids []int, start func(int) string) []procid.ID {
	if start == nil {
		start = procid.Start
	}
	out := make([]procid.ID, len(pids))
	for i, pid := range pids {
		out[i] = procid.ID{PID: pid, Start: start(pid)}
	}
	return out
}
