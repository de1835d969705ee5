package shared

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
)

// When is a time for people: the clock time, and how long ago.
func When(now, t time.Time) string {
	layout := "15:04:05"
	if now.Local().Format(time.DateOnly) != t.Local().Format(time.DateOnly) {
		layout = time.DateTime
	}
	return "at " + t.Local().Format(layout) + " (" + history.Ago(now, t) + ")"
}

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

// Lost asks the agents' own files whether a journal record's conversation
// is still there (claude deletes old transcripts, codex archives threads,
// people delete files): why it is not, or "".
func Lost(set *agents.Set, getenv func(string) string) func(journal.Record) string {
	return func(r journal.Record) string {
		run := conversations.Run{Argv: r.Argv, Dir: r.Dir, Getenv: conversations.EnvOver(r.Env, getenv)}
		return conversations.FindRun(set, r.Agent, r.ID, run).Lost(r.Agent)
	}
}
