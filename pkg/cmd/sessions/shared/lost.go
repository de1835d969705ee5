package shared

import (
	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
)

// Lost asks the agents' own files whether a journal record's conversation
// is still there (claude deletes old transcripts, codex archives threads,
// people delete files): why it is not, or "".
func Lost(set *agents.Set, getenv func(string) string) func(journal.Record) string {
	return func(r journal.Record) string {
		run := agents.Run{Argv: r.Argv, Dir: r.Dir, Getenv: agents.EnvOver(r.Env, getenv)}
		return set.FindConversationRun(r.Agent, r.ID, run).Lost(r.Agent)
	}
}
