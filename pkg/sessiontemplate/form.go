package sessiontemplate

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kittymux/kittymux/pkg/tui"
)

// Choices are what a new session is made of; "" is not chosen yet.
type Choices struct {
	Template string
	Agent    string
	Cwd      string
}

// ErrCancelled: the person left the form (tui's).
var ErrCancelled = tui.ErrCancelled

// Missing says what is still to choose for ts and agents, listing the
// choices there are, for a command without a terminal to ask on; nil when
// nothing is missing.
func Missing(c Choices, ts []Template, agents []string) error {
	var msgs []string
	if c.Template == "" {
		msgs = append(msgs, "--template is missing: "+strings.Join(Names(ts), ", "))
	} else if t, err := Find(ts, c.Template); err == nil && t.NeedsAgent && c.Agent == "" {
		msgs = append(msgs, fmt.Sprintf("--agent is missing (template %s runs one): %s", t.Name, agentList(agents)))
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; ") + " (no terminal to ask on)")
}

func agentList(agents []string) string {
	if len(agents) == 0 {
		return "no agent CLI is installed"
	}
	return strings.Join(agents, ", ")
}

// Ask asks for what c is missing on in and out, a terminal, one question
// after another: the template, then the agent among the installed ones
// when the template runs one, then the directory (defaultCwd typed
// already). It returns ErrCancelled when the person leaves (Ctrl-C, Esc).
func Ask(in io.Reader, out io.Writer, c *Choices, ts []Template, agents []string, defaultCwd string) error {
	a, err := tui.Open(in, out)
	if err != nil {
		return err
	}
	defer a.Close()
	return ask(a, c, ts, agents, defaultCwd)
}

func ask(a *tui.Asker, c *Choices, ts []Template, agents []string, defaultCwd string) error {
	var err error
	if c.Template == "" {
		opts := make([]tui.Option, len(ts))
		for i, t := range ts {
			opts[i] = tui.Option{Label: t.Name, Value: t.Name}
			if t.About != "" {
				opts[i].Label += " — " + t.About
			}
		}
		if c.Template, err = a.Select("Template", opts); err != nil {
			return err
		}
	}
	// With nothing to pick from, Missing says so once the rest is asked.
	if t, err := Find(ts, c.Template); c.Agent == "" && len(agents) > 0 && err == nil && t.NeedsAgent {
		opts := make([]tui.Option, len(agents))
		for i, a := range agents {
			opts[i] = tui.Option{Label: a, Value: a}
		}
		if c.Agent, err = a.Select("Agent", opts); err != nil {
			return err
		}
	}
	if c.Cwd == "" {
		c.Cwd, err = a.Input("Directory", defaultCwd, func(s string) error {
			if !filepath.IsAbs(s) {
				return errors.New("an absolute path, please")
			}
			return nil
		})
	}
	return err
}
