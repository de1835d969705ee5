package hook

import (
	"slices"
	"strings"
)

// agentComms are the process names of agent CLIs that name their process
// (claude sets its title, codex is a native binary): one of them above
// the agent that ran the hook, past a shell, makes the run nested when the
// journal knows no record of the window's agent to tell by.
var agentComms = []string{"claude", "codex", "gemini", "qodercli", "droid", "opencode", "copilot", "kilo", "amp",
	"crush", "cursor-agent", "kimi", "hermes", "goose", "omp", "pi"}

// ownChain are the processes of the agent that ran the hook, nearest
// first: the nearest ancestor that is not a shell, and those right above
// it that are not shells either (codex's native binary below its npm
// launcher, both named codex). nested: past a shell above them, another
// process is named like an agent (agent itself or one of agentComms): a
// tool of the window's agent ran this one. An agent right below another
// of its name with no shell between (`bash -c 'claude -p …'` execs claude
// in bash's place) cannot be told from a launcher and its agent, so it is
// not taken as nested: only the journal's record of the window's agent
// tells then.
func ownChain(procs []Proc, agent string) (chain []int, nested bool) {
	i := 0
	for i < len(procs) && isShell(procs[i].Comm) {
		i++
	}
	for ; i < len(procs) && !isShell(procs[i].Comm); i++ {
		chain = append(chain, procs[i].PID)
	}
	for _, p := range procs[i:] {
		if p.Comm == agent || slices.Contains(agentComms, p.Comm) {
			return chain, true
		}
	}
	return chain, false
}

func isShell(comm string) bool { return slices.Contains(shells, strings.TrimPrefix(comm, "-")) }
