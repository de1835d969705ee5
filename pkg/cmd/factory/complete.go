package factory

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
)

// CompleteAgents completes an --agent flag: the agents whose CLI is on PATH
// first, in name order, then, when others is set or none is installed, the
// other defined agents. It reads the definitions and PATH only, so a
// completion never waits.
func CompleteAgents(loadAgents func() (*agents.Set, error), lookPath func(string) (string, error), others bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		set, err := loadAgents()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		installed := set.Installed(lookPath)
		var first, rest []cobra.Completion
		for _, n := range set.Names() {
			if !strings.HasPrefix(n, prefix) {
				continue
			}
			if _, ok := installed[n]; ok {
				first = append(first, cobra.CompletionWithDesc(n, "installed"))
			} else {
				rest = append(rest, cobra.CompletionWithDesc(n, "not on PATH"))
			}
		}
		slices.Sort(first)
		slices.Sort(rest)
		if others || len(installed) == 0 {
			first = append(first, rest...)
		}
		return first, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}
