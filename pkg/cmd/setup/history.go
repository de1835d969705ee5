package setup

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/kittymux/kittymux/pkg/screenhist"
	"github.com/kittymux/kittymux/pkg/tui"
)

// historyQuestion is what setup asks about screen history.
const historyQuestion = "Keep what plain windows show with each save (screen history)?"

// historyDetail says plainly what screen history stores and where.
func historyDetail(o *Options, b screenhist.Bounds) string {
	return fmt.Sprintf("Each save would also store the text and colours of every window that is not an agent "+
		"(screen and scrollback: %s) as files readable only by you in %s, "+
		"removed with the save; a restored window prints it before its prompt. It holds whatever the screen showed, "+
		"secrets included, so it is off unless you say yes.",
		b, filepath.Join(o.Paths.SessionsDir(), "NAME.history"))
}

// screenHistory asks whether to turn screen history on, where it is off and
// a terminal can answer; without one it stays off and the line says how
// to turn it on.
func screenHistory(o *Options) error {
	if o.Undo {
		return nil
	}
	out := o.IO.Out
	s, err := screenhist.Load(o.Paths, o.Getenv)
	switch {
	case err != nil:
		fmt.Fprintf(out, "history    not asked: %v\n", err)
		return nil
	case s.On:
		fmt.Fprintf(out, "history    on (%s)\n", s.Why)
		return nil
	case o.DryRun:
		fmt.Fprintf(out, "history    would ask: %s\n", historyQuestion)
		return nil
	case o.Getenv(screenhist.Env) != "":
		fmt.Fprintf(out, "history    off (%s)\n", s.Why)
		return nil
	case !o.IO.CanAsk() && o.Confirm == nil:
		fmt.Fprintf(out, "history    off (not asked: no terminal); {\"%s\": true} in %s or %s=1 turns it on\n",
			screenhist.ConfigKey, o.Paths.Config(), screenhist.Env)
		return nil
	}
	confirm := o.Confirm
	if confirm == nil {
		confirm = func(q string) (bool, error) {
			return o.terminal().Confirm(q, historyDetail(o, s.Bounds))
		}
	}
	yes, err := confirm(historyQuestion)
	if errors.Is(err, tui.ErrCancelled) || err == nil && !yes {
		fmt.Fprintln(out, "history    off")
		return nil
	}
	if err != nil {
		return err
	}
	if err := screenhist.TurnOn(o.Paths); err != nil {
		return err
	}
	fmt.Fprintf(out, "history    on: \"%s\": true written to %s\n", screenhist.ConfigKey, o.Paths.Config())
	return nil
}
