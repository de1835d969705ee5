package sessions

import (
	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
)

// lostIn asks the agents' own files whether a journal record's
// conversation is still there (claude deletes old transcripts, codex
// archives threads, people delete files): why it is not, or "".
func lostIn(set *agents.Set, getenv func(string) string) func(journal.Record) string {
	return func(r journal.Record) string {
		run := conversations.Run{Argv: r.Argv, Dir: r.Dir, Getenv: conversations.EnvOver(r.Env, getenv)}
		return conversations.FindRun(set, r.Agent, r.ID, run).Lost(r.Agent)
	}
}

// markLost marks the ended entries whose conversation the agent no longer
// has. Without definitions nothing is marked.
func markLost(loadAgents func() (*agents.Set, error), getenv func(string) string, jf *journal.File, es []history.Entry) {
	set, err := loadAgents()
	if err != nil || set == nil {
		return
	}
	lost := lostIn(set, getenv)
	byKey := make(map[string]journal.Record, len(jf.Records))
	for _, r := range jf.Records {
		byKey[r.Key] = r
	}
	for i := range es {
		if es[i].Running || es[i].ID == "" {
			continue
		}
		if r, ok := byKey[es[i].Key]; ok {
			es[i].Lost = lost(r)
		}
	}
}
