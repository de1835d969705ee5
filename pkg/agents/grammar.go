package agents

import "github.com/kittymux/kittymux/pkg/grammar"

// CompiledGrammar is a Grammar as recognition looks it up.
type CompiledGrammar struct {
	arity    map[string]grammar.Arity
	Variadic map[string]bool
	Subs     map[string]bool
}

func CompileGrammar(g *grammar.Grammar) *CompiledGrammar {
	if g == nil {
		return nil
	}
	c := &CompiledGrammar{arity: map[string]grammar.Arity{}, Variadic: map[string]bool{}, Subs: map[string]bool{}}
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
		c.Variadic[f] = true
	}
	for _, s := range g.Subcommands {
		c.Subs[s] = true
	}
	return c
}

// kind is what flag is: a definition's meaning (strip, secret, prompt,
// one-shot, helper) wins; how many words a kept flag takes comes from the
// CLI's help when there is one, else from the definition's value lists.
func (a *Agent) Kind(flag string, g *CompiledGrammar) FlagKind {
	k := a.kinds[flag]
	if k != KindUnknown && k != KindValue && k != KindOptionalValue && k != KindSwitch {
		return k
	}
	if g != nil {
		switch g.arity[flag] {
		case grammar.ArityValue:
			return KindValue
		case grammar.ArityOptional:
			return KindOptionalValue
		case grammar.ArityNone:
			return KindSwitch
		}
	}
	return k
}
