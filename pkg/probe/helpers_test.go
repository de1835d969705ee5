package probe_test

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
)

func loadShipped(t *testing.T) *agents.Set {
	t.Helper()
	s, err := agents.Load("")
	if err != nil {
		t.Fatalf("load shipped definitions: %v", err)
	}
	return s
}

func recognised(t *testing.T, s *agents.Set, line string) agents.Command {
	t.Helper()
	c, ok := s.RecognizeString(line)
	if !ok {
		t.Fatalf("%q not recognised", line)
	}
	return c
}

// Ids of each agent's form.
const (
	uuid    = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	codexID = "0199a213-81c0-7800-8aa1-bbab2a035a53" // uuid v7, as codex makes them
)
