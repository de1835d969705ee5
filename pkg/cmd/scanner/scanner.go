// Package scanner implements `kittymux scanner run | poll --once | status`.
package scanner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/logs"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/scanner"
)

// NewCmdScanner returns `kittymux scanner`.
func NewCmdScanner(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scanner",
		Short: "The background scanner: every agent session recorded in the journal as it runs",
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
	F        *factory.Factory
	Interval time.Duration
	Rescan   time.Duration
	// Signals stop the scanner: nil is SIGTERM and SIGINT, an empty list
	// none. Signals reach the whole process, so tests that run scanners side
	// by side in one process stop each by its context, never by a signal.
	Signals []os.Signal
}

// NewCmdRun returns `scanner run`.
func NewCmdRun(f *factory.Factory, runF func(*RunOptions) error) *cobra.Command {
	o := &RunOptions{F: f}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the scanner until SIGTERM or SIGINT (one per user)",
		Long: `Run the scanner in the foreground until SIGTERM or SIGINT, which stop it with the journal
written. Only one scanner runs per user: a second one says so and exits 0.

Exit codes: 0 stopped cleanly or another scanner runs, 1 error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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

// build makes a Scanner from the factory; j may be nil. With autosave, it
// also returns the Autosaver the scanner drives.
func build(ctx context.Context, f *factory.Factory, j *journal.Journal, logf logs.Logf, withAutosave bool) (*scanner.Scanner, *driven, error) {
	set, err := agents.Load(f.Paths.UserAgents())
	if set == nil {
		return nil, nil, err
	}
	if err != nil {
		logf("agent definitions: %v", err)
	}
	o := scanner.Options{
		Set:      set,
		Journal:  j,
		Discover: f.Discover,
		Records:  live.Records{ProcRoot: "/proc", Getenv: f.Getenv},
		Logf:     logf,
	}
	var as *driven
	if withAutosave {
		as = &driven{as: newAutosaver(ctx, f, set, logf), offer: newOfferer(f, logf)}
		o.Autosave = as
	}
	return scanner.New(o), as, nil
}

// newAutosaver saves each kitty through the one save path, as `sessions
// save --all` would.
func newAutosaver(ctx context.Context, f *factory.Factory, set *agents.Set, logf logs.Logf) *autosave.Autosaver {
	settings, err := autosave.LoadSettings(f.Paths, f.Getenv)
	if err != nil {
		logf("autosave settings: %v", err)
	}
	bin, binErr := save.ResumeBin(f.Getenv, f.Executable, f.LookPath)
	probeOpt := save.ProbeOptions{Paths: f.Paths, LookPath: f.LookPath, Warnf: logf}
	warm := warmProbes(ctx, f, set, logf)
	return &autosave.Autosaver{
		Settings: settings,
		Store:    autosave.Store{Paths: f.Paths, Keep: settings.Keep},
		Take: autosave.SaveOptions(save.Options{Agents: set, Paths: f.Paths, ResumeBin: bin, Getenv: f.Getenv,
			Check: func(names []string) probe.Probes { warm(); return save.Probes(ctx, set, probeOpt, names) }}),
		Off: func() string {
			if binErr != nil {
				return binErr.Error()
			}
			return autosave.Off(f.Paths, f.Getenv)
		},
		Logf: logf,
	}
}

// describeAutosave is the status line of autosave as a whole. The settings
// are read once, at start; whether it is off, at each pass.
func describeAutosave(f *factory.Factory) func() string {
	s, _ := autosave.LoadSettings(f.Paths, f.Getenv)
	on := fmt.Sprintf("on: settle %v, at most every %v, at least every %v while changed, keep %d per kitty",
		s.Settle, s.AtMostEvery, s.AtLeastEvery, s.Keep)
	return func() string {
		if why := autosave.Off(f.Paths, f.Getenv); why != "" {
			return "off: " + why
		}
		return on
	}
}

func openJournal(f *factory.Factory) *journal.Journal {
	return journal.New(f.Paths.Journal(), journal.IsOff(f.Paths.StateDir, f.Getenv))
}

// Run runs the scanner until a signal or ctx ends it.
func Run(ctx context.Context, o *RunOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	f := o.F
	if err := f.Paths.EnsureState(); err != nil {
		return err
	}
	lock, err := scanner.Lock(ctx, f.Paths.StateDir)
	if errors.Is(err, scanner.ErrRunning) {
		st := scanner.Current(f.Paths.StateDir)
		msg := "a kittymux scanner is already running"
		if st.Status != nil && st.Status.Stopped == nil {
			msg += fmt.Sprintf(" (pid %d, since %s)", st.Status.PID, st.Status.Started.Local().Format(time.DateTime))
		}
		fmt.Fprintln(f.IO.ErrOut, msg+"; not starting another")
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

	logf := func(format string, args ...any) {
		fmt.Fprintf(f.IO.ErrOut, "%s kittymux scanner: %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, args...))
	}
	j := openJournal(f)
	sc, as, err := build(ctx, f, j, logf, true)
	if err != nil {
		return err
	}
	wake := make(chan struct{}, 1)
	w, err := scanner.Watch(ctx, wake, logf)
	if err != nil {
		logf("no socket directory watcher (%v): rescanning every %v only", err, o.Rescan)
	}
	dirs := kitty.SocketDirs(kitty.DiscoverOptions{Getenv: f.Getenv})
	status := scanner.Status{PID: os.Getpid(), Started: time.Now(), Journal: j.Path, JournalOff: j.Off}
	autosaveLine := describeAutosave(f)
	logf("autosave %s", autosaveLine())
	logf("started (pid %d); journal %s%s", status.PID, j.Path, map[bool]string{true: " (off)", false: ""}[j.Off])
	afterPass := func(p scanner.Pass) {
		if w != nil {
			for _, k := range p.Kitties {
				if a, err := kitty.ParseAddress(k.Socket); err == nil && !a.Abstract() {
					dirs = appendNew(dirs, filepath.Dir(a.Path))
				}
			}
			w.Add(dirs...)
		}
		status.Updated = p.At
		status.Kitties = p.Kitties
		status.OpenSessions = len(p.Sessions)
		status.JournalError = p.JournalError
		status.Autosave = autosaveLine()
		if err := scanner.WriteStatus(f.Paths.StateDir, status); err != nil {
			logf("%v", err)
		}
	}
	err = sc.Loop(ctx, scanner.LoopOptions{Interval: o.Interval, Rescan: o.Rescan, Wake: wake, AfterPass: afterPass})
	as.Wait()
	now := time.Now()
	status.Stopped = &now
	if werr := scanner.WriteStatus(f.Paths.StateDir, status); werr != nil {
		logf("%v", werr)
	}
	logf("stopped")
	return err
}

func appendNew(dirs []string, d string) []string {
	for _, have := range dirs {
		if have == d {
			return dirs
		}
	}
	return append(dirs, d)
}

// PollOptions of `scanner poll`.
type PollOptions struct {
	F    *factory.Factory
	Once bool
	JSON bool
}

// NewCmdPoll returns `scanner poll --once`.
func NewCmdPoll(f *factory.Factory, runF func(*PollOptions) error) *cobra.Command {
	o := &PollOptions{F: f}
	cmd := &cobra.Command{
		Use:   "poll --once",
		Short: "Do one scanner pass and print what it saw",
		Long: `Do one pass over every kitty and print each agent session: its id and where the id came from,
its state, and its directory. Without a running scanner the pass is recorded in the journal, as
the scanner would; with one running, the journal is left to it.

Exit codes: 0 done, 1 error, 2 bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.Once {
				return &factory.FlagError{Err: fmt.Errorf("scanner poll needs --once (the loop is `kittymux scanner run`)")}
			}
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
	if ctx == nil {
		ctx = context.Background()
	}
	f := o.F
	var j *journal.Journal
	if !scanner.Current(f.Paths.StateDir).Running {
		j = openJournal(f)
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(f.IO.ErrOut, "kittymux: %s\n", fmt.Sprintf(format, args...))
	}
	sc, _, err := build(ctx, f, j, logf, false)
	if err != nil {
		return err
	}
	p, err := sc.Poll(ctx)
	if err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(f.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	}
	printPass(f.IO.Out, p)
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
	F    *factory.Factory
	JSON bool
}

// NewCmdStatus returns `scanner status`.
func NewCmdStatus(f *factory.Factory, runF func(*StatusOptions) error) *cobra.Command {
	o := &StatusOptions{F: f}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Whether the scanner runs, its pid, since when, and how its polls of each kitty go",
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
	st := scanner.Current(o.F.Paths.StateDir)
	if o.JSON {
		enc := json.NewEncoder(o.F.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	fmt.Fprintln(o.F.IO.Out, st.Describe())
	if st.Running && st.Status != nil {
		for _, k := range st.Status.Kitties {
			fmt.Fprintf(o.F.IO.Out, "  kitty %s  %s  %s\n", k.Version, k.Socket, describeKitty(k))
			if k.Autosave != "" {
				fmt.Fprintf(o.F.IO.Out, "    autosave %s\n", k.Autosave)
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
