package sessions

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessions"
)

// SavesOptions of `sessions saves`.
type SavesOptions struct {
	F    *factory.Factory
	JSON bool
}

// NewCmdSaves returns `sessions saves`.
func NewCmdSaves(f *factory.Factory, runF func(*SavesOptions) error) *cobra.Command {
	o := &SavesOptions{F: f}
	cmd := &cobra.Command{
		Use:   "saves",
		Short: "List the saved sessions, newest first: kitty, time, windows and agent windows",
		Long: `List the saved sessions, newest first, with the kitty an autosave is of (its pid), when each
was saved, how many windows it holds and how many of them are agent windows the restore prompt
will resume. ` + "`sessions restore last`" + ` opens the newest autosave (marked *), or the newest save
when there is no autosave.

Exit codes: 0 listed (also when nothing is saved), 1 error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Saves(o)
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
	// Last: `sessions restore last` opens this one.
	Last    bool   `json:"last"`
	Problem string `json:"problem,omitempty"`
}

// Saves runs `sessions saves`.
func Saves(o *SavesOptions) error {
	f := o.F
	all, err := sessions.List(f.Paths)
	if err != nil {
		return err
	}
	last, lastErr := sessions.Resolve(f.Paths, "last")
	out := []SavedSession{}
	for _, in := range all {
		s := SavedSession{Name: in.Name, Path: in.Path, Saved: in.Modified, Autosave: in.Autosave,
			Last: lastErr == nil && in.Name == last.Name}
		if key, at, ok := autosave.ParseName(in.Name); ok {
			s.Kitty, s.Saved = key, at
		}
		data, err := sessions.ReadRaw(in.Path)
		if err == nil {
			s.Windows, s.Agents, err = sessions.Count(data)
		}
		if err != nil {
			s.Problem = err.Error()
		}
		out = append(out, s)
	}
	if o.JSON {
		enc := json.NewEncoder(f.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"saves": out})
	}
	if len(out) == 0 {
		if f.IO.IsTTY {
			fmt.Fprintf(f.IO.Out, "nothing saved yet in %s\n", f.Paths.SessionsDir())
		}
		return nil
	}
	if f.IO.IsTTY {
		fmt.Fprintf(f.IO.Out, "  %-42s %-8s %-19s %7s %6s\n", "NAME", "KITTY", "SAVED", "WINDOWS", "AGENTS")
	}
	for _, s := range out {
		kittyCol := s.Kitty
		if kittyCol == "" {
			kittyCol = "-"
		}
		saved := s.Saved.Local().Format(time.DateTime)
		if !f.IO.IsTTY {
			fmt.Fprintf(f.IO.Out, "%s\t%s\t%s\t%d\t%d\t%v\t%s\n", s.Name, kittyCol, s.Saved.UTC().Format(time.RFC3339), s.Windows, s.Agents, s.Last, kitty.Printable(s.Problem))
			continue
		}
		mark := " "
		if s.Last {
			mark = "*"
		}
		fmt.Fprintf(f.IO.Out, "%s %-42s %-8s %-19s %7d %6d", mark, s.Name, kittyCol, saved, s.Windows, s.Agents)
		if s.Problem != "" {
			fmt.Fprintf(f.IO.Out, "  (%s)", kitty.Printable(s.Problem))
		}
		fmt.Fprintln(f.IO.Out)
	}
	return nil
}
