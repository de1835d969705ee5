// Package publish implements `kittymux sessions publish`, the offline worker
// that kitty's quit watcher starts.
package publish

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/screenhist"
)

// PublishOptions of `sessions publish`.
type PublishOptions struct {
	IO        *factory.IOStreams
	Paths     paths.Paths
	Getenv    func(string) string
	Agents    func() (*agents.Set, error)
	Probes    func(ctx context.Context, set *agents.Set, names []string) probe.Probes
	ResumeBin func() (string, error)
	SealKey   func() ([]byte, error)

	Raw    string
	Name   string
	Stdout bool
	Direct bool
	JSON   bool
	// RemoveRaw removes RAW once it is published: the quit watcher's raw
	// save has no other owner once kitty is gone.
	RemoveRaw bool
	// KittyPID is the pid of the kitty that wrote RAW (the quit watcher
	// runs in it): the journal's open records of that kitty's windows say
	// what ran in each. 0: no record confirms a window.
	KittyPID int
	// LS is what kitty listed when it saved RAW (the quit watcher writes
	// it beside RAW): every line of RAW is read against it.
	LS string
	// Texts is the directory of what each window showed when kitty saved
	// RAW (the quit watcher writes it with screen history on: a
	// save.QuitTexts): the plain windows' is kept as their screen history.
	// It is removed, whatever happens.
	Texts string
}

// From fills o with what `sessions publish` takes from f.
func (o PublishOptions) From(f *factory.Factory) *PublishOptions {
	o.IO, o.Paths, o.Getenv = f.IO, f.Paths, f.Getenv
	o.Agents, o.Probes, o.ResumeBin, o.SealKey = f.Agents, f.Probes, f.ResumeBin, f.SealKey
	return &o
}

