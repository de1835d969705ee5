package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/grammar"
)

// capturedCLI names help text captured from a real CLI installed from npm
// (testdata/agents/capture-help.sh): help/<agent>-<version>.txt and one file
// per subcommand help, help/<agent>-<version>-<words>.txt.
type capturedCLI struct {
	agent, version string
	subs           [][]string // subcommand helps, as a definition's probes name them
}

// capturedCLIs are the CLIs whose help is in testdata/agents/help.
var capturedCLIs = []capturedCLI{
	{agent: "claude", version: "2.1.197"},
	{agent: "codex", version: "0.171.0", subs: [][]string{{"resume"}}},
	{agent: "gemini", version: "0.61.0"},
	{agent: "copilot", version: "1.0.102"},
	{agent: "pi", version: "0.73.1"},
	{agent: "opencode", version: "1.18.33"},
	{agent: "qodercli", version: "1.1.52"},
	{agent: "kilo", version: "7.7.9"},
	{agent: "droid", version: "0.225.1", subs: [][]string{{"resume"}}},
	{agent: "grok", version: "0.0.34"},
	{agent: "mastracode", version: "0.32.1"},
}

func (c capturedCLI) file(sub []string) string {
	name := c.agent + "-" + c.version
	if len(sub) > 0 {
		name += "-" + strings.Join(sub, "-")
	}
	return filepath.Join("..", "..", "testdata", "agents", "help", name+".txt")
}

func (c capturedCLI) read(t testing.TB, sub []string) string {
	t.Helper()
	data, err := os.ReadFile(c.file(sub))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// grammar reads the captured helps as a probe reads the live ones.
func (c capturedCLI) grammar(t testing.TB) *grammar.Grammar {
	t.Helper()
	var g grammar.Grammar
	if !g.MergeHelp(c.agent, []string{"--help"}, c.read(t, nil)) {
		t.Fatalf("%s: no option in %s", c.agent, c.file(nil))
	}
	for _, sub := range c.subs {
		g.MergeHelp(c.agent, append(slices.Clone(sub), "--help"), c.read(t, sub))
	}
	return &g
}

func capturedFor(t testing.TB, agent string) capturedCLI {
	t.Helper()
	for _, c := range capturedCLIs {
		if c.agent == agent {
			return c
		}
	}
	t.Fatalf("no captured help for %s", agent)
	return capturedCLI{}
}

// TestDefinitionsAgreeWithHelp: each definition of a CLI whose help is
// captured names only options and subcommands that help lists, each with
// the arity the help gives it, and lists every option that takes a value and
// every subcommand. So the definition, the fallback where the CLI is not
// installed (and what the restore prompt validates with), parses a command
// line as the CLI's own grammar does.
func TestDefinitionsAgreeWithHelp(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, cli := range capturedCLIs {
		t.Run(cli.agent, func(t *testing.T) {
			a := s.agents[cli.agent]
			g := cli.grammar(t)
			cg := compileGrammar(g)
			for f, k := range a.kinds {
				ar, ok := cg.arity[f]
				if !ok && k == kindSecret {
					continue // a key must never be saved, whatever the version
				}
				if !ok {
					t.Errorf("%s is in the definition, not in the help", f)
					continue
				}
				var want []grammar.Arity
				switch k {
				case kindValue, kindStripValue, kindSecret, kindPrompt:
					want = []grammar.Arity{grammar.ArityValue}
				case kindOptionalValue, kindStripOptional:
					want = []grammar.Arity{grammar.ArityOptional}
				case kindStrip, kindOneShot, kindSwitch:
					want = []grammar.Arity{grammar.ArityNone}
				case kindHelper:
					want = []grammar.Arity{grammar.ArityNone, grammar.ArityValue, grammar.ArityOptional}
				}
				if !slices.Contains(want, ar) {
					t.Errorf("%s: the definition reads it as kind %d, the help gives arity %d", f, k, ar)
				}
				if a.variadic[f] != cg.variadic[f] {
					t.Errorf("%s: variadic %v in the definition, %v in the help", f, a.variadic[f], cg.variadic[f])
				}
			}
			for f, ar := range cg.arity {
				if _, ok := a.kinds[f]; !ok && !alwaysHelper[f] {
					t.Errorf("%s (arity %d) is in the help: add it to the definition", f, ar)
				}
			}
			for _, sub := range g.Subcommands {
				if _, n := a.matchSubcommand([]string{sub}); n == 0 && !a.hasSubcommandPrefix(sub) {
					t.Errorf("subcommand %q of the help is not in the definition", sub)
				}
			}
			for _, sc := range a.subcommands {
				if !cg.subs[sc.words[0]] {
					t.Errorf("subcommand %q of the definition is not in the help", strings.Join(sc.words, " "))
				}
			}
		})
	}
}

func (a *agent) hasSubcommandPrefix(w string) bool {
	for _, sc := range a.subcommands {
		if sc.words[0] == w {
			return true
		}
	}
	return false
}
