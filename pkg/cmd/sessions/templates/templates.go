// Package templates implements `kittymux sessions templates`: the templates
// `sessions new` makes a session from.
package templates

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessiontemplate"
)

// TemplatesOptions of `sessions templates`.
type TemplatesOptions struct {
	IO    *factory.IOStreams
	Paths paths.Paths

	JSON bool
}

// From fills o with what `sessions templates` takes from f.
func (o TemplatesOptions) From(f *factory.Factory) *TemplatesOptions {
	o.IO, o.Paths = f.IO, f.Paths
	return &o
}

// NewCmdTemplates returns `sessions templates`.
func NewCmdTemplates(f *factory.Factory, runF func(*TemplatesOptions) error) *cobra.Command {
	o := TemplatesOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "templates [--json]",
		Short: "The templates of `sessions new`, each with where it comes from",
		Example: `  kittymux sessions templates
  kittymux sessions templates --json | jq -r '.templates[].name'`,
		Long: `List the templates ` + "`sessions new`" + ` can make a session from: the shipped ones (plain, agent,
duo, review) and your own, $XDG_CONFIG_HOME/kittymux/templates/NAME.kitty-session, which wins
over a shipped template of the same name. A template is a kitty session file where {name},
{cwd} and {agent} are filled in.

Exit codes: 0 listed, 1 error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Templates(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the templates as JSON")
	return cmd
}

// Templates runs `sessions templates`.
func Templates(o *TemplatesOptions) error {
	ts, err := sessiontemplate.List(o.Paths)
	if err != nil {
		return err
	}
	if o.JSON {
		if ts == nil {
			ts = []sessiontemplate.Template{}
		}
		return factory.PrintJSON(o.IO.Out, map[string]any{"templates": ts})
	}
	w := o.IO.Out
	var tw *tabwriter.Writer
	if o.IO.IsTTY {
		tw = tabwriter.NewWriter(o.IO.Out, 0, 0, 2, ' ', 0)
		w = tw
		fmt.Fprintln(w, "NAME\tSOURCE\tAGENT\tABOUT")
	}
	for _, t := range ts {
		src := t.Source
		if t.Overrides {
			src += " (overrides the shipped one)"
		}
		agent := "-"
		if t.NeedsAgent {
			agent = "yes"
		}
		fmt.Fprintln(w, strings.Join([]string{t.Name, src, agent, t.About}, "\t"))
	}
	if tw != nil {
		return tw.Flush()
	}
	return nil
}
