package agents

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/kittymux/kittymux/pkg/grammar"
)

// TestDefinitionsMatchCapturedHelp: every flag and subcommand the claude and
// codex definitions name is in the help text of the versions they were
// written against (testdata/agents/help: the pinned ones and the registry's
// newest), so none is invented.
func TestDefinitionsMatchCapturedHelp(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	helps := map[string][]string{
		"claude": {"claude-2.1.197.txt", "claude-2.1.332.txt"},
		"codex":  {"codex-0.171.0.txt", "codex-0.171.0-resume.txt"},
	}
	for name, files := range helps {
		var text string
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "agents", "help", f))
			if err != nil {
				t.Fatal(err)
			}
			text += string(data) + "\n"
		}
		a := s.agents[name].get()
		var words []string
		for f := range a.kinds {
			words = append(words, f)
		}
		for _, sc := range a.subcommands {
			words = append(words, sc.Words...)
		}
		words = append(words, templateFlags(a.Def.Exact)...)
		words = append(words, templateFlags(a.Def.Latest)...)
		for _, w := range words {
			alias := regexp.MustCompile(`\[aliases: ([^\]]*, )?` + regexp.QuoteMeta(w) + `[,\]]`)
			if !grammar.Shows(text, w) && !alias.MatchString(text) {
				t.Errorf("%s: %q is not in %v", name, w, files)
			}
		}
	}
}
