// Package recover implements `kittymux sessions recover`: a session rebuilt
// from the journal, a tab per conversation no kitty runs now.
package recover

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/recovery"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// DefaultName is the session `recover` writes when no --name is given.
const DefaultName = "recovered"

// Recovery is what rebuilding conversations from the journal takes: the
// kitties running, the agent definitions and their probes, the restore
// prompt binary and the seal key, and a kitty to open the result in.
type Recovery struct {
	IO       *factory.IOStreams
	Paths    paths.Paths
	LookPath func(string) (string, error)
	Discover func(context.Context) ([]kitty.Instance, error)
	shared.Target
	Agents    func() (*agents.Set, error)
	Probes    func(ctx context.Context, set *agents.Set, names []string) probe.Probes
	ResumeBin func() (string, error)
	SealKey   func() ([]byte, error)
}

// RecoveryFrom is the Recovery of f.
func RecoveryFrom(f *factory.Factory) Recovery {
	return Recovery{IO: f.IO, Paths: f.Paths, LookPath: f.LookPath, Discover: f.Discover, Target: shared.TargetFrom(f),
		Agents: f.Agents, Probes: f.Probes, ResumeBin: f.ResumeBin, SealKey: f.SealKey}
}

// RecoverOptions of `sessions recover`.
type RecoverOptions struct {
	Recovery

	Since  time.Duration
	DryRun bool
	Name   string
	Closed bool
	JSON   bool
	Clock  clock.Clock // nil: the system's
	// StartKitty starts a new kitty on a session file; tests replace it.
	StartKitty func(kittyPath, session string) error
}

// From fills o with what `sessions recover` takes from f.
func (o RecoverOptions) From(f *factory.Factory) *RecoverOptions {
	o.Recovery = RecoveryFrom(f)
	return &o
}

