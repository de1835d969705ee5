// Package saves implements `kittymux sessions saves`, `rm` and `rename`: the
// saved sessions listed, removed and renamed.
package saves

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
)

// SavesOptions of `sessions saves`.
type SavesOptions struct {
	IO       *factory.IOStreams
	Paths    paths.Paths
	Getenv   func(string) string
	Discover func(context.Context) ([]kitty.Instance, error)
	// To is the --to address, read when the command runs.
	To func() string

	JSON bool
}

// From fills o with what `sessions saves` takes from f.
func (o SavesOptions) From(f *factory.Factory) *SavesOptions {
	o.IO, o.Paths, o.Getenv, o.Discover, o.To = f.IO, f.Paths, f.Getenv, f.Discover, f.Target
	return &o
}

// NewCmdSaves returns `sessions saves`.
func NewCmdSaves(f *factory.Factory, runF func(*SavesOptions) error) *cobra.Command {
	o := SavesOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "saves",
		Short: "List the saved sessions, newest first: kitty, time, windows and agent windows",
		Example: `  kittymux sessions saves
  kittymux sessions saves --json | jq -r '.saves[].name'`,
		Long: `List the saved sessions, newest first, with the kitty an autosave is of (its pid), when each
was saved, how many windows it holds and how many of them are agent windows the restore prompt
will resume. For each kitty's newest save it says whether that kitty still runs (or is the kitty
the command runs in), ended (at a confirmed quit, or gone without a quit: a crash or a kill), or
its session was restored or dismissed already, and when. ` + "`sessions restore last`" + ` opens the
save marked * (last: true): the newest save of the kitty that ended last, unless it was restored
already; with no autosave at all, the newest save.

Exit codes: 0 listed (also when nothing is saved), 1 error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Saves(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the saves as JSON")
	return cmd
}

// SavedSession is one line of `sessions saves`. Field names are stable.
type SavedSession struct {
	Name     string    `json:"name"`
	Path     string    `json:"path"`
	Saved    time.Time `json:"saved"`
	Autosave bool      `json:"autosave"`
	// Kitty is the pid of the kitty an autosave is of.
	Kitty   string `json:"kitty,omitempty"`
	Windows int    `json:"windows"`
	Agents  int    `json:"agents"`
	// ScreenHistory is how many windows print a kept screen history when
	// restored; HistoryWindows are they.
	ScreenHistory  int                       `json:"screen_history,omitempty"`
	HistoryWindows []published.HistoryWindow `json:"screen_history_windows,omitempty"`
	// Last: `sessions restore last` opens this one.
	Last    bool   `json:"last"`
	Problem string `json:"problem,omitempty"`
	// State is set on each kitty's newest save: running, this (the kitty
	// the command runs in), ended, restored or dismissed.
	State string `json:"state,omitempty"`
	// Ended says how a kitty that is gone ended: "quit" (confirmed at
	// kitty's question) or "unexpectedly" (gone without a quit).
	Ended string `json:"ended,omitempty"`
	// Restored is when the kitty's session was restored, and from which
	// save; Dismissed when its offer was dismissed.
	Restored   *time.Time `json:"restored,omitempty"`
	RestoredAs string     `json:"restored_from,omitempty"`
	Dismissed  *time.Time `json:"dismissed,omitempty"`
}

// stateOf fills the state of s when it is its kitty's newest save.
func (s *SavedSession) stateOf(ks []ended.Kitty) {
	for _, k := range ks {
		if k.Newest.Name != s.Name {
			continue
		}
		s.State = string(k.State)
		if k.State == ended.Running || k.State == ended.This {
			return
		}
		s.Ended = "unexpectedly"
		if k.Quit {
			s.Ended = "quit"
		}
		if t := k.Mark.Restored; !t.IsZero() {
			s.Restored, s.RestoredAs = &t, k.Mark.RestoredName
		}
		if t := k.Mark.Dismissed; !t.IsZero() {
			s.Dismissed = &t
		}
	}
}

// stateText is the STATE column.
func (s SavedSession) stateText(now time.Time) string {
	switch s.State {
	case "":
		return ""
	case string(ended.This):
		return "this kitty, running"
	case string(ended.Running):
		return "running"
	}
	how := "ended: gone without a quit"
	if s.Ended == "quit" {
		how = "ended: quit"
	}
	switch {
	case s.Restored != nil:
		return how + ", restored " + history.When(now, *s.Restored)
	case s.Dismissed != nil:
		return how + ", dismissed " + history.When(now, *s.Dismissed)
	}
	return how
}

// Saves runs `sessions saves`.
func Saves(ctx context.Context, o *SavesOptions) error {
	all, err := published.List(o.Paths)
	if err != nil {
		return err
	}
	sv := ended.Saved{Paths: o.Paths, ErrOut: o.IO.ErrOut, Discover: o.Discover, Self: ended.SelfKey(o.To(), o.Getenv)}
	ks, saves, err := sv.Kitties(ctx)
	if err != nil {
		return err
	}
	last := ended.Last(ks, saves).Pick
	now := time.Now()
	out := []SavedSession{}
	for _, in := range all {
		s := SavedSession{Name: in.Name, Path: in.Path, Saved: in.Modified, Autosave: in.Autosave,
			Last: last != nil && in.Name == last.Name}
		if key, at, ok := autosave.ParseName(in.Name); ok {
			s.Kitty, s.Saved = key, at
		}
		s.stateOf(ks)
		data, err := published.ReadRaw(in.Path)
		if err == nil {
			s.Windows, s.Agents, err = published.Count(data)
			s.HistoryWindows = published.HistoryWindows(data)
			s.ScreenHistory = len(s.HistoryWindows)
		}
		if err != nil {
			s.Problem = err.Error()
		}
		out = append(out, s)
	}
	if o.JSON {
		return factory.PrintJSON(o.IO.Out, map[string]any{"saves": out})
	}
	if len(out) == 0 {
		if o.IO.IsTTY {
			fmt.Fprintf(o.IO.Out, "nothing saved yet in %s\n", o.Paths.SessionsDir())
		}
		return nil
	}
	if o.IO.IsTTY {
		fmt.Fprintf(o.IO.Out, "  %-42s %-8s %-19s %7s %6s  %s\n", "NAME", "KITTY", "SAVED", "WINDOWS", "AGENTS", "STATE")
	}
	for _, s := range out {
		kittyCol := s.Kitty
		if kittyCol == "" {
			kittyCol = "-"
		}
		saved := s.Saved.Local().Format(time.DateTime)
		if !o.IO.IsTTY {
			fmt.Fprintf(o.IO.Out, "%s\t%s\t%s\t%d\t%d\t%v\t%s\t%s\n", s.Name, kittyCol, s.Saved.UTC().Format(time.RFC3339), s.Windows, s.Agents, s.Last, kitty.Printable(s.Problem), s.stateText(now))
			continue
		}
		mark := " "
		if s.Last {
			mark = "*"
		}
		fmt.Fprintf(o.IO.Out, "%s %-42s %-8s %-19s %7d %6d  %s", mark, s.Name, kittyCol, saved, s.Windows, s.Agents, s.stateText(now))
		if s.Problem != "" {
			fmt.Fprintf(o.IO.Out, "  (%s)", kitty.Printable(s.Problem))
		}
		fmt.Fprintln(o.IO.Out)
	}
	return nil
}
