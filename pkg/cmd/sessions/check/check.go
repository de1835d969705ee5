// Package check implements `kittymux sessions check`: the installed agent
// CLIs probed for the flags kittymux uses.
package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/spinner"
)

// CheckOptions of `sessions check`.
type CheckOptions struct {
	IO       *factory.IOStreams
	Paths    paths.Paths
	LookPath func(string) (string, error)
	Agents   func() (*agents.Set, error)

	JSON    bool
	Refresh bool
}

// From fills o with what `sessions check` takes from f.
func (o CheckOptions) From(f *factory.Factory) *CheckOptions {
	o.IO, o.Paths, o.LookPath, o.Agents = f.IO, f.Paths, f.LookPath, f.Agents
	return &o
}

// NewCmdCheck returns `sessions check`.
func NewCmdCheck(f *factory.Factory, runF func(*CheckOptions) error) *cobra.Command {
	o := CheckOptions{}.From(f)
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Probe each installed agent CLI's own --help for the flags kittymux uses",
		Example: `  kittymux sessions check
  kittymux sessions check --refresh --json`,
		Long: `Probe every installed agent CLI that has a definition, all in parallel: its --help and the
subcommand help it needs (stdin from /dev/null, a temporary directory, 20 s in all), confirm each
flag the definition uses, and read the CLI's option grammar (which options take a value) from the
help. Results are cached 12 h in resume-check.json, a failure or timeout 5 minutes; upgrading a CLI
invalidates its entry. An agent whose probe fails keeps its saved command when a session is saved.
list, save, publish and doctor probe with a 6 s deadline (KITTYMUX_PROBE_TIMEOUT) and use the cache.

Exit codes: 0 checked, 1 error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Check(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&o.Refresh, "refresh", false, "probe again, ignoring the cache")
	return cmd
}

// Check runs `sessions check`.
func Check(ctx context.Context, o *CheckOptions) error {
	set, err := o.Agents()
	if err != nil {
		return err
	}
	opt := probe.CheckOptionsFor(o.Paths)
	opt.Refresh = o.Refresh
	opt.RetryFailures = true
	opt.LookPath = o.LookPath
	sp := spinner.Start(o.IO.ErrOut, "probing the installed agent CLIs' --help")
	rep, err := probe.Check(ctx, set, opt)
	sp.Stop()
	if err != nil {
		return err
	}
	w := o.IO.Out
	if o.JSON {
		return factory.PrintJSON(w, rep)
	}
	n := 0
	for _, a := range rep.Agents {
		if !a.Installed {
			continue
		}
		n++
		state := "ok"
		switch {
		case a.TimedOut:
			state = "TIMED OUT: " + a.Error
		case a.Error != "":
			state = "FAILED: " + a.Error
		case len(a.Missing) > 0:
			state = "MISSING " + strings.Join(a.Missing, ", ") + ": kept as saved"
		}
		ver := a.Version
		if ver == "" {
			ver = "-"
		}
		cached := ""
		if a.Cached {
			cached = " (cached)"
		}
		fmt.Fprintf(w, "%-13s %-10s %s  %s%s\n", a.Agent, ver, a.Path, state, cached)
	}
	if n == 0 && o.IO.IsTTY {
		fmt.Fprintln(w, "no defined agent CLI is installed")
	}
	return nil
}
