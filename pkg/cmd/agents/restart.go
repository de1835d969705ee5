package agents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/restart"
	"github.com/kittymux/kittymux/pkg/stagger"
	"github.com/kittymux/kittymux/pkg/tui"
)

// RestartOptions of `agents restart`.
type RestartOptions struct {
	IO         *factory.IOStreams
	Paths      paths.Paths
	Getenv     func(string) string
	Executable string
	Kitties    func(context.Context) ([]kitty.Instance, error)
	Agents     func() (*agents.Set, error)
	Probes     func(ctx context.Context, set *agents.Set, names []string) probe.Probes
	ResumeBin  func() (string, error)
	SealKey    func() ([]byte, error)

	Agent  string
	Match  string
	All    bool
	DryRun bool
	Yes    bool
	JSON   bool
	// Confirm asks the question; nil asks on the terminal (and
	// no question without one).
	Confirm func(question, detail string) (bool, error)
	// Runner, when set, is adjusted before the run (tests: shorter bounds).
	Runner func(*restart.Runner)
	// Start reads a process's start as the agents are seen; nil is
	// procid.Start (tests: a process that is not the one seen).
	Start func(pid int) string
}

// From fills o with what `agents restart` takes from f.
func (o RestartOptions) From(f *factory.Factory) *RestartOptions {
	o.IO, o.Paths, o.Getenv, o.Executable, o.Kitties = f.IO, f.Paths, f.Getenv, f.Executable, f.Kitties
	o.Agents, o.Probes, o.ResumeBin, o.SealKey = f.Agents, f.Probes, f.ResumeBin, f.SealKey
	return &o
}

