package live

import "github.com/kittymux/kittymux/pkg/agents"

// IDLimit says why a window running agent with argv (its program and
// flags) may have no exact id whatever kittymux reads, as found on the real
// CLI (agents.Code.IDLimit: codex through its shared daemon); "" when
// nothing stands in the way.
func IDLimit(agent string, argv []string) string {
	if c := agents.CodeOf(agent); c != nil && c.IDLimit != nil {
		return c.IDLimit(argv)
	}
	return ""
}
