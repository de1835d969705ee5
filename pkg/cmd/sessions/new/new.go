// Package new implements `kittymux sessions new`: a session made from a
// template, and opened.
package new

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/sessiontemplate"
)

// NewOptions of `sessions new`.
type NewOptions struct {
	IO       *factory.IOStreams
	Paths    paths.Paths
	LookPath func(string) (string, error)
	Agents   func() (*agents.Set, error)
	shared.Target

	Name     string
	Template string
	Agent    string
	Cwd      string
	Force    bool
	// Interactive: stdin and stdout are a terminal, so missing choices are
	// asked rather than refused.
	Interactive bool
	// Ask asks for missing choices (sessiontemplate.Ask); tests replace it.
	Ask func(in io.Reader, out io.Writer, c *sessiontemplate.Choices, ts []sessiontemplate.Template, agents []string, cwd string) error
	// StartKitty starts a new kitty on a session file; tests replace it.
	StartKitty func(kittyPath, session string) error
}

// From fills o with what `sessions new` takes from f.
func (o NewOptions) From(f *factory.Factory) *NewOptions {
	o.IO, o.Paths, o.LookPath, o.Agents, o.Target = f.IO, f.Paths, f.LookPath, f.Agents, shared.TargetFrom(f)
	return &o
}

// NewCmdNew returns `sessions new`.
func NewCmdNew(f *factory.Factory, runF func(*NewOptions) error) *cobra.Command {
	o := NewOptions{Ask: sessiontemplate.Ask, StartKitty: kitty.StartSession}.From(f)
	cmd := &cobra.Command{
		Use:   "new NAME --template T [--agent A] [--cwd DIR] [--force]",
		Short: "Make a session from a template and open it",
		Example: `  kittymux sessions new api
  kittymux sessions new api --template duo --agent claude --cwd ~/src/api`,
		Long: `Write sessions/NAME.kitty-session from a template (see ` + "`kittymux sessions templates`" + `) with the
directory (default: the current one) and the agent (one of the installed agent CLIs) filled in,
and open it: inside kitty through goto_session (kitty 0.43 or newer), else in a new kitty. On a
terminal, a missing template, agent or directory is asked; without one, a missing --template or
--agent is an error listing the choices. An existing session is replaced only with --force.

Exit codes: 0 opened, 1 error, 2 bad usage or cancelled.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = args[0]
			if err := published.CheckName(o.Name); err != nil {
				return &factory.FlagError{Err: err}
			}
			o.Interactive = o.IO.CanAsk()
			if runF != nil {
				return runF(o)
			}
			return New(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Template, "template", "", "the template (`kittymux sessions templates`)")
	cmd.Flags().StringVar(&o.Agent, "agent", "", "the agent the template runs (an installed agent CLI)")
	cmd.Flags().StringVar(&o.Cwd, "cwd", "", "the session's directory (default: the current one)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace an existing session of that name")
	cmd.ValidArgsFunction = cobra.NoFileCompletions
	_ = cmd.RegisterFlagCompletionFunc("template", completeTemplateNames(o.Paths))
	_ = cmd.RegisterFlagCompletionFunc("agent", factory.CompleteAgents(o.Agents, o.LookPath, false))
	_ = cmd.MarkFlagDirname("cwd")
	return cmd
}

// New runs `sessions new`.
func New(ctx context.Context, o *NewOptions) error {
	ts, err := sessiontemplate.List(o.Paths)
	if err != nil {
		return err
	}
	set, err := o.Agents()
	if err != nil {
		return err
	}
	installed := set.Installed(o.LookPath)
	names := agents.InstalledNames(installed)
	// What was given is checked before anything is asked.
	if o.Template != "" {
		if _, err := sessiontemplate.Find(ts, o.Template); err != nil {
			return &factory.FlagError{Err: err}
		}
	}
	if o.Agent != "" {
		if err := set.CheckInstalled(installed, o.Agent); err != nil {
			return &factory.FlagError{Err: err}
		}
	}
	if !o.Force {
		if _, err := os.Lstat(o.Paths.Session(o.Name)); err == nil {
			return &factory.FlagError{Err: fmt.Errorf("session %s exists (%s): pick another name, or --force to replace it", o.Name, o.Paths.Session(o.Name))}
		}
	}
	c := sessiontemplate.Choices{Template: o.Template, Agent: o.Agent, Cwd: o.Cwd}
	if o.Interactive {
		wd, _ := os.Getwd()
		if err := o.Ask(o.IO.In, o.IO.Out, &c, ts, names, wd); err != nil {
			if errors.Is(err, sessiontemplate.ErrCancelled) {
				return factory.ErrCancel
			}
			return err
		}
	}
	if err := sessiontemplate.Missing(c, ts, names); err != nil {
		return &factory.FlagError{Err: err}
	}
	t, _ := sessiontemplate.Find(ts, c.Template)
	if c.Cwd == "" {
		if c.Cwd, err = os.Getwd(); err != nil {
			return err
		}
	}
	if c.Cwd, err = filepath.Abs(c.Cwd); err != nil {
		return err
	}
	if fi, err := os.Stat(c.Cwd); err != nil || !fi.IsDir() {
		return &factory.FlagError{Err: fmt.Errorf("--cwd %s is not a directory", c.Cwd)}
	}
	v := sessiontemplate.Values{Name: o.Name, Cwd: c.Cwd}
	if t.NeedsAgent {
		if err := set.CheckInstalled(installed, c.Agent); err != nil {
			return &factory.FlagError{Err: err}
		}
		// The program as typed at a shell: kitty finds it on its PATH.
		v.Agent = filepath.Base(installed[c.Agent])
	}
	data, err := sessiontemplate.Render(t, v)
	if err != nil {
		return err
	}
	path, err := published.Publish(o.Paths, o.Name, data)
	if err != nil {
		return err
	}
	where, err := shared.OpenBasic(ctx, o.Target, o.LookPath, o.StartKitty, path)
	if err != nil {
		return fmt.Errorf("%w (the session is saved as %s)", err, path)
	}
	fmt.Fprintf(o.IO.Out, "made %s from template %s (%s), opened in %s\n", o.Name, t.Name, path, where)
	return nil
}

// completeTemplateNames completes the names of the templates; it reads
// files only, so a completion never waits.
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
