// Package scanner implements `kittymux scanner run | poll --once | status`.
package scanner

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/background"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// NewCmdScanner returns `kittymux scanner`.
func NewCmdScanner(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scanner",
		Short: "The background scanner: every agent session recorded in the journal as it runs",
		Example: `  kittymux scanner status
  kittymux scanner poll --once`,
		Long: `The scanner polls every kitty of the user about every 2 s, recognises the agent windows, reads
each agent's conversation id where the agent's own records give it, and records each agent
session in agent-sessions.json (off: KITTYMUX_JOURNAL=0 or the file journal-off). On kitty 0.43
or newer it also saves each kitty's layout once it changed and settled (autosave; off:
KITTYMUX_AUTOSAVE=0 or the file autosave-off).`,
	}
	cmd.AddCommand(NewCmdRun(f, nil), NewCmdPoll(f, nil), NewCmdStatus(f, nil))
	return cmd
}

// RunOptions of `scanner run`.
type RunOptions struct {
	IO *factory.IOStreams
	// Options are the daemon's: its Logf is set by Run.
	background.Options

	Interval time.Duration
	Rescan   time.Duration
	// Signals stop the scanner: nil is SIGTERM and SIGINT, an empty list
	// none. Signals reach the whole process, so tests that run scanners side
	// by side in one process stop each by its context, never by a signal.
	Signals []os.Signal
}

// From fills o with what `scanner run` takes from f.
func (o RunOptions) From(f *factory.Factory) *RunOptions {
	o.IO, o.Options = f.IO, daemonOptions(f)
	return &o
}

// daemonOptions are the daemon's options from f.
func daemonOptions(f *factory.Factory) background.Options {
	return background.Options{Paths: f.Paths, Getenv: f.Getenv, LookPath: f.LookPath, Executable: f.Executable, Discover: f.Discover}
}

// NewCmdRun returns `scanner run`.
func NewCmdRun(f *factory.Factory, runF func(*RunOptions) error) *cobra.Command {
	o := RunOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the scanner until SIGTERM or SIGINT (one per user)",
		Example: `  kittymux scanner run
  kittymux scanner run --interval 2s`,
		Long: `Run the scanner in the foreground until SIGTERM or SIGINT, which stop it with the journal
written. Only one scanner runs per user: a second one says so and exits 0, unless the one
running is of an older kittymux that cannot write the journal (after an upgrade): that one
is stopped, and this one runs in its place.

Exit codes: 0 stopped cleanly or another scanner runs, 1 error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.OwnKitties = true
			if runF != nil {
				return runF(o)
			}
			return Run(cmd.Context(), o)
		},
	}
	cmd.Flags().DurationVar(&o.Interval, "interval", scanner.DefaultInterval, "time between polls")
	cmd.Flags().DurationVar(&o.Rescan, "rescan", scanner.DefaultRescan, "time between full rediscoveries of kitty (socket directories are watched besides)")
	return cmd
}

// Run runs the scanner until a signal or ctx ends it.
func Run(ctx context.Context, o *RunOptions) error {
	if err := statefile.EnsureState(o.Paths); err != nil {
		return err
	}
	lock, err := scanner.Lock(ctx, o.Paths.StateDir)
	if errors.Is(err, scanner.ErrRunning) {
		lock, err = takeOver(ctx, o)
	}
	if errors.Is(err, scanner.ErrRunning) {
		st := scanner.Current(o.Paths.StateDir)
		msg := "a kittymux scanner is already running"
		if st.Status != nil && st.Status.Stopped == nil {
			msg += fmt.Sprintf(" (pid %d, since %s)", st.Status.PID, st.Status.Started.Local().Format(time.DateTime))
		}
		fmt.Fprintln(o.IO.ErrOut, msg+"; not starting another")
		return nil
	}
	if err != nil {
		return err
	}
	defer lock.Unlock()

	sigs := o.Signals
	if sigs == nil {
		sigs = []os.Signal{syscall.SIGTERM, syscall.SIGINT}
	}
	if len(sigs) > 0 {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, sigs...)
		defer stop()
	}
	d := o.Options
	d.Logf = func(format string, args ...any) {
		fmt.Fprintf(o.IO.ErrOut, "%s kittymux scanner: %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, args...))
	}
	return background.Run(ctx, d, o.Interval, o.Rescan)
}

// takeOver stops the running scanner when it is of an older kittymux that
// cannot write the journal this one can (it says the journal was written
// by a newer kittymux: after an upgrade changed the journal's version, a
// scanner started before it records nothing until it is restarted), and
// takes the lock once it has gone. Else, or when it does not go in
// takeOverWait, ErrRunning.
func takeOver(ctx context.Context, o *RunOptions) (*scanner.Held, error) {
	st := scanner.Current(o.Paths.StateDir)
	s := st.Status
	if !st.Running || s == nil || s.Stopped != nil || s.PID <= 1 || s.PID == os.Getpid() ||
		!strings.Contains(s.JournalError, journal.ErrNewer.Error()) {
		return nil, scanner.ErrRunning
	}
	if _, err := journal.New(o.Paths.Journal(), false).Read(); err != nil {
		return nil, scanner.ErrRunning // newer for this one too, or unreadable
	}
	if err := syscall.Kill(s.PID, syscall.SIGTERM); err != nil {
		return nil, scanner.ErrRunning
	}
	fmt.Fprintf(o.IO.ErrOut, "the running scanner (pid %d) is of an older kittymux, which cannot write the journal: stopped it, starting this one\n", s.PID)
	ctx, cancel := context.WithTimeout(ctx, takeOverWait)
	defer cancel()
	for {
		lock, err := scanner.Lock(ctx, o.Paths.StateDir)
		if !errors.Is(err, scanner.ErrRunning) || ctx.Err() != nil {
			return lock, err
		}
	}
}

// takeOverWait bounds the wait for an older scanner to stop.
const takeOverWait = 10 * time.Second

// PollOptions of `scanner poll`.
type PollOptions struct {
	IO *factory.IOStreams
	// Options are the daemon's: its Logf is set by Poll.
	background.Options

	Once bool
	JSON bool
}

// From fills o with what `scanner poll` takes from f.
func (o PollOptions) From(f *factory.Factory) *PollOptions {
	o.IO, o.Options = f.IO, daemonOptions(f)
	return &o
}

// NewCmdPoll returns `scanner poll --once`.
func NewCmdPoll(f *factory.Factory, runF func(*PollOptions) error) *cobra.Command {
	o := PollOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "poll --once",
		Short: "Do one scanner pass and print what it saw",
		Example: `  kittymux scanner poll --once
  kittymux scanner poll --once --json`,
		Long: `Do one pass over every kitty and print each agent session: its id and where the id came from,
its state, and its directory. Without a running scanner the pass is recorded in the journal, as
the scanner would; with one running, the journal is left to it.

Exit codes: 0 done, 1 error, 2 bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.Once {
				return &factory.FlagError{Err: fmt.Errorf("scanner poll needs --once (the loop is `kittymux scanner run`)")}
			}
			f.OwnKitties = true
			if runF != nil {
				return runF(o)
			}
			return Poll(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Once, "once", false, "one pass (required)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the pass as JSON")
	return cmd
}

