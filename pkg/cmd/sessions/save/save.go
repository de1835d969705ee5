// Package save implements `kittymux sessions save`.
package save

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/screenhist"
)

// DefaultName is the session `save` writes when no name is given.
const DefaultName = "default"

// SaveOptions of `sessions save`.
type SaveOptions struct {
	IO    *factory.IOStreams
	Paths paths.Paths
	shared.Target
	Agents    func() (*agents.Set, error)
	Probes    func(ctx context.Context, set *agents.Set, names []string) probe.Probes
	ResumeBin func() (string, error)

	Name   string
	All    bool
	Direct bool
	JSON   bool
}

// From fills o with what `sessions save` takes from f.
func (o SaveOptions) From(f *factory.Factory) *SaveOptions {
	o.IO, o.Paths, o.Target = f.IO, f.Paths, shared.TargetFrom(f)
	o.Agents, o.Probes, o.ResumeBin = f.Agents, f.Probes, f.ResumeBin
	return &o
}

// NewCmdSave returns `sessions save`.
func NewCmdSave(f *factory.Factory, runF func(*SaveOptions) error) *cobra.Command {
	o := SaveOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "save [NAME]",
		Short: "Save the focused OS window (--all: every one) with each agent's resume command",
		Example: `  kittymux sessions save
  kittymux sessions save work --all
  kittymux sessions save demo --direct`,
		Long: `Mark each agent window, ask kitty to save_as_session to a temporary file, rewrite each agent
window's command into the restore prompt with its exact resume argv, and publish the result
atomically as sessions/NAME.kitty-session (default NAME: ` + DefaultName + `). Needs kitty 0.43 or newer.
A failed or empty save never replaces a good one.

Exit codes: 0 saved, 1 error (nothing written), 2 bad usage.`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: shared.CompleteSessionNames(o.Paths),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = DefaultName
			if len(args) == 1 {
				o.Name = args[0]
			}
			if err := published.CheckName(o.Name); err != nil {
				return &factory.FlagError{Err: err}
			}
			if runF != nil {
				return runF(o)
			}
			return Save(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "save every OS window, not only the focused one")
	cmd.Flags().BoolVar(&o.Direct, "direct", false, "restored windows resume without asking")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print what was saved as JSON")
	return cmd
}

// Save runs `sessions save`.
func Save(ctx context.Context, o *SaveOptions) error {
	in, err := o.OneKitty(ctx)
	if err != nil {
		return err
	}
	if err := shared.NeedVersion(in, "sessions save (kitty's save_as_session)", kitty.VersionSaveAsSession); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	set, err := o.Agents()
	if err != nil {
		return err
	}
	bin, err := o.ResumeBin()
	if err != nil {
		return err
	}
	hist, histErr := screenhist.Load(o.Paths, o.Getenv)
	if histErr != nil {
		fmt.Fprintf(o.IO.ErrOut, "kittymux: warning: screen history: %v\n", histErr)
	}
	path, res, err := save.Save(ctx, save.Options{Kitty: kitty.NewClient(in.Addr), Instance: in, Agents: set, Paths: o.Paths,
		ResumeBin: bin, Name: o.Name, All: o.All, Direct: o.Direct, Getenv: o.Getenv, ScreenHistory: hist,
		Check: func(names []string) probe.Probes { return o.Probes(ctx, set, names) }})
	if err != nil {
		return err
	}
	shared.PrintWarnings(o.IO.ErrOut, res.Warnings)
	return shared.PrintSaved(o.IO.Out, o.JSON, shared.SaveResult{Name: o.Name, Path: path, Kitty: in.Socket, Windows: res.Windows,
		Warnings: res.Warnings, ScreenHistory: res.History})
}
