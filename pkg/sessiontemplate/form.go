package sessiontemplate

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/huh"

	"github.com/kittymux/kittymux/pkg/tui"
)

// Choices are what a new session is made of; "" is not chosen yet.
type Choices struct {
	Template string
	Agent    string
	Cwd      string
}

// ErrCancelled: the person left the form.
var ErrCancelled = errors.New("cancelled")

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

// Ask asks for what c is missing in one form on in and out, a terminal:
// the template, then the agent among the installed ones when the template
// runs one, then the directory (defaultCwd offered). It returns
// ErrCancelled when the person leaves (ctrl+c).
func Ask(in io.Reader, out io.Writer, c *Choices, ts []Template, agents []string, defaultCwd string) error {
	var groups []*huh.Group
	if c.Template == "" {
		opts := make([]huh.Option[string], len(ts))
		for i, t := range ts {
			label := t.Name
			if t.About != "" {
				label += " — " + t.About
			}
			opts[i] = huh.NewOption(label, t.Name)
		}
		groups = append(groups, huh.NewGroup(huh.NewSelect[string]().Title("Template").Options(opts...).Value(&c.Template)))
	}
	needs := func() bool {
		t, err := Find(ts, c.Template)
		return err == nil && t.NeedsAgent
	}
	// With nothing to pick from, Missing says so once the form is done. A
	// hidden group is skipped only when the form moves on to it, never as
	// the first group: a known template that runs no agent gets none.
	if c.Agent == "" && len(agents) > 0 && (c.Template == "" || needs()) {
		groups = append(groups, huh.NewGroup(huh.NewSelect[string]().Title("Agent").Options(huh.NewOptions(agents...)...).Value(&c.Agent)).
			WithHideFunc(func() bool { return !needs() }))
	}
	if c.Cwd == "" {
		c.Cwd = defaultCwd
		groups = append(groups, huh.NewGroup(huh.NewInput().Title("Directory").Value(&c.Cwd).Validate(func(s string) error {
			if !filepath.IsAbs(s) {
				return errors.New("an absolute path, please")
			}
			return nil
		})))
	}
	if len(groups) == 0 {
		return nil
	}
	err := tui.NewForm(out, groups...).WithInput(in).Run()
	if errors.Is(err, huh.ErrUserAborted) {
		return ErrCancelled
	}
	return err
}
