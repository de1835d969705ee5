// Package scanner watches kitty's windows for agent sessions. This file
// holds the one step every pass needs: which live windows run which agent.
package scanner

import (
	"slices"
	"strconv"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// AgentWindow is a live kitty window running a recognised agent.
type AgentWindow struct {
	Ref kitty.WindowRef
	// Agent is the window as the rules see it. Its ID is the kitty window id.
	Agent agents.Window
	// PID is the pid of the window's outermost process running the agent.
	PID int
	// PIDs are all its foreground processes running the agent, outermost
	// first: a node launcher and its native child (codex, copilot) are one
	// agent, and the child may be the one holding the conversation's file.
	PIDs []int
}

// AgentWindows recognises the agent in each window of ls: from its
// foreground processes, or, where those lost the flags (pi renames itself),
// from the line typed at the shell (kitty ≥ 0.35). A conversation id comes
// from the argv or from the kittymux_session user var set by an earlier save,
// when kittymux_pid says it was set for a process running now.
func AgentWindows(set *agents.Set, ls []kitty.OSWindow) []AgentWindow {
	var out []AgentWindow
	for _, ref := range kitty.Windows(ls) {
		w := ref.Window
		procs := make([][]string, 0, len(w.ForegroundProcesses))
		for _, p := range w.ForegroundProcesses {
			procs = append(procs, p.Cmdline)
		}
		cmd, ok := set.RecognizeProcesses(procs)
		if !ok {
			continue
		}
		if len(cmd.Flags) == 0 && w.LastReportedCmdline != "" {
			if typed, ok := set.RecognizeString(w.LastReportedCmdline); ok && typed.Agent == cmd.Agent {
				cmd = typed
			}
		}
		cwd := w.Cwd
		for _, p := range w.ForegroundProcesses {
			if p.Cwd != "" {
				cwd = p.Cwd
				break
			}
		}
		var pids []int
		for _, p := range w.ForegroundProcesses {
			if c, ok := set.RecognizeArgv(p.Cmdline); ok && c.Agent == cmd.Agent && p.PID > 0 {
				pids = append(pids, p.PID)
			}
		}
		aw := agents.Window{ID: w.ID, Cwd: cwd, Cmd: cmd}
		if id := w.UserVars[uservars.Session]; id != "" && w.UserVars[uservars.Agent] == cmd.Agent {
			if pid, err := strconv.Atoi(w.UserVars[uservars.PID]); err == nil && slices.Contains(pids, pid) {
				aw.KnownID, aw.KnownIDFrom = id, "kitty user var "+uservars.Session
			}
		}
		a := AgentWindow{Ref: ref, Agent: aw, PIDs: pids}
		if len(pids) > 0 {
			a.PID = pids[0]
		}
		out = append(out, a)
	}
	return out
}

// ReadIDs gives each window whose agent keeps a record of its running
// process (claude's sessions/<pid>.json, codex's rollout file held open) the id the agent says it is in now.
// That beats the kittymux_session user var: it follows /clear at once.
func (r Records) ReadIDs(ws []AgentWindow) {
	for i := range ws {
		if rec, ok := r.Read(ws[i].Agent.Cmd.Agent, ws[i].PIDs); ok {
			ws[i].Agent.KnownID, ws[i].Agent.KnownIDFrom = rec.ID, rec.IDFrom
		}
	}
}