// NewCmdRecover returns `sessions recover`.
func NewCmdRecover(f *factory.Factory, runF func(*RecoverOptions) error) *cobra.Command {
	o := RecoverOptions{StartKitty: kitty.StartSession}.From(f)
	var since string
	cmd := &cobra.Command{
		Use:   "recover [--since 6h] [--dry-run] [--name N] [--closed]",
		Short: "A session with a tab per recently active conversation that is no longer running",
		Example: `  kittymux sessions recover --dry-run
  kittymux sessions recover --since 24h --closed`,
		Long: `Rebuild work from the journal when no save is recent enough (kitty older than 0.43 cannot
save): a session with a tab per conversation active within --since that no kitty runs now, named
after its tab or directory. Each tab runs the restore prompt for its conversation, decided by the
same rules as a save (exact where the id is known, latest only where it is safe, never one
conversation twice). Conversations whose kitty went away come back; windows closed by hand (or
agents that exited) only with --closed. An agent that ran on a host reached over ssh (reported by
kittymux there) comes back as a tab running its ssh command as seen, asking the host to resume it.

The file (sessions/NAME.kitty-session, default NAME: ` + DefaultName + `) uses only directives kitty
0.26.5 loads. It opens inside kitty through goto_session (kitty 0.43 or newer), else in a new kitty.
--dry-run prints the file and writes nothing.

Exit codes: 0 recovered, or nothing to recover; 1 error; 2 bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := journal.ParseAge(since)
			if err != nil {
				return &factory.FlagError{Err: fmt.Errorf("--since: %w", err)}
			}
			o.Since = d
			if err := published.CheckName(o.Name); err != nil {
				return &factory.FlagError{Err: fmt.Errorf("--name: %w", err)}
			}
			if runF != nil {
				return runF(o)
			}
			return Recover(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&since, "since", "6h", "conversations last active within this: 90m, 6h, 7d")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "print the session file; write and open nothing")
	cmd.Flags().StringVar(&o.Name, "name", DefaultName, "the session's name")
	cmd.Flags().BoolVar(&o.Closed, "closed", false, "also recover conversations whose window was closed by hand")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print what was recovered as JSON")
	_ = cmd.RegisterFlagCompletionFunc("name", shared.CompleteSessionNames(o.Paths))
	return cmd
}

// RecoverResult is what `recover --json` prints.
type RecoverResult struct {
	Name    string             `json:"name"`
	Path    string             `json:"path,omitempty"`
	Opened  string             `json:"opened,omitempty"`
	DryRun  bool               `json:"dry_run"`
	Tabs    []recovery.Tab     `json:"tabs"`
	Skipped []recovery.Skipped `json:"skipped"`
	Session string             `json:"session,omitempty"`
}

// Recover runs `sessions recover`.
func Recover(ctx context.Context, o *RecoverOptions) error {
	plan, err := o.Plan(ctx, recovery.Options{Clock: o.Clock, Since: o.Since, Closed: o.Closed}, true, o.key)
	if err != nil {
		return err
	}
	res := RecoverResult{Name: o.Name, DryRun: o.DryRun, Tabs: plan.Tabs, Skipped: plan.Skipped, Session: string(plan.Data)}
	switch {
	case len(plan.Tabs) == 0:
	case o.DryRun:
	default:
		if res.Path, err = published.Publish(o.Paths, o.Name, plan.Data); err != nil {
			return err
		}
		if res.Opened, err = shared.OpenBasic(ctx, o.Target, o.LookPath, o.StartKitty, res.Path); err != nil {
			return fmt.Errorf("%w (the session is saved as %s: `kittymux sessions restore %s` on kitty 0.43 or newer, or kitty --session %s)",
				err, res.Path, o.Name, res.Path)
		}
	}
	if o.JSON {
		return factory.PrintJSON(o.IO.Out, res)
	}
	printRecovered(o.IO.Out, o.IO.ErrOut, o, res)
	return nil
}

// key is the key that seals the records. A dry run writes nothing, not
// even a first key: it seals them only when the key is there.
func (o *RecoverOptions) key() ([]byte, error) {
	if !o.DryRun {
		return o.SealKey()
	}
	key, err := resumerecord.ReadKey(o.Paths.ResumeKey())
	if err != nil {
		fmt.Fprintf(o.IO.ErrOut, "kittymux: the records below are not sealed (%v); a real recover seals them\n", err)
		return nil, nil
	}
	return key, nil
}

// Plan builds the recovery opt asks for from the journal, the agent
// definitions and the kitties running now (recovery.BuildFrom).
func (r Recovery) Plan(ctx context.Context, opt recovery.Options, lost bool, key func() ([]byte, error)) (*recovery.Plan, error) {
	src := recovery.Sources{Paths: r.Paths, Getenv: r.Getenv, Agents: r.Agents, Probes: r.Probes, ResumeBin: r.ResumeBin,
		Discover: r.Discover, AskTimeout: r.AskTimeout}
	return recovery.BuildFrom(ctx, src, opt, lost, key)
}

// printRecovered: on a dry run stdout holds only the file, the summary goes
// to stderr.
func printRecovered(out, errOut io.Writer, o *RecoverOptions, r RecoverResult) {
	w := out
	if o.DryRun {
		io.WriteString(out, r.Session)
		w = errOut
	}
	now := clock.Or(o.Clock).Now()
	switch {
	case len(r.Tabs) == 0:
		fmt.Fprintf(w, "nothing to recover: no conversation active in the last %s is missing from the running kitties\n", history.Duration(o.Since))
	case o.DryRun:
		fmt.Fprintf(w, "would recover %d conversation(s) as %s:\n", len(r.Tabs), r.Name)
	default:
		fmt.Fprintf(w, "recovered %d conversation(s) as %s (%s), opened in %s:\n", len(r.Tabs), r.Name, r.Path, r.Opened)
	}
	for _, t := range r.Tabs {
		// Titles, directories and argv came from kitty's windows.
		agent, dir := t.Agent, t.Dir
		if t.Host != "" {
			agent, dir = t.Agent+" on "+t.Host, t.Dir+" on "+t.Host
		}
		fmt.Fprintf(w, "  tab %q  %-8s %-6s %s\n      %s · last active %s · %s\n", kitty.Printable(t.Title), kitty.Printable(agent),
			t.Mode, kitty.Printable(recognize.Quote(t.Argv)), kitty.Printable(dir), history.Ago(now, t.LastActive), kitty.Printable(t.Reason))
	}
	for _, s := range r.Skipped {
		id := ids.Short(s.ID)
		if id == "" {
			id = "(no id)"
		}
		agent := s.Agent
		if s.Host != "" {
			agent += " on " + s.Host
		}
		fmt.Fprintf(w, "  not recovered: %s %s in %s: %s\n", kitty.Printable(agent), kitty.Printable(id), kitty.Printable(s.Dir), kitty.Printable(s.Why))
	}
}
