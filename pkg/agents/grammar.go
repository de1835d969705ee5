package agents

import "github.com/kittymux/kittymux/pkg/grammar"

// compiledGrammar is a Grammar as recognition looks it up.
type compiledGrammar struct {
	arity    map[string]grammar.Arity
	variadic map[string]bool
	subs     map[string]bool
}

func compileGrammar(g *grammar.Grammar) *compiledGrammar {
	if g == nil {
		return nil
	}
	c := &compiledGrammar{arity: map[string]grammar.Arity{}, variadic: map[string]bool{}, subs: map[string]bool{}}
	for _, f := range g.None {
		c.arity[f] = grammar.ArityNone
	}
	for _, f := range g.Optional {
		c.arity[f] = grammar.ArityOptional
	}
	for _, f := range g.Value {
		c.arity[f] = grammar.ArityValue
	}
	for _, f := range g.Variadic {
		c.variadic[f] = true
	}
	for _, s := range g.Subcommands {
		c.subs[s] = true
	}
	return c
}
