package live

import "github.com/kittymux/kittymux/pkg/agents"

// Reports says whether Read can say which conversation a process of agent
// has: whether the agent keeps a record of its running processes
// (agents.Code.ReadID; claude's sessions/<pid>.json, the file codex holds
// open where open files can be read).
func (r Records) Reports(agent string) bool {
	c := agents.CodeOf(agent)
	return c != nil && c.ReadID != nil
}
