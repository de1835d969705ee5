package hookrun

import (
	"slices"
	"strings"
	"sync"

	"github.com/kittymux/kittymux/pkg/agents"
)

// agentPrograms returns isAgent for Options.IsAgent: whether a process
// name is a program of the agent definitions (the shipped ones and those
// in userFile), loaded lazily when first asked. One above the agent that
// ran the hook, past a shell, makes the run nested when the journal knows
// no record of the window's agent to tell by.
func agentPrograms(userFile string) func(comm string) bool {
	set := sync.OnceValue(func() *agents.Set {
		s, _ := agents.Load(userFile) // a user file that does not load leaves the shipped agents
		return s
	})
	return func(comm string) bool {
		s := set()
		return s != nil && s.IsProgram(comm)
	}
}

// shippedPrograms is isAgent when Options has none: the shipped agents.
var shippedPrograms = agentPrograms("")

// ownChain are the processes of the agent that ran the hook, nearest
// first: the nearest ancestor that is not a shell, and those right above
// it that are not shells either (codex's native binary below its npm
// launcher, both named codex). nested: past a shell above them, another
// process is named like an agent (agent itself, or isAgent says so): a
// tool of the window's agent ran this one. An agent right below another
// of its name with no shell between (`bash -c 'claude -p …'` execs claude
// in bash's place) cannot be told from a launcher and its agent, so it is
// not taken as nested: only the journal's record of the window's agent
// tells then.
func ownChain(procs []Proc, agent string, isAgent func(comm string) bool) (chain []int, nested bool) {
	i := 0
	for i < len(procs) && isShell(procs[i].Comm) {
		i++
	}
	for ; i < len(procs) && !isShell(procs[i].Comm); i++ {
		chain = append(chain, procs[i].PID)
	}
	for _, p := range procs[i:] {
		if p.Comm == agent || isAgent(p.Comm) {
			return chain, true
		}
	}
	return chain, false
}

func isShell(comm string) bool { return slices.Contains(shells, strings.TrimPrefix(comm, "-")) }
