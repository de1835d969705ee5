package live

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// asked is the conversation the restore prompt asked for.
const asked = uuid

// TestRestoredAs: `sessions list` says "resumed" of a window a restore
// prompt resumed only when the agent reports the conversation asked for;
// another id is "started a different conversation"; a window the prompt
// did not resume, or whose agent only has its command line to go by, says
// nothing.
func TestRestoredAs(t *testing.T) {
	inst := kitty.Instance{PID: 100}
	win := func(id, from string) AgentWindow {
		return AgentWindow{Ref: kitty.WindowRef{Window: &kitty.Window{ID: 7}}, PID: 4242, PIDs: []int{4242},
			Cmd: recognize.Command{Agent: "claude"}, KnownID: id, KnownIDFrom: from}
	}
	jf := &journal.File{Restores: []journal.Restore{
		{Agent: "claude", Mode: "exact", ID: asked, Outcome: journal.OutcomeResumed, KittyPID: 100, WindowID: 7, PID: 4242}}}
	for _, c := range []struct {
		name string
		w    AgentWindow
		rec  *journal.Record
		jf   *journal.File
		want string
	}{
		{"the agent's record holds the id asked", win(asked, "claude sessions/4242.json"), nil, jf, "resumed 4f9e2a51"},
		{"the hook reports another", win(other, journal.FromHook), nil, jf,
			"started a different conversation 9d1c0b7e (asked for 4f9e2a51; hook reports it)"},
		{"the journal has the agent's record", win(asked, "command line --resume"),
			&journal.Record{ID: other, IDFrom: "claude sessions/4242.json"}, jf,
			"started a different conversation 9d1c0b7e (asked for 4f9e2a51; agent record reports it)"},
		{"/clear moved on after the resume", win(other, journal.FromHook), &journal.Record{ID: other, IDFrom: journal.FromHook, PreviousIDs: []string{asked}}, jf,
			"resumed 4f9e2a51, since moved on to 9d1c0b7e"},
		{"only the command line", win(asked, "command line --resume"), nil, jf, ""},
		{"another process than the prompt's", func() AgentWindow { w := win(asked, journal.FromHook); w.PID, w.PIDs = 5, []int{5}; return w }(), nil, jf, ""},
		{"no restore", win(asked, journal.FromHook), nil, &journal.File{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := RestoredAs(c.jf, inst, c.w, c.rec); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
