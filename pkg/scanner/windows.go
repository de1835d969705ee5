// Package scanner watches kitty's windows for agent sessions. This file
// holds the one step every pass needs: which live windows run which agent.
package scanner

import (
	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
)

// User variables kittymux sets on agent windows; kitty keeps them on the
// window and save_as_session writes them as --var=K=V.
const (
	VarAgent   = "kittymux_agent"
	VarSession = "kittymux_session"
)

// AgentWindow is a live kitty window running a recognised agent.
type AgentWindow struct {
	Ref kitty.WindowRef
	// Agent is the window as the rules see it. Its ID is the kitty window id.
	Agent agents.Window
}

// AgentWindows recognises the agent in each window of ls: from its
// foreground processes, or, where those lost the flags (pi renames itself),
// from the line typed at the shell (kitty ≥ 0.35). A conversation id comes
// from the argv or from the kittymux_session user var set by an earlier save.
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
		aw := agents.Window{ID: w.ID, Cwd: cwd, Cmd: cmd}
		if id := w.UserVars[VarSession]; id != "" && w.UserVars[VarAgent] == cmd.Agent {
			aw.KnownID, aw.KnownIDFrom = id, "kitty user var "+VarSession
		}
		out = append(out, AgentWindow{Ref: ref, Agent: aw})
	}
	return out
}
