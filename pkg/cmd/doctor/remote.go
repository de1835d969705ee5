package doctor

import (
	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/remote"
)

// remoteNotes says, for each window of the kitty that answered a running
// ssh to an agent, what a restore does with it: resumes it on its host,
// or, where the host has no kittymux to report it, that setting it up
// there would bring it back.
func remoteNotes(o *Options, a kitty.Answer) []string {
	if a.Err != nil {
		return nil
	}
	set, _ := agents.Load(o.Paths.UserAgents())
	agentOf := func(line string) (string, bool) {
		if set == nil {
			return "", false
		}
		c, ok := recognize.String(set, line)
		return c.Agent, ok
	}
	var out []string
	for _, s := range remote.Windows(a.LS, live.ReadProc) {
		if n := s.Note(agentOf); n != "" {
			out = append(out, n)
		}
	}
	return out
}
