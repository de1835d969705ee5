// Package setup implements `kittymux setup`: kitty.conf's include line,
// kittymux's included file, the quit watcher and the scanner's start.
package setup

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/setup"
)

// Options of `kittymux setup`.
type Options struct {
	F      *factory.Factory
	DryRun bool
	Undo   bool
	// Systemd is the user manager; nil finds systemctl (tests set a fake).
	Systemd setup.Systemd
}

// NewCmdSetup returns `kittymux setup`; runF replaces the run in tests.
func NewCmdSetup(f *factory.Factory, runF func(*Options) error) *cobra.Command {
	o := &Options{F: f}
	cmd := &cobra.Command{
		Use:   "setup [--dry-run] [--undo]",
		Short: "Connect kittymux to kitty: kitty.conf include, quit watcher, scanner start",
		Long: `Add one line to kitty.conf, an include of kittymux's own file, which turns on remote control
on a socket (allow_remote_control socket-only; listen_on only where kitty.conf has none) and
loads kittymux's watcher: on a confirmed quit (kitty 0.46.2 or newer) it saves the layout.
Start the scanner with the session: a systemd user unit where a user systemd runs, otherwise
kitty's watcher starts it when kitty starts.

Every change is listed (lines added with +, removed with -). Running it again changes nothing
that is in place. kitty.conf is written atomically with its mode kept (through a link, the file
it leads to), and a copy of it from before goes beside it (kitty.conf.kittymux-backup).
--undo removes exactly what setup added: kitty.conf gets back its original bytes.

Exit codes: 0 done (or nothing to do), 1 error, 2 bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Run(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "list the changes and write nothing")
	cmd.Flags().BoolVar(&o.Undo, "undo", false, "remove what setup added")
	return cmd
}

// Env is where setup looks and writes, from the factory.
func Env(f *factory.Factory, sd setup.Systemd) (setup.Env, error) {
	exe, err := filepath.Abs(f.Executable)
	if f.Executable == "" || err != nil {
		return setup.Env{}, fmt.Errorf("kittymux cannot tell its own path (%q)", f.Executable)
	}
	if sd == nil {
		sd = setup.FindSystemd()
	}
	return setup.Env{Paths: f.Paths, KittyConfDir: kitty.ConfigDir(f.Getenv), Home: f.Getenv("HOME"),
		Getenv: f.Getenv, Executable: exe, Systemd: sd}, nil
}

// Run runs `kittymux setup`.
func Run(ctx context.Context, o *Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	e, err := Env(o.F, o.Systemd)
	if err != nil {
		return err
	}
	plan := setup.PlanSetup
	what := "setup"
	if o.Undo {
		plan, what = setup.PlanUndo, "setup --undo"
	}
	p, err := plan(ctx, e)
	if err != nil {
		return err
	}
	out := o.F.IO.Out
	switch {
	case p.Empty():
		fmt.Fprintf(out, "kittymux %s: nothing to change\n", what)
	case o.DryRun:
		fmt.Fprintf(out, "kittymux %s would make these changes (dry run: nothing is written):\n", what)
	default:
		fmt.Fprintf(out, "kittymux %s:\n", what)
	}
	p.Print(out)
	if o.DryRun || p.Empty() {
		return nil
	}
	if err := p.Apply(ctx, e); err != nil {
		return fmt.Errorf("%s: %w (the changes listed before it were made)", what, err)
	}
	if o.Undo {
		fmt.Fprintln(out, "done: restart kitty so it drops kittymux's settings")
	} else {
		// A reload loads the watcher, but kitty opens its socket only when it starts.
		fmt.Fprintln(out, "done: restart kitty so it opens its socket and loads the watcher; `kittymux doctor` checks each part")
	}
	return nil
}
