// Package list implements `kittymux sessions list`: each live agent window,
// how it would resume and why.
package list

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// ListOptions of `sessions list`.
type ListOptions struct {
	IO         *factory.IOStreams
	Paths      paths.Paths
	Getenv     func(string) string
	Kitties    func(context.Context) ([]kitty.Instance, error)
	AskTimeout time.Duration
	Agents     func() (*agents.Set, error)
	Probes     func(ctx context.Context, set *agents.Set, names []string) probe.Probes

	JSON bool
}

// From fills o with what `sessions list` takes from f.
func (o ListOptions) From(f *factory.Factory) *ListOptions {
	o.IO, o.Paths, o.Getenv, o.Kitties, o.AskTimeout = f.IO, f.Paths, f.Getenv, f.Kitties, f.AskTimeout
	o.Agents, o.Probes = f.Agents, f.Probes
	return &o
}

// NewCmdList returns `sessions list`.
func NewCmdList(f *factory.Factory, runF func(*ListOptions) error) *cobra.Command {
	o := ListOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Each live agent window: exact | latest | new, the command it would resume with, and why",
		Example: `  kittymux sessions list
  kittymux sessions list --json | jq '.windows[] | select(.mode == "exact")'`,
		Long: `List each agent window in every running kitty: the agent, how it would resume (exact, latest,
new, or as-saved), the command it would resume with, and why. The rules run over the windows of
every kitty together, so one conversation is never resumed twice.

Exit codes: 0 listed, 1 no kitty reachable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return List(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the windows as JSON")
	return cmd
}

// ListedWindow is one row of `sessions list --json`.
type ListedWindow struct {
	Kitty string `json:"kitty"`
	// Decision is what a restore would do; its WindowID is the window's
	// id in Kitty.
	plan.Decision
	Tab     string `json:"tab"`
	Cwd     string `json:"cwd"`
	Command string `json:"command,omitempty"`
	// IDSource is where the id came from: hook, agent record, command
	// line or journal.
	IDSource string `json:"id_source,omitempty"`
	// State is the agent's state as the journal has it (from its hook,
	// its records or kitty): working, idle, needs_attention, unknown.
	State string `json:"state,omitempty"`
	// Restored says what became of the resume a restore prompt ran here:
	// "resumed X" only when the agent reports that conversation,
	// "started a different conversation Y (asked for X; ...)" otherwise.
	Restored string `json:"restored,omitempty"`
	// Candidates: in choose mode, how many of the agent's conversations
	// the restore would list now.
	Candidates int `json:"candidates,omitempty"`
	// Host is the host of the window's ssh command, for an agent on the
	// far side (remote.go); ReportedBy the host's name as its hook
	// reported it.
	Host       string `json:"host,omitempty"`
	ReportedBy string `json:"reported_by,omitempty"`
}

// List runs `sessions list`.
func List(ctx context.Context, o *ListOptions) error {
	insts, err := o.Kitties(ctx)
	if err != nil {
		return err
	}
	set, err := o.Agents()
	if err != nil {
		return err
	}
	rows, remotes, err := listRows(ctx, o, set, insts)
	if err != nil {
		return err
	}
	ws := make([]live.AgentWindow, len(rows))
	for i, r := range rows {
		ws[i] = r.WithSince()
	}
	out := []ListedWindow{}
	probes := func(names []string) probe.Probes { return o.Probes(ctx, set, names) }
	for _, d := range plan.DecideByPosition(set, ws, probes) {
		lw := listed(rows[d.WindowID-1], d)
		if d.Mode == plan.ModeChoose && agents.Listed(d.Agent) {
			// Its own CLI lists them, which a listing does not run.
			lw.Reason = fmt.Sprintf("choose: the restore asks %s for its conversations here (%s)", d.Agent, lw.Reason)
		} else if d.Mode == plan.ModeChoose {
			r := ws[d.WindowID-1]
			// Where the agent keeps them is where its process's environment
			// says (HOME, CODEX_HOME, ...), as the restored window's will.
			lw.Candidates = len(conversations.Candidates(set, d.Agent, r.Cwd, r.Since, conversations.EnvOver(r.ProcEnv, o.Getenv)))
			lw.Reason = fmt.Sprintf("choose: %d candidates now (%s)", lw.Candidates, lw.Reason)
		}
		out = append(out, lw)
	}
	return printList(o, append(out, remotes...))
}

// listRow is one agent window of a kitty, with what the journal has of
// it.
type listRow struct {
	inst kitty.Instance
	live.Journaled
}

// listRows asks every kitty at once, each with its own deadline (hung ones
// cost one deadline together), for its agent windows.
func listRows(ctx context.Context, o *ListOptions, set *agents.Set, insts []kitty.Instance) ([]listRow, []ListedWindow, error) {
	// The journal has what hooks reported (ids, states); an unreadable one
	// leaves the ids kitty and the agents' records give.
	jf, _ := journal.New(o.Paths.Journal(), false).Read()
	var rows []listRow
	var remotes []ListedWindow
	var reached int
	lr := live.Records{Getenv: o.Getenv, StateDir: o.Paths.StateDir}
	for _, a := range kitty.LSAll(ctx, insts, o.AskTimeout) {
		if a.Err != nil {
			if len(insts) == 1 {
				// The one kitty named or found: its failure is the answer.
				return nil, nil, fmt.Errorf("kitty from %s: %w", a.Instance.Source, a.Err)
			}
			fmt.Fprintf(o.IO.ErrOut, "kittymux: %s: %s\n", kitty.Printable(a.Instance.Socket), kitty.Printable(a.Err.Error()))
			continue
		}
		reached++
		for _, j := range lr.JournalWindows(set, jf, a) {
			rows = append(rows, listRow{a.Instance, j})
		}
		remotes = append(remotes, remoteListed(set, a.Instance.Socket, a.LS, live.ReadProc)...)
	}
	if reached == 0 {
		return nil, nil, fmt.Errorf("%w (none of %d answered)", factory.ErrNoKitty, len(insts))
	}
	return rows, remotes, nil
}

// listed is the row r as the rules decided it.
func listed(r listRow, d plan.Decision) ListedWindow {
	d.WindowID = r.Ref.Window.ID
	lw := ListedWindow{Kitty: r.inst.Socket, Decision: d, Tab: r.Ref.Tab.Title, Cwd: r.Cwd, State: r.State,
		Restored: r.Restored}
	if d.ID != "" {
		lw.IDSource = idSource(r.AgentWindow, d.ID)
	} else if why := live.IDLimit(d.Agent, r.Cmd.Flags); why != "" {
		lw.Reason += "; " + why
	}
	if r.Restored != "" {
		lw.Reason += "; restored here: " + r.Restored
	}
	if why := r.Unverified; why != "" && len(d.Argv) > 0 {
		lw.Reason += "; a save would not seal it (the restore asks first): " + why
	}
	if len(d.Argv) > 0 {
		lw.Command = recognize.Quote(d.Argv)
	}
	return lw
}

// printList prints the windows as JSON, as a table on a terminal, or as
// tab-separated lines.
func printList(o *ListOptions, out []ListedWindow) error {
	if o.JSON {
		return factory.PrintJSON(o.IO.Out, map[string]any{"windows": out})
	}
	if len(out) == 0 {
		if o.IO.IsTTY {
			fmt.Fprintln(o.IO.Out, "no agent windows")
		}
		return nil
	}
	// Titles, commands and directories come from kitty (and from whatever
	// runs in its windows): the text forms print them through Printable.
	p := kitty.Printable
	if o.IO.IsTTY {
		fmt.Fprintf(o.IO.Out, "%-7s %-10s %-9s %-12s %-9s %-20s %s\n", "WINDOW", "AGENT", "MODE", "ID FROM", "STATE", "TAB", "COMMAND / WHY")
		for _, w := range out {
			cmd := w.Command
			if cmd == "" {
				cmd = "(kept as saved)"
			}
			fmt.Fprintf(o.IO.Out, "%-7d %-10s %-9s %-12s %-9s %-20.20s %s\n%71s%s\n", w.WindowID, p(w.Agent), w.Mode, orDash(w.IDSource), orDash(w.State), p(w.Tab), p(cmd), "", p(w.Reason))
		}
		return nil
	}
	for _, w := range out {
		fmt.Fprintf(o.IO.Out, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", p(w.Kitty), w.WindowID, p(w.Agent), w.Mode, p(w.Command), p(w.Reason), w.IDSource, w.State)
	}
	return nil
}

// idSource names where the id the rules chose came from: the window's
// reported id (a hook, the agent's records, the journal) or its command line.
func idSource(w live.AgentWindow, id string) string {
	if w.KnownID == id {
		return live.IDSource(w.KnownIDFrom)
	}
	if w.Cmd.ID == id {
		return "command line"
	}
	return ""
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
