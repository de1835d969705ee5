package recovery

import (
	"fmt"
	"slices"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// remoteTab brings back r, an agent that ran on a host reached over ssh:
// a tab in o.Home whose window runs r's ssh command as the scanner saw it
// and asks the host to resume r's id there, which the host does only if
// its own journal holds it. why says why r does not come back.
func (o Options) remoteTab(r journal.Record) (lines string, tab Tab, why string) {
	if why := o.notRecoverableRemote(r); why != "" {
		return "", Tab{}, why
	}
	if r.ID == "" || !slices.Contains(o.Agents.Names(), r.Agent) {
		return "", Tab{}, fmt.Sprintf("its host reported no conversation of an agent known here (%q)", r.Agent)
	}
	if o.Home == "" {
		return "", Tab{}, "no home directory to open its window in"
	}
	title := title(r)
	rec := resumerecord.Record{Agent: r.Agent, Mode: plan.ModeExact, ID: r.ID, Tab: title, Dir: o.Home,
		Remote: r.ReportedBy, RemoteDir: r.Dir, Argv: r.Argv}
	// The ssh command as the scanner read it from the process: a record
	// without what it executed is not sealed, and the prompt shows it.
	key := o.Key
	if len(r.Exe) == 0 {
		key = nil
	}
	argv, err := rec.CommandLine(o.ResumeBin, key, o.Agents.ConfigEnv())
	if err != nil {
		return "", Tab{}, fmt.Sprintf("the restore prompt would refuse its record: %v", err)
	}
	if lines, err = tabLines(title, o.Home, argv); err != nil {
		return "", Tab{}, err.Error()
	}
	host := r.Host
	tab = Tab{Title: title, Dir: r.Dir, Key: r.Key, LastActive: r.LastSeen, Host: host, ReportedBy: r.ReportedBy,
		Decision: plan.Decision{Agent: r.Agent, Mode: plan.ModeExact, ID: r.ID, Argv: r.Argv,
			Reason: fmt.Sprintf("%s on %s (reported by %s): resumed there over ssh if the host's journal holds %s", r.Agent, host, r.ReportedBy, r.ID)}}
	return lines, tab, ""
}

// notRecoverableRemote says why r's conversation on its host does not come
// back, or "": as for an agent here, and while the journal holds it open in
// a kitty that runs.
func (o Options) notRecoverableRemote(r journal.Record) string {
	for _, lk := range o.Live {
		if lk.ran(r) && r.Open {
			return fmt.Sprintf("it runs in window %d of the kitty at %s", r.WindowID, lk.Socket)
		}
	}
	return o.notRecoverable(r)
}
