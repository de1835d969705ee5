package live

import (
	"slices"
	"strings"

	"github.com/kittymux/kittymux/pkg/journal"
)

// OpenRecords returns, for each of ws (the agent windows of the kitty at
// socket with pid kittyPID), the open journal record of the agent running
// there now, or nil: a record of that window whose agent process is one of
// the window's foreground processes, and, when both the record and the
// window say when that process started, the same process (not another that
// got its pid). A kittyPID of 0 (a kitty named by --to, whose pid kittymux
// does not know) matches records of that socket.
func OpenRecords(f *journal.File, socket string, kittyPID int, ws []AgentWindow) []*journal.Record {
	out := make([]*journal.Record, len(ws))
	for i, aw := range ws {
		var pids []int
		for _, p := range aw.Ref.Window.ForegroundProcesses {
			pids = append(pids, p.PID)
		}
		for j := range f.Records {
			r := &f.Records[j]
			samePID := r.KittyPID == kittyPID || kittyPID == 0 && r.KittySocket == socket
			if !r.Open || r.Nested || r.WindowID != aw.Ref.Window.ID || !samePID || r.Agent != aw.Cmd.Agent ||
				r.KittySocket != "" && r.KittySocket != socket || !slices.Contains(pids, r.PID) ||
				r.PID == aw.PID && r.Start != "" && aw.Start != "" && r.Start != aw.Start {
				continue
			}
			if out[i] == nil || r.LastSeen.After(out[i].LastSeen) {
				out[i] = r
			}
		}
	}
	return out
}

// IDSource names where an id came from, for people and `sessions list`:
// hook, agent record, command line or journal.
func IDSource(from string) string {
	switch {
	case from == "":
		return ""
	case from == journal.FromHook:
		return "hook"
	case strings.HasPrefix(from, "command line"):
		return "command line"
	case strings.HasPrefix(from, "kitty user var"), from == "journal":
		// A user var is set from a record the scanner or a hook wrote.
		return "journal"
	default:
		return "agent record"
	}
}
