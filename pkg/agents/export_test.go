package agents

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/grammar"
)

// Hooks for the external tests (package agents_test), which check
// recognition together with the resume plan of pkg/plan.

// CapturedGrammar reads agent's captured helps as a probe reads the live
// ones.
func CapturedGrammar(t testing.TB, agent string) *grammar.Grammar {
	t.Helper()
	return capturedFor(t, agent).grammar(t)
}

// CapturedGrammarAt reads agent's captured helps of one captured version
// (the pinned one or a newer one).
func CapturedGrammarAt(t testing.TB, agent, version string) *grammar.Grammar {
	t.Helper()
	return capturedFor(t, agent).at(t, version).grammar(t)
}

// KeepsValue reports whether agent keeps flag with a value (as recognition
// reads it with g): a flag whose value a resume argv must not lose.
func (s *Set) KeepsValue(agent, flag string, g *grammar.Grammar) bool {
	k := s.agents[agent].get().Kind(flag, CompileGrammar(g))
	return k == KindValue || k == KindOptionalValue
}