// Poll does one pass.
func Poll(ctx context.Context, o *PollOptions) error {
	d := o.Options
	d.Logf = func(format string, args ...any) {
		fmt.Fprintf(o.IO.ErrOut, "kittymux: %s\n", fmt.Sprintf(format, args...))
	}
	p, err := background.Poll(ctx, d)
	if err != nil {
		return err
	}
	if o.JSON {
		return factory.PrintJSON(o.IO.Out, p)
	}
	printPass(o.IO.Out, p)
	return nil
}

func printPass(out io.Writer, p scanner.Pass) {
	// One write, not one per table cell.
	w := bufio.NewWriter(out)
	defer w.Flush()
	for _, k := range p.Kitties {
		state := fmt.Sprintf("%d windows, %d agents", k.Windows, k.Agents)
		if !k.OK {
			state = "NOT reachable: " + k.Error
		}
		fmt.Fprintf(w, "kitty %s  %s  %s\n", k.Version, k.Socket, state)
	}
	if len(p.Kitties) == 0 {
		fmt.Fprintln(w, "kitty: none found with a remote-control socket")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range p.Sessions {
		id := "no id"
		if r.ID != "" {
			id = r.ID + " (" + r.IDFrom + ")"
		}
		fmt.Fprintf(tw, "  window %d\t%s\t%s\t%s\t%s\n", r.WindowID, r.Agent, r.State, id, r.Dir)
	}
	tw.Flush()
	if p.JournalError != "" {
		fmt.Fprintf(w, "journal: %s\n", p.JournalError)
	}
}

// StatusOptions of `scanner status`.
type StatusOptions struct {
	IO    *factory.IOStreams
	Paths paths.Paths

	JSON bool
}

// From fills o with what `scanner status` takes from f.
func (o StatusOptions) From(f *factory.Factory) *StatusOptions {
	o.IO, o.Paths = f.IO, f.Paths
	return &o
}

// NewCmdStatus returns `scanner status`.
func NewCmdStatus(f *factory.Factory, runF func(*StatusOptions) error) *cobra.Command {
	o := StatusOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Whether the scanner runs, its pid, since when, and how its polls of each kitty go",
		Example: `  kittymux scanner status
  kittymux scanner status --json`,
		Long: `Say whether the scanner runs, its pid, since when, each kitty it watches and how its last poll
of it went.

Exit codes: 0 always (whether it runs is in the output), 1 the status cannot be read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Status(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the status as JSON")
	return cmd
}

// Status prints the scanner's state.
func Status(o *StatusOptions) error {
	st := scanner.Current(o.Paths.StateDir)
	if o.JSON {
		return factory.PrintJSON(o.IO.Out, st)
	}
	fmt.Fprintln(o.IO.Out, st.Describe())
	if st.Running && st.Status != nil {
		for _, k := range st.Status.Kitties {
			fmt.Fprintf(o.IO.Out, "  kitty %s  %s  %s\n", k.Version, k.Socket, describeKitty(k))
			if k.Autosave != "" {
				fmt.Fprintf(o.IO.Out, "    autosave %s\n", k.Autosave)
			}
		}
	}
	return nil
}

func describeKitty(k scanner.KittyStatus) string {
	if k.OK {
		return fmt.Sprintf("ok at %s: %d windows, %d agents", k.LastPoll.Local().Format(time.TimeOnly), k.Windows, k.Agents)
	}
	if k.LastPoll.IsZero() {
		return "not polled yet"
	}
	return fmt.Sprintf("failing (%d in a row): %s; next try %s", k.Failures, k.Error, k.NextPoll.Local().Format(time.TimeOnly))
}
