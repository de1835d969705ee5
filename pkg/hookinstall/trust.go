package hookinstall

// Trust states of an agent's hooks, where the agent runs a new hook only
// once the user trusts it (codex: agents.Hooks.Trust).
const (
	Trusted   = "trusted"
	Untrusted = "not trusted"
)
