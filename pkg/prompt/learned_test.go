package prompt_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
)

// TestLearnedAfterTheSave: a sealed record that names no conversation
// names the journal's record of its window's agent process (its origin);
// the id that process's hook (or its own record) reported after the save
// is resumed exactly, and the prompt says it was learned after the save.
// Only that very record counts: another process under the same key, an id
// only a command line named, another agent or directory, an unsealed
// record, or an id another window holds leave the record as saved.
func TestLearnedAfterTheSave(t *testing.T) {
	first := time.Now().Add(-10 * time.Minute).Round(0)
	key := journal.Key("unix:/tmp/kitty-900", 900, 5, 901)
	origin := (journal.Record{Key: key, FirstSeen: first}).Origin()
	latest := []string{"claude", "--model", "sonnet", "--continue"}
	exact := []string{"claude", "--model", "sonnet", "--resume", uuid}
	const oldID = "0b7e9c2a-1d3f-4e5a-8b6c-7d8e9f0a1b2c"
	stayed := []string{"claude", "--model", "sonnet", "--resume", oldID}
	record := func(mode, origin string) []string {
		if mode == "exact" {
			return []string{"--agent", "claude", "--mode", "exact", "--id", oldID, "--tab", "api work", "--origin", origin, "--", "claude", "--model", "sonnet", "--resume", oldID}
		}
		if mode == "choose" {
			return []string{"--agent", "claude", "--mode", "choose", "--tab", "api work", "--origin", origin, "--", "claude", "--model", "sonnet"}
		}
		return []string{"--agent", "claude", "--mode", "latest", "--tab", "api work", "--origin", origin, "--", "claude", "--model", "sonnet", "--continue"}
	}
	for _, c := range []struct {
		name   string
		mode   string // of the saved record: latest unless said
		edit   func(w *world, r *journal.Record)
		origin string
		sealed bool
		other  bool // another window's live agent holds the id
		want   []string
		says   string
	}{
		{name: "from the hook", sealed: true, want: exact, says: "resume 3e8b5c17 (learned after the save)?"},
		{name: "a choose record", mode: "choose", sealed: true, want: exact, says: "resume 3e8b5c17 (learned after the save)?"},
		{name: "from the agent's record", sealed: true, want: exact, says: "the agent's own record reported it",
			edit: func(_ *world, r *journal.Record) { r.IDFrom, r.HookAt = "claude sessions/901.json", nil }},
		{name: "another process under the same key", sealed: true, want: latest, says: "resume its latest conversation",
			origin: (journal.Record{Key: key, FirstSeen: first.Add(-time.Hour)}).Origin()},
		{name: "only its command line", sealed: true, want: latest, says: "resume its latest conversation",
			edit: func(_ *world, r *journal.Record) { r.IDFrom, r.HookAt = "command line --resume", nil }},
		{name: "a user var", sealed: true, want: latest, says: "resume its latest conversation",
			edit: func(_ *world, r *journal.Record) { r.IDFrom, r.HookAt = "kitty user var kittymux_session", nil }},
		{name: "another agent", sealed: true, want: latest, says: "resume its latest conversation",
			edit: func(_ *world, r *journal.Record) { r.Agent = "codex" }},
		{name: "another directory", sealed: true, want: latest, says: "resume its latest conversation",
			edit: func(w *world, r *journal.Record) { r.Dir = filepath.Join(w.dir, "elsewhere") }},
		{name: "unsealed", want: latest, says: "resume its latest conversation"},
		{name: "open in another window", sealed: true, other: true, want: latest, says: "resume its latest conversation"},
		// A record that named a conversation its agent left after the save
		// (/clear, /new): the one it went to.
		{name: "an exact record the agent left", mode: "exact", sealed: true, want: exact, says: "resume 3e8b5c17 (where it went after the save)?",
			edit: func(_ *world, r *journal.Record) { r.PreviousIDs = []string{oldID} }},
		{name: "an exact record the agent never had", mode: "exact", sealed: true, want: stayed, says: "resume 0b7e9c2a?"},
		{name: "an exact record, unsealed", mode: "exact", want: stayed, says: "resume 0b7e9c2a?",
			edit: func(_ *world, r *journal.Record) { r.PreviousIDs = []string{oldID} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.extraEnv = []string{"KITTY_PID=4242", "KITTY_WINDOW_ID=1"}
			gone := first.Add(9 * time.Minute)
			hookAt := first.Add(time.Minute)
			r := journal.Record{Key: key, Agent: "claude", ID: uuid, IDFrom: journal.FromHook, HookAt: &hookAt, Dir: w.cwd,
				FirstSeen: first, LastSeen: gone, KittyPID: 900, KittySocket: "unix:/tmp/kitty-900", WindowID: 5, PID: 901,
				ClosedAt: &gone, CloseReason: journal.ClosedKittyGone}
			if c.edit != nil {
				c.edit(w, &r)
			}
			_, err := journal.New(filepath.Join(w.state, "agent-sessions.json"), false).Update(func(f *journal.File) error {
				f.Upsert(r)
				if c.other {
					now := time.Now()
					f.Upsert(journal.Record{Key: "other", Agent: "claude", ID: uuid, IDFrom: "hook", Open: true, FirstSeen: now, LastSeen: now,
						KittyPID: 4242, KittySocket: "unix:/tmp/kitty-4242", WindowID: 7, PID: os.Getpid()})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			o := origin
			if c.origin != "" {
				o = c.origin
			}
			args := record(c.mode, o)
			if c.sealed {
				args = w.seal(args)
			}
			res := w.runPTY(args, "\r", true)
			if diff := cmp.Diff(c.want, argvOf(res)); diff != "" {
				t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, res.out)
			}
			if !strings.Contains(strings.ReplaceAll(res.out, "\r\n  ", " "), c.says) {
				t.Errorf("the prompt does not say %q:\n%s", c.says, res.out)
			}
		})
	}
}
