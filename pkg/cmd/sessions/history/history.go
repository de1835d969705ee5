// Package history implements `kittymux sessions history`: every agent session
// the journal recorded.
package history

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
)

// HistoryOptions of `sessions history`.
type HistoryOptions struct {
	IO     *factory.IOStreams
	Paths  paths.Paths
	Getenv func(string) string
	Agents func() (*agents.Set, error)

	Since time.Duration
	JSON  bool
	Clock clock.Clock // nil: the system's
}

// From fills o with what `sessions history` takes from f.
func (o HistoryOptions) From(f *factory.Factory) *HistoryOptions {
	o.IO, o.Paths, o.Getenv, o.Agents = f.IO, f.Paths, f.Getenv, f.Agents
	return &o
}

// NewCmdHistory returns `sessions history`.
func NewCmdHistory(f *factory.Factory, runF func(*HistoryOptions) error) *cobra.Command {
	o := HistoryOptions{}.From(f)
	var since string
	cmd := &cobra.Command{
		Use:   "history [--since 7d] [--json]",
		Short: "Every agent session the journal recorded: runs, work time, running or closed",
		Example: `  kittymux sessions history
  kittymux sessions history --since 90m
  kittymux sessions history --json | jq '.sessions[] | select(.running)'`,
		Long: `List every agent session in the journal (agent-sessions.json) active within --since: the
agent, its conversation id, directory, tab, runs finished, time spent working, when it was last
active, and whether it runs or how it ended (window closed, agent exited, kitty gone, restored as
a later window). An agent on a host reached over ssh shows as "claude on HOST" with its directory
there (--json: host, reported_by). --since takes minutes, hours or days: 90m, 6h, 7d.

Exit codes: 0 listed (also when there is nothing), 1 error, 2 bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := journal.ParseAge(since)
			if err != nil {
				return &factory.FlagError{Err: fmt.Errorf("--since: %w", err)}
			}
			o.Since = d
			if runF != nil {
				return runF(o)
			}
			return History(o)
		},
	}
	cmd.Flags().StringVar(&since, "since", "7d", "how far back: 90m, 6h, 7d")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the sessions as JSON")
	return cmd
}

// History runs `sessions history`.
func History(o *HistoryOptions) error {
	jf, err := journal.New(o.Paths.Journal(), false).Read()
	if err != nil {
		return err
	}
	// The agents that ran on hosts reached over ssh, from their own file.
	rf, err := journal.New(o.Paths.RemoteJournal(), false).Read()
	if err != nil {
		return err
	}
	jf.Records = append(jf.Records, rf.Records...)
	now := clock.Or(o.Clock).Now()
	es := history.Entries(jf, now, o.Since)
	// Without definitions nothing is marked lost.
	if set, err := o.Agents(); err == nil && set != nil {
		history.MarkLost(es, jf, history.Lost(set, o.Getenv))
	}
	if o.JSON {
		if es == nil {
			es = []history.Entry{}
		}
		return factory.PrintJSON(o.IO.Out, map[string]any{"sessions": es})
	}
	if len(es) == 0 {
		if o.IO.IsTTY {
			fmt.Fprintf(o.IO.Out, "no agent session in the last %s\n", history.Duration(o.Since))
		}
		return nil
	}
	printHistory(o.IO.Out, o.IO.IsTTY, now, es)
	return nil
}

// printHistory writes a table with a header on a terminal, tab-separated
// lines without one. Titles and directories came from kitty's windows.
func printHistory(w io.Writer, tty bool, now time.Time, es []history.Entry) {
	cols := func(e history.Entry) []string {
		id := e.ShortID
		if id == "" {
			id = "-"
		}
		return []string{kitty.Printable(e.What()), kitty.Printable(id), kitty.Printable(e.Dir), kitty.Printable(e.Tab),
			fmt.Sprint(e.RunsFinished), history.Duration(e.Working()), history.Ago(now, e.LastActive), e.Status()}
	}
	if !tty {
		for _, e := range es {
			fmt.Fprintln(w, strings.Join(cols(e), "\t"))
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tID\tDIRECTORY\tTAB\tRUNS\tWORKED\tLAST ACTIVE\tSTATUS")
	for _, e := range es {
		fmt.Fprintln(tw, strings.Join(cols(e), "\t"))
	}
	tw.Flush()
}
