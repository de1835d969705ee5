package shared

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
)

// CompleteSessionNames completes the names of the saves, and extra. Shell
// completion (`kittymux completion bash|zsh|fish`) asks it while a word is
// typed: it reads files only, never a kitty socket or an agent's --help, so
// a completion never waits.
func CompleteSessionNames(p paths.Paths, extra ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		all, _ := published.List(p)
		names := append([]string(nil), extra...)
		for _, in := range all {
			names = append(names, in.Name)
		}
		var out []cobra.Completion
		for _, n := range names {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
