package plan

import "github.com/kittymux/kittymux/pkg/agents"

// agent is what the plan reads of one agent's definition.
type agent struct {
	name      string
	def       agents.Definition
	canResume bool
	probes    []agents.Probe
}

// lookup reads name's definition out of s.
func lookup(s *agents.Set, name string) (*agent, bool) {
	def, ok := s.Definition(name)
	if !ok {
		return nil, false
	}
	return &agent{name: name, def: def, canResume: s.CanResume(name), probes: s.ProbeRuns(name)}, true
}

// catalog looks each agent up once, so that windows of one agent share it.
type catalog struct {
	s      *agents.Set
	agents map[string]*agent
}

func (c *catalog) get(name string) *agent {
	if a, ok := c.agents[name]; ok {
		return a
	}
	a, _ := lookup(c.s, name)
	c.agents[name] = a
	return a
}

// chooses reports whether the user can choose among a's conversations at
// restore: kittymux can list them (agents.Set.Chooses) and resume one by id.
func (a *agent) chooses() bool {
	c := a.def.Conversations
	listed := agents.Listed(a.name) || c != nil && c.UserMessages != nil && c.Unchecked == ""
	return a.canResume && len(a.def.Exact) > 0 && listed
}