// NewCmdRestart returns `agents restart`.
func NewCmdRestart(f *factory.Factory, runF func(*RestartOptions) error) *cobra.Command {
	o := RestartOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "restart [--agent A] [--match EXPR] [--all] [--dry-run] [--yes] [--json]",
		Short: "Restart running agents in place, each back in its own conversation",
		Example: `  kittymux agents restart --dry-run
  kittymux agents restart --agent codex --yes
  kittymux agents restart --match title:api --all`,
		Long: `Restart each agent window whose conversation is known exactly (as ` + "`sessions list`" + ` shows
it): end the agent the way its CLI ends cleanly (` + restart.Endings() + `;
then SIGTERM and SIGKILL if it does not end), then start the restore prompt in the same window,
directory and environment with that conversation, without asking. An agent started from a shell gets
the command typed into that shell; one started directly comes back in an overlay that takes its
window's place, so tabs, splits, sizes and titles stay as they were.

Windows whose agent is working are skipped unless --all; windows without an exact id are listed and
left alone. Restarts run one after another, resume.interval apart (config.json, or
KITTYMUX_RESUME_INTERVAL; default 1s). --match takes kitty's match expressions (id:3, title:api,
cwd:..., kitty 0.30 or newer; older kitty: id:N only).

On a terminal it asks before acting, unless --yes; without one --yes is required.

Exit codes: 0 done (also when nothing matched), 1 a window failed or no kitty reachable, 2 cancelled
or bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Restart(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Agent, "agent", "", "only windows of this agent")
	_ = cmd.RegisterFlagCompletionFunc("agent", factory.CompleteAgents(o.Agents, f.LookPath, true))
	cmd.Flags().StringVar(&o.Match, "match", "", "only windows kitty matches (kitty's match expression)")
	cmd.Flags().BoolVar(&o.All, "all", false, "restart agents that are working too")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "print what would be done, do nothing")
	cmd.Flags().BoolVar(&o.Yes, "yes", false, "do not ask")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the windows as JSON")
	return cmd
}

// Restart runs `agents restart`.
func Restart(ctx context.Context, o *RestartOptions) error {
	if !o.DryRun && !o.Yes && o.Confirm == nil && !o.IO.CanAsk() {
		return &factory.FlagError{Err: errors.New("agents restart ends running agents: without a terminal to ask, pass --yes (or --dry-run)")}
	}
	set, err := o.Agents()
	if err != nil {
		return err
	}
	if o.Agent != "" {
		if _, ok := set.Definition(o.Agent); !ok {
			return &factory.FlagError{Err: fmt.Errorf("--agent %q: no such agent (%s)", o.Agent, strings.Join(set.Names(), ", "))}
		}
	}
	insts, err := o.Kitties(ctx)
	if err != nil {
		return err
	}
	var kitties []restart.Kitty
	for _, in := range insts {
		ls, err := restart.LSMatch(ctx, kitty.NewClient(in.Addr), o.Match)
		if err != nil {
			if len(insts) == 1 {
				return fmt.Errorf("kitty from %s: %w", in.Source, err)
			}
			fmt.Fprintf(o.IO.ErrOut, "kittymux: %s: %s\n", kitty.Printable(in.Socket), kitty.Printable(err.Error()))
			continue
		}
		kitties = append(kitties, restart.Kitty{Instance: in, LS: ls})
	}
	if len(kitties) == 0 {
		return fmt.Errorf("%w (none of %d answered)", factory.ErrNoKitty, len(insts))
	}
	jf, _ := journal.New(o.Paths.Journal(), false).Read()
	ts := restart.Plan(kitties, restart.PlanOptions{Agents: set, Journal: jf, Records: live.Records{Getenv: o.Getenv, StateDir: o.Paths.StateDir},
		Probes: func(names []string) probe.Probes { return o.Probes(ctx, set, names) }, Agent: o.Agent, Working: o.All,
		Start: o.Start})
	r, err := runner(o, set)
	if err != nil {
		return err
	}
	if o.Runner != nil {
		o.Runner(r)
	}
	if !o.DryRun && !o.Yes {
		ok, err := confirm(o, ts)
		if err != nil {
			return err
		}
		if !ok {
			return factory.ErrCancel
		}
	}
	if !o.JSON {
		r.Report = func(res restart.Result) { printResult(o.IO.Out, res) }
	}
	results := r.Run(ctx, ts, o.DryRun)
	if o.JSON {
		if results == nil {
			results = []restart.Result{}
		}
		if err := factory.PrintJSON(o.IO.Out, map[string]any{"windows": results}); err != nil {
			return err
		}
	} else if len(results) == 0 && o.IO.IsTTY {
		fmt.Fprintln(o.IO.Out, "no agent windows")
	}
	for _, res := range results {
		if res.Outcome == restart.Failed {
			return &factory.SilentError{Code: factory.ExitError}
		}
	}
	return nil
}

func runner(o *RestartOptions, set *agents.Set) (*restart.Runner, error) {
	bin, err := o.ResumeBin()
	if err != nil {
		return nil, err
	}
	key, err := o.SealKey()
	if err != nil {
		// Unsealed, the prompt would ask: a restart runs without asking.
		return nil, fmt.Errorf("the restore records cannot be sealed: %w", err)
	}
	interval, err := stagger.Interval(o.Paths, o.Getenv)
	if err != nil {
		fmt.Fprintf(o.IO.ErrOut, "kittymux: warning: %v\n", err)
	}
	self := o.Executable
	if self == "" {
		return nil, errors.New("cannot tell where this kittymux is")
	}
	return &restart.Runner{
		Client:    func(in kitty.Instance) restart.Client { return kitty.NewClient(in.Addr) },
		Procs:     restart.OS{},
		ResumeBin: bin, Self: self, Agents: set, Key: key,
		Interval: interval,
	}, nil
}

func confirm(o *RestartOptions, ts []restart.Target) (bool, error) {
	var lines []string
	n := 0
	for _, t := range ts {
		if t.Skip == "" {
			n++
			lines = append(lines, fmt.Sprintf("window %d  %s  %s", t.Window.ID, t.Agent.Cmd.Agent, kitty.Printable(t.Agent.Cwd)))
		}
	}
	if n == 0 {
		return true, nil // nothing to do but list the skipped
	}
	q := fmt.Sprintf("Restart %d agent window(s)?", n)
	ask := o.Confirm
	if ask == nil {
		// With --json the question goes to stderr, leaving stdout to JSON.
		w := o.IO.Out
		if o.JSON {
			w = o.IO.ErrOut
		}
		ask = func(q, detail string) (bool, error) {
			yes, err := tui.Confirm(o.IO.In, w, q, detail)
			if errors.Is(err, tui.ErrCancelled) {
				return false, nil
			}
			return yes, err
		}
	}
	return ask(q, strings.Join(lines, "\n"))
}

// printResult prints one window's line. Titles, directories and reasons
// hold text from kitty's windows: printed through Printable.
func printResult(w io.Writer, r restart.Result) {
	p := kitty.Printable
	head := fmt.Sprintf("%-13s window %d  %s", r.Outcome, r.WindowID, p(r.Agent))
	switch r.Outcome {
	case restart.Restarted:
		where := ""
		if r.NewWindowID != 0 {
			where = " (now window " + strconv.Itoa(r.NewWindowID) + ")"
		}
		fmt.Fprintf(w, "%s  pid %d → %d%s, same conversation %s: %s\n", head, r.OldPID, r.NewPID, where, p(r.ID), p(r.How))
	case restart.WouldRestart:
		fmt.Fprintf(w, "%s  pid %d, conversation %s: %s\n%15s%s\n", head, r.OldPID, p(r.ID), p(r.How), "", p(r.Command))
	case restart.Failed:
		fmt.Fprintf(w, "%s  %s: %s\n", head, p(r.Cwd), p(r.Why))
		if r.How != "" && r.Command != "" {
			// The agent has ended: say how to get its conversation back.
			fmt.Fprintf(w, "%15sto resume it by hand, in %s: %s\n", "", p(r.Cwd), p(r.Command))
		}
	default:
		fmt.Fprintf(w, "%s  %s: %s\n", head, p(r.Cwd), p(r.Why))
	}
}
