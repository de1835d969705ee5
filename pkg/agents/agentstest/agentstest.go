// Package agentstest holds what the tests of pkg/agents, pkg/probe and
// pkg/plan share: the shipped definitions, recognised command lines and ids
// of each agent's form.
package agentstest

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
)

// Ids of each agent's form.
const (
	UUID    = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	CodexID = "0199a213-81c0-7800-8aa1-bbab2a035a53" // uuid v7, as codex makes them
	SesID   = "ses_6Jb3kX9qP2"
	AmpID   = "T-4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	TokenID = "20250301_3"
)

// Shipped loads the shipped definitions.
func Shipped(t testing.TB) *agents.Set {
	t.Helper()
	s, err := agents.Load("")
	if err != nil {
		t.Fatalf("load shipped definitions: %v", err)
	}
	return s
}

// Recognised is the command a typed line recognises as.
func Recognised(t testing.TB, s *agents.Set, line string) agents.Command {
	t.Helper()
	c, ok := s.RecognizeString(line)
	if !ok {
		t.Fatalf("%q not recognised", line)
	}
	return c
}
