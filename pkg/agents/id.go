package agents

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors of the definitions' questions.
var (
	ErrUnknownAgent = errors.New("unknown agent")
	ErrBadID        = errors.New("not a plain conversation id")
)

// CheckID says why id is not a conversation id agentName can be given, or
// nil: never an option, no whitespace, no shell metacharacter, and the
// agent's own id form.
func (s *Set) CheckID(agentName, id string) error {
	a, ok := s.Agent(agentName)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownAgent, agentName)
	}
	return a.checkID(id)
}

func (a *Agent) checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: the id is empty", ErrBadID)
	case strings.HasPrefix(id, "-"):
		return fmt.Errorf("%w: %q starts with '-', so %s would read it as an option", ErrBadID, id, a.Name)
	case strings.ContainsAny(id, " \t\n\r\v\f"):
		return fmt.Errorf("%w: %q holds whitespace", ErrBadID, id)
	case !isPlainToken(id):
		return fmt.Errorf("%w: %q holds characters other than letters, digits, '.', '_' and '-'", ErrBadID, id)
	case a.idRE != nil && !a.idRE().MatchString(id):
		return fmt.Errorf("%w: %q does not match the id form of %s (%s)", ErrBadID, id, a.Name, a.Def.IDPattern)
	}
	return nil
}

// isID reports whether w is a conversation id of this agent.
func (a *Agent) IsID(w string) bool {
	if !isPlainToken(w) {
		return false
	}
	return a.idRE == nil || a.idRE().MatchString(w)
}
