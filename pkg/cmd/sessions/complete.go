package sessions

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessiontemplate"
	"github.com/kittymux/kittymux/pkg/store"
)

// Shell completion (`kittymux completion bash|zsh|fish`) asks these while
// a word is typed: they read files only, never a kitty socket or an
// agent's --help, so a completion never waits.

func completeSessionNames(p paths.Paths, extra ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		all, _ := store.List(p)
		names := append([]string(nil), extra...)
		for _, in := range all {
			names = append(names, in.Name)
		}
		return prefixed(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

func completeTemplateNames(p paths.Paths) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		ts, _ := sessiontemplate.List(p)
		var out []cobra.Completion
		for _, t := range ts {
			if strings.HasPrefix(t.Name, toComplete) {
				out = append(out, cobra.CompletionWithDesc(t.Name, t.About))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

func prefixed(names []string, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}
