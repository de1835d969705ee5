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
	// newer are later versions whose helps are captured too (the
	// registry's newest when last checked, which users run): the
	// definition reads the command lines of each version.
	newer []string
}

// capturedCLIs are the CLIs whose help is in testdata/agents/help. version
// is the one CI installs (.ci/run).
var capturedCLIs = []capturedCLI{
	{agent: "claude", version: "2.1.197", newer: []string{"2.1.332"}},
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

// versions are c at each captured version, the pinned one first.
func (c capturedCLI) versions() []capturedCLI {
	out := []capturedCLI{c}
	for _, v := range c.newer {
		n := c
		n.version, n.newer = v, nil
		out = append(out, n)
	}
	return out
}

// at is c at one captured version.
func (c capturedCLI) at(t testing.TB, version string) capturedCLI {
	t.Helper()
	for _, v := range c.versions() {
		if v.version == version {
			return v
		}
	}
	t.Fatalf("no captured help of %s %s", c.agent, version)
	return capturedCLI{}
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
// captured names only options and subcommands that a captured version's help
// lists, each with the arity that help gives it, and lists every option that
// takes a value and every subcommand of each captured version. So the
// definition, the fallback where the CLI is not installed (and what the
// restore prompt validates with), parses a command line as the CLI's own
// grammar does, for the pinned version and the newer ones alike.
func TestDefinitionsAgreeWithHelp(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, cli := range capturedCLIs {
		t.Run(cli.agent, func(t *testing.T) {
			a := s.agents[cli.agent].get()
			type version struct {
				name string
				g    *grammar.Grammar
				cg   *CompiledGrammar
			}
			var vs []version
			subs := map[string]bool{}
			for _, c := range cli.versions() {
				g := c.grammar(t)
				cg := CompileGrammar(g)
				vs = append(vs, version{c.version, g, cg})
				for w := range cg.Subs {
					subs[w] = true
				}
			}
			for f, k := range a.kinds {
				var want []grammar.Arity
				switch k {
				case KindValue, KindStripValue, KindSecret, KindPrompt:
					want = []grammar.Arity{grammar.ArityValue}
				case KindOptionalValue, KindStripOptional:
					want = []grammar.Arity{grammar.ArityOptional}
				case KindStrip, KindOneShot, KindSwitch:
					want = []grammar.Arity{grammar.ArityNone}
				case KindHelper:
					want = []grammar.Arity{grammar.ArityNone, grammar.ArityValue, grammar.ArityOptional}
				}
				found := false
				for _, v := range vs {
					ar, ok := v.cg.arity[f]
					if !ok {
						continue
					}
					found = true
					if !slices.Contains(want, ar) {
						t.Errorf("%s: the definition reads it as kind %d, the help of %s gives arity %d", f, k, v.name, ar)
					}
					if a.Variadic[f] != v.cg.Variadic[f] {
						t.Errorf("%s: variadic %v in the definition, %v in the help of %s", f, a.Variadic[f], v.cg.Variadic[f], v.name)
					}
				}
				if !found && k != KindSecret { // a key must never be saved, whatever the version
					t.Errorf("%s is in the definition, not in the help", f)
				}
			}
			for _, v := range vs {
				for f, ar := range v.cg.arity {
					if _, ok := a.kinds[f]; !ok && !AlwaysHelper[f] {
						t.Errorf("%s (arity %d) is in the help of %s: add it to the definition", f, ar, v.name)
					}
				}
				for _, sub := range v.g.Subcommands {
					if _, n := a.MatchSubcommand([]string{sub}); n == 0 && !a.hasSubcommandPrefix(sub) {
						t.Errorf("subcommand %q of the help of %s is not in the definition", sub, v.name)
					}
				}
			}
			for _, sc := range a.subcommands {
				if !subs[sc.Words[0]] {
					t.Errorf("subcommand %q of the definition is not in the help", strings.Join(sc.Words, " "))
				}
			}
		})
	}
}

func (a *Agent) hasSubcommandPrefix(w string) bool {
	for _, sc := range a.subcommands {
		if sc.Words[0] == w {
			return true
		}
	}
	return false
}