// NewCmdPublish returns `sessions publish`.
func NewCmdPublish(f *factory.Factory, runF func(*PublishOptions) error) *cobra.Command {
	o := PublishOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "publish RAW",
		Short: "Rewrite a raw kitty save and publish it, with no kitty socket",
		Example: `  kittymux sessions publish ~/raw.kitty-session --name work
  kittymux sessions publish ~/raw.kitty-session --stdout`,
		Long: `Rewrite RAW, a file written by kitty's save_as_session, as ` + "`sessions save`" + ` does, and publish it
atomically as sessions/NAME.kitty-session (default NAME: RAW's base name). RAW must be a regular
file of at most 16 MiB. No kitty socket is used:
this is the offline worker kitty's quit watcher starts. --stdout prints the result instead.

A window's command is sealed only as kittymux's journal recorded its agent process: the record
the scanner kept open for the process (pid and start) it saw in that window of the kitty
--kitty-pid names, open when RAW was written. A user var never selects a record; kittymux_session counts only when that
record holds the same id. Any other agent window is written unsealed: its restore shows the
whole command and asks.

With screen history on, --texts DIR (the quit watcher's: what each window showed, DIR/ID.txt)
keeps each plain window's text as its screen history, filtered and bounded as a save does.
DIR is removed, whether or not the publish succeeds.

Exit codes: 0 published, 1 error (nothing written), 2 bad usage.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Raw = args[0]
			if o.Name == "" {
				o.Name = strings.TrimSuffix(filepath.Base(o.Raw), published.Ext)
			}
			if !o.Stdout {
				if err := published.CheckName(o.Name); err != nil {
					return &factory.FlagError{Err: err}
				}
			}
			if runF != nil {
				return runF(o)
			}
			return Publish(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Name, "name", "", "name to publish as")
	cmd.Flags().BoolVar(&o.Stdout, "stdout", false, "print the rewritten file instead of publishing it")
	cmd.Flags().BoolVar(&o.Direct, "direct", false, "restored windows resume without asking")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print what was published as JSON")
	cmd.Flags().BoolVar(&o.RemoveRaw, "remove-raw", false, "remove RAW once published (kept when publishing fails)")
	cmd.Flags().StringVar(&o.LS, "ls", "", "what kitty listed (its ls, as JSON) when it wrote RAW: each line of RAW is read against it")
	cmd.Flags().StringVar(&o.Texts, "texts", "", "directory of what each window showed (ID.txt) when kitty wrote RAW, kept as the plain windows' screen history when it is on; removed once read")
	cmd.Flags().IntVar(&o.KittyPID, "kitty-pid", 0, "pid of the kitty that wrote RAW, whose windows the journal has records of")
	return cmd
}

// Publish runs `sessions publish`.
func Publish(ctx context.Context, o *PublishOptions) error {
	if o.Texts != "" {
		defer save.QuitTexts{Dir: o.Texts}.Remove()
	}
	raw, err := published.ReadRaw(o.Raw)
	if err != nil {
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
	key, err := o.SealKey()
	if err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	// No kitty to ask: kittymux's journal is what says which agent process
	// ran in each window (its program, flags and conversation). A window
	// it has no record of is written unsealed, and its restore asks first.
	// An unreadable journal confirms nothing.
	jf, err := journal.New(o.Paths.Journal(), journal.IsOff(o.Paths.StateDir, o.Getenv)).Read()
	if err != nil {
		fmt.Fprintf(o.IO.ErrOut, "kittymux: the journal cannot be read (%v); no window's command or conversation is confirmed\n", err)
		jf = nil
	}
	ls, err := o.readLS()
	if err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	// Records the scanner closed as the kitty went away after it saved
	// were open when it saved (the quit capture publishes as kitty goes).
	var savedAt time.Time
	if fi, err := os.Stat(o.Raw); err == nil {
		savedAt = fi.ModTime()
	}
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Direct: o.Direct,
		Key: key, Journal: jf, KittyPID: o.KittyPID, SavedAt: savedAt, LS: ls,
		Check: func(names []string) probe.Probes { return o.Probes(ctx, set, names) }})
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was written", o.Raw, err)
	}
	// No kitty to read windows' text from: only what the quit watcher
	// kept of it. Without it, an earlier save's history of this name goes.
	if o.Texts != "" && !o.Stdout {
		hist, err := screenhist.Load(o.Paths, o.Getenv)
		if err != nil {
			fmt.Fprintf(o.IO.ErrOut, "kittymux: warning: screen history: %v\n", err)
		}
		if hist.On {
			texts := save.QuitTexts{Dir: o.Texts, Max: 2 * int64(hist.WindowBytes)}
			res.HistoryTexts = save.ReadHistory(ctx, texts, res, bin, hist.Bounds)
		}
	}
	shared.PrintWarnings(o.IO.ErrOut, res.Warnings)
	if o.Stdout {
		_, err := o.IO.Out.Write(res.Data)
		return err
	}
	path, err := save.Publish(o.Paths, o.Name, bin, res, time.Now())
	if err != nil {
		return err
	}
	if o.RemoveRaw {
		for _, p := range []string{o.Raw, o.LS} {
			if err := os.Remove(p); err != nil && p != "" {
				fmt.Fprintf(o.IO.ErrOut, "kittymux: published, but the raw save stays: %v\n", err)
			}
		}
	}
	return shared.PrintSaved(o.IO.Out, o.JSON, shared.SaveResult{Name: o.Name, Path: path, Windows: res.Windows, Warnings: res.Warnings,
		ScreenHistory: res.History})
}

// readLS reads --ls: nil when none was given.
func (o *PublishOptions) readLS() ([]kitty.OSWindow, error) {
	if o.LS == "" {
		return nil, nil
	}
	data, err := published.ReadRaw(o.LS)
	if err != nil {
		return nil, err
	}
	ls, err := kitty.DecodeLS(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not kitty's ls: %w", o.LS, err)
	}
	if ls == nil {
		ls = []kitty.OSWindow{}
	}
	return ls, nil
}
