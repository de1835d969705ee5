package list

import (
	"fmt"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/remote"
)

// remoteListed are the windows of ls (the kitty at socket) that run ssh,
// read with read (the OS), that an agent on the far side may hold: those
// whose host's hook reported one (a restore resumes it there, if the
// host's journal holds it), and those whose shell on the host reported
// an agent's command line but whose host has no kittymux to say more
// (they come back as kitty restores them: installing kittymux there
// would bring the agent back).
func remoteListed(set *agents.Set, socket string, ls []kitty.OSWindow, read func(int) (recognize.Proc, bool)) []ListedWindow {
	tabs := map[int]string{}
	for _, ref := range kitty.Windows(ls) {
		tabs[ref.Window.ID] = ref.Tab.Title
	}
	var out []ListedWindow
	for _, s := range remote.Windows(ls, read) {
		host := s.SSH.Host()
		lw := ListedWindow{Kitty: socket, Decision: plan.Decision{WindowID: s.WindowID, Mode: plan.ModeAsSaved}, Tab: tabs[s.WindowID], Host: host}
		switch c, typed := recognize.String(set, s.Reported); {
		case s.HasHint():
			h := s.Hint
			lw.Agent, lw.Mode, lw.ID, lw.Cwd, lw.ReportedBy, lw.IDSource = h.Agent, plan.ModeExact, h.ID, h.Dir, h.Host, "host's hook"
			lw.Argv, lw.Command = s.SSH.Argv, recognize.Quote(s.SSH.Argv)
			lw.Reason = fmt.Sprintf("%s on %s (reported by %s): a restore runs this ssh command and resumes %s there if the host's journal holds it",
				h.Agent, host, h.Host, h.ID)
		case s.HintErr != nil:
			lw.Reason = fmt.Sprintf("ssh to %s: its hint was refused (%v); restored as kitty saves it", host, s.HintErr)
		case typed:
			lw.Agent = c.Agent
			lw.Reason = fmt.Sprintf("ssh to %s, where the shell reported running %s: kittymux is not set up there, so it comes back as kitty restores it (reconnected); `kittymux setup --remote` on %s would bring its agents back",
				host, c.Agent, host)
		default:
			continue
		}
		out = append(out, lw)
	}
	return out
}
