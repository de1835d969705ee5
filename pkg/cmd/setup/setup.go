// Package setup implements `kittymux setup`: kitty.conf's include line,
// kittymux's included file, the quit watcher and the scanner's start.
package setup

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	integrationcmd "github.com/kittymux/kittymux/pkg/cmd/integration"
	"github.com/kittymux/kittymux/pkg/hookinstall"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/setup"
	"github.com/kittymux/kittymux/pkg/tui"
)

// Options of `kittymux setup`.
type Options struct {
	IO         *factory.IOStreams
	Paths      paths.Paths
	Getenv     func(string) string
	Executable string
	LookPath   func(string) (string, error)
	// Programs are the kitties running, socket or not (nil: none looked
	// for).
	Programs func(context.Context) []kitty.Instance

	DryRun bool
	Undo   bool
	// Remote sets up a host reached over ssh: the agents' hooks and the
	// state directory, no kitty (remote.go).
	Remote bool
	// Systemd is the user manager; nil finds systemctl (tests set a fake).
	Systemd setup.Systemd
	// Integrations says what to do with the agents' hooks (`kittymux
	// integration`): "ask" (on a terminal; without one, say how), "yes", "no".
	Integrations string
	// Confirm asks a yes/no question on the terminal; nil: asked on the terminal (tui).
	Confirm func(question string) (bool, error)

	// asking is the terminal's questions of this run, one session so that
	// a key typed ahead answers the next question (terminal()).
	asking *tui.Session
}

// terminal is where setup's questions are asked.
func (o *Options) terminal() *tui.Session {
	if o.asking == nil {
		o.asking = tui.NewSession(o.IO.In, o.IO.Out)
	}
	return o.asking
}

// From fills o with what setup takes from f.
func (o Options) From(f *factory.Factory) *Options {
	o.IO, o.Paths, o.Getenv, o.Executable, o.LookPath, o.Programs = f.IO, f.Paths, f.Getenv, f.Executable, f.LookPath, f.Programs
	return &o
}

