package rewrite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// remoteWindow writes the restore record of a window whose ssh process
// kittymux saw (Options.Remote) and whose host's hook reported an agent
// there: the prompt, with the ssh command exactly as the process ran it
// and the hint (agent, id, directory and host, text from the host) as
// values the host's kittymux checks. False: not such a window, or a record
// the prompt would refuse; kitty's own line stays.
func (rw *rewriter) remoteWindow(sw *saved) bool {
	seen, ok := rw.o.Remote[sw.id]
	if !ok || len(seen.SSH.Argv) == 0 || !seen.HasHint() || !slices.Contains(rw.o.Agents.Names(), seen.Hint.Agent) {
		return false
	}
	h := seen.Hint
	key := rw.o.Key
	if sw.ref.Cwd == "" {
		key = nil // a seal holds only in the directory it names
	}
	rec := resumerecord.Record{Agent: h.Agent, Mode: plan.ModeExact, ID: h.ID, FromShell: sw.fromShell,
		Tab: sw.ref.TabTitle, Dir: sw.ref.Cwd, Remote: h.Host, RemoteDir: h.Dir, Argv: seen.SSH.Argv}
	argv, err := rec.CommandLine(rw.o.ResumeBin, key, rw.o.Agents.ConfigEnv())
	if err == nil {
		if sw.fromShell {
			err = sw.l.SetCmdAtShellStartupList(argv)
		} else {
			err = sw.l.SetArgv(argv)
		}
	}
	out := Outcome{Decision: plan.Decision{WindowID: sw.id, Agent: h.Agent, Mode: plan.ModeExact, ID: h.ID, Argv: seen.SSH.Argv,
		Reason: fmt.Sprintf("%s on %s (reported by %s): resumed there over ssh if the host's journal holds %s", h.Agent, seen.SSH.Host(), h.Host, h.ID)},
		Cwd: h.Dir, Tab: sw.ref.TabTitle, Host: seen.SSH.Host(), ReportedBy: h.Host}
	if err != nil {
		out.Mode, out.Reason = plan.ModeAsSaved, fmt.Sprintf("%s on %s: kept as kitty saved it: %v", h.Agent, seen.SSH.Host(), err)
	}
	rw.remotes = append(rw.remotes, out)
	return err == nil
}

// dropRemoteHint removes the host's hint from a window's launch line: a
// restored window must not carry an old report as if its host had just
// made it (the host's hook sets it again when its agent runs).
func dropRemoteHint(l *sessionfile.Launch) {
	l.Options = slices.DeleteFunc(l.Options, func(opt sessionfile.Option) bool {
		k, _, _ := strings.Cut(opt.Value, "=")
		return opt.Name == "--var" && opt.HasValue && k == remote.Var
	})
}
