package published

import (
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// Restored is one agent window of a session file being restored: the
// record its restore prompt runs, and whether that prompt will run without
// asking (so the restore can wait for its outcome).
type Restored struct {
	Record resumerecord.Record
	Dir    string
	Auto   bool
}

// AgentWindows reads the agent windows of a session file. auto says
// whether prompts run without asking where nothing in the record stops them
// (KITTYMUX_RESUME=auto, the resume-auto file); key checks seals: only a
// sealed record runs without asking, and never one marked --confirm.
func AgentWindows(data []byte, key []byte, auto bool) ([]Restored, error) {
	f, err := sessionfile.Parse(data)
	if err != nil {
		return nil, err
	}
	var out []Restored
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		r, ok := resumerecord.FromCommandLine(l.Command(), "")
		if !ok {
			continue // not the prompt, or one that will open a shell: nothing to wait for
		}
		sealed := r.VerifyIn(key, ref.Cwd) == nil
		out = append(out, Restored{Record: r, Dir: ref.Cwd, Auto: sealed && !r.Confirm && (r.Direct || auto)})
	}
	return out, nil
}

// Outcome is the outcome w's restore prompt recorded, of outcomes (those
// recorded since the restore began): the first not used yet of its agent,
// mode, conversation, tab and directory. It marks it used: each is used
// once.
func (w Restored) Outcome(outcomes []journal.Restore, used []bool) *journal.Restore {
	r := w.Record
	for i := range outcomes {
		o := &outcomes[i]
		if !used[i] && o.Agent == r.Agent && o.Mode == string(r.Mode) && o.ID == r.ID && o.Tab == r.Tab && paths.SameDir(o.Dir, w.Dir) {
			used[i] = true
			return o
		}
	}
	return nil
}