// NewCmdSetup returns `kittymux setup`; runF replaces the run in tests.
func NewCmdSetup(f *factory.Factory, runF func(*Options) error) *cobra.Command {
	o := Options{}.From(f)
	cmd := &cobra.Command{
		Use:   "setup [--dry-run] [--undo]",
		Short: "Connect kittymux to kitty: kitty.conf include, quit watcher, scanner start",
		Example: `  kittymux setup --dry-run
  kittymux setup
  kittymux setup --integrations no
  kittymux setup --undo
  kittymux setup --remote     # on a machine reached with kitten ssh or ssh`,
		Long: `Add one line to kitty.conf, an include of kittymux's own file, which turns on remote control
on a socket (allow_remote_control socket-only; listen_on only where kitty.conf has none) and
loads kittymux's watcher: on a confirmed quit (kitty 0.46.2 or newer) it saves the layout.
Start the scanner with the session: a systemd user unit where a user systemd runs, otherwise
kitty's watcher starts it when kitty starts.

Every change is listed (lines added with +, removed with -). Running it again changes nothing
that is in place. kitty.conf is written atomically with its mode kept (through a link, the file
it leads to), and a copy of it from before goes beside it (kitty.conf.kittymux-backup; one
there already is never replaced: a later setup's copy is kitty.conf.kittymux-backup.2, ...).
--undo removes exactly what setup added: kitty.conf gets back its original bytes.

It names the kitty found (the one it runs in, else the kitties running, else kitty on PATH) and
what works on it: save, autosave and restore need kitty 0.43 or newer, the quit capture 0.46.2;
the rest works on any.

Exit codes: 0 done (or nothing to do), 1 error, 2 bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch o.Integrations {
			case "ask", "yes", "no":
			default:
				return &factory.FlagError{Err: fmt.Errorf("--integrations %q: ask, yes or no", o.Integrations)}
			}
			if runF != nil {
				return runF(o)
			}
			return Run(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "list the changes and write nothing")
	cmd.Flags().BoolVar(&o.Undo, "undo", false, "remove what setup added")
	cmd.Flags().BoolVar(&o.Remote, "remote", false, "set up this machine as a host reached over ssh: the agents' hooks and the journal, no kitty")
	cmd.Flags().StringVar(&o.Integrations, "integrations", "ask",
		"the agents' hooks (kittymux integration): ask, yes or no; with --undo, whether to remove them")
	return cmd
}

// Env is where setup looks and writes.
func Env(o *Options) (setup.Env, error) {
	exe, err := filepath.Abs(o.Executable)
	if o.Executable == "" || err != nil {
		return setup.Env{}, fmt.Errorf("kittymux cannot tell its own path (%q)", o.Executable)
	}
	sd := o.Systemd
	if sd == nil {
		sd = setup.FindSystemd()
	}
	return setup.Env{Paths: o.Paths, KittyConfDir: kitty.ConfigDir(o.Getenv), Home: o.Getenv("HOME"),
		Getenv: o.Getenv, Executable: exe, Systemd: sd}, nil
}

// Run runs `kittymux setup`.
func Run(ctx context.Context, o *Options) error {
	if o.Remote {
		return runRemote(o)
	}
	e, err := Env(o)
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
	out := o.IO.Out
	switch {
	case p.Empty():
		fmt.Fprintf(out, "kittymux %s: nothing to change\n", what)
	case o.DryRun:
		fmt.Fprintf(out, "kittymux %s would make these changes (dry run: nothing is written):\n", what)
	default:
		fmt.Fprintf(out, "kittymux %s:\n", what)
	}
	p.Print(out)
	if !o.Undo {
		fmt.Fprintln(out, kittyNote(ctx, o))
	}
	if !o.Undo && (o.DryRun || p.Empty()) {
		fmt.Fprintln(out, offerNote(o.Paths, o.Getenv))
	}
	if !o.DryRun && !p.Empty() {
		if err := p.Apply(ctx, e); err != nil {
			return fmt.Errorf("%s: %w (the changes listed before it were made)", what, err)
		}
	}
	if err := hooks(o); err != nil {
		return err
	}
	if err := screenHistory(o); err != nil {
		return err
	}
	if o.DryRun || p.Empty() {
		return nil
	}
	if o.Undo {
		fmt.Fprintln(out, "done: restart kitty so it drops kittymux's settings")
	} else {
		// A reload loads the watcher, but kitty opens its socket only when it starts.
		fmt.Fprintln(out, "done: restart kitty so it opens its socket and loads the watcher; `kittymux doctor` checks each part")
		fmt.Fprintln(out, offerNote(o.Paths, o.Getenv))
	}
	return nil
}

// kittyNote says which kitty setup sets kittymux up for and what works on
// it: the kitty it runs in (KITTY_INSTALLATION_DIR, which kitty gives its
// windows), else the kitties running (a line for each program), else kitty
// on PATH, which may be another kitty than the one people run.
func kittyNote(ctx context.Context, o *Options) string {
	if v, ok := kitty.VersionOfInstall(o.Getenv("KITTY_INSTALLATION_DIR")); ok {
		return fmt.Sprintf("kitty      %s (the kitty this runs in): %s", v, v.WhatWorks())
	}
	if o.Programs != nil {
		var lines []string
		seen := map[string]bool{}
		for _, in := range o.Programs(ctx) {
			if in.Utility != "" || in.Version.IsZero() || seen[in.Exe] {
				continue
			}
			seen[in.Exe] = true
			lines = append(lines, fmt.Sprintf("kitty      %s (running: %s): %s", in.Version, kitty.Printable(in.Exe), in.Version.WhatWorks()))
		}
		if len(lines) > 0 {
			return strings.Join(lines, "\n")
		}
	}
	if o.LookPath != nil {
		if exe, err := o.LookPath("kitty"); err == nil {
			if v, err := kitty.VersionOfExe(ctx, exe); err == nil {
				return fmt.Sprintf("kitty      %s (%s): %s", v, kitty.Printable(exe), v.WhatWorks())
			}
			return fmt.Sprintf("kitty      %s: version unknown; %s", kitty.Printable(exe), kitty.Version{}.WhatWorks())
		}
	}
	return "kitty      not found on PATH; " + kitty.Version{}.WhatWorks()
}

// hooks offers the agents' hooks, which give exact conversation ids and
// working state (`kittymux integration install`): on a terminal it asks,
// otherwise --integrations=yes installs them and anything else says how.
// With --undo it offers to remove those that are there.
func hooks(o *Options) error {
	env := integrationcmd.Env(o.Getenv, o.Executable)
	if env.Home == "" {
		return nil
	}
	candidates := hookinstall.Agents()
	if !o.Undo {
		candidates = hookinstall.Detect(env, o.LookPath)
	}
	var names []string
	for _, a := range candidates {
		st := hookinstall.StatusOf(a, env)
		if o.Undo && st.State != hookinstall.Missing || !o.Undo && st.State != hookinstall.Installed {
			names = append(names, a.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	out := o.IO.Out
	verb, flag := "install kittymux's hooks in", "kittymux integration install"
	if o.Undo {
		verb, flag = "remove kittymux's hooks from", "kittymux integration uninstall"
	}
	question := fmt.Sprintf("%s the settings of %s?", verb, strings.Join(names, ", "))
	switch {
	case o.DryRun:
		fmt.Fprintf(out, "agents     would ask: %s\n", question)
		return nil
	case o.Integrations == "no":
		return nil
	case o.Integrations == "ask" && !o.IO.CanAsk() && o.Confirm == nil:
		fmt.Fprintf(out, "agents     not asked (no terminal): `kittymux setup --integrations=yes` or `%s` would %s the settings of %s\n",
			flag, strings.Fields(verb)[0], strings.Join(names, ", "))
		return nil
	case o.Integrations == "ask":
		confirm := o.Confirm
		if confirm == nil {
			confirm = func(q string) (bool, error) {
				return o.terminal().Confirm(q, "Hooks report each conversation's exact id and whether the agent is working.")
			}
		}
		yes, err := confirm(question)
		if errors.Is(err, tui.ErrCancelled) || err == nil && !yes {
			return nil
		}
		if err != nil {
			return err
		}
	}
	iopts := &integrationcmd.Options{IO: o.IO, Paths: o.Paths, Getenv: o.Getenv, Executable: o.Executable, LookPath: o.LookPath,
		Action: "install"}
	if o.Undo {
		iopts.Action = "uninstall"
	}
	iopts.Agents = names
	return integrationcmd.Run(iopts)
}

// offerNote says whether a kitty that starts is offered the session of a
// kitty that ended, and how to turn that off.
func offerNote(p paths.Paths, getenv func(string) string) string {
	if why := offer.OfferOff(p, getenv); why != "" {
		return "offer: off (" + why + "): a kitty that starts offers no ended session; `kittymux sessions restore last` still restores it"
	}
	return "offer: on: a kitty that starts offers, once, the session of a kitty that ended without being restored (" +
		offer.EnvOffer + "=0 or {\"offer\": {\"on_start\": false}} in config.json turn it off)"
}
