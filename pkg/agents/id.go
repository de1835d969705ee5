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
	a, ok := s.agent(agentName)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownAgent, agentName)
	}
	return a.checkID(id)
}

func (a *agent) checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: the id is empty", ErrBadID)
	case strings.HasPrefix(id, "-"):
		return fmt.Errorf("%w: %q starts with '-', so %s would read it as an option", ErrBadID, id, a.name)
	case strings.ContainsAny(id, " \t\n\r\v\f"):
		return fmt.Errorf("%w: %q holds whitespace", ErrBadID, id)
	case !isPlainToken(id):
		return fmt.Errorf("%w: %q holds characters other than letters, digits, '.', '_' and '-'", ErrBadID, id)
	case a.idRE != nil && !a.idRE().MatchString(id):
		return fmt.Errorf("%w: %q does not match the id form of %s (%s)", ErrBadID, id, a.name, a.def.IDPattern)
	}
	return nil
}
