// Package version is `kittymux version`: which build runs, and with
// --json the kitty and agent CLI versions found beside it.
package version

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/spinner"
	"github.com/kittymux/kittymux/pkg/version"
)

// Timeout bounds each `--version` run (kitty, each agent CLI); they run
// at once, so the command waits at most about this long.
const Timeout = 3 * time.Second

// Report is what `version --json` prints. Field names are stable.
type Report struct {
	version.Info
	Kitty  []Program `json:"kitty"`
	Agents []Program `json:"agents"`
}

// Program is one kitty or agent CLI and the version it reported.
type Program struct {
	Name string `json:"name"`
	// Source says how it was found: PATH or KITTYMUX_KITTY.
	Source  string `json:"source"`
	Path    string `json:"path"`
	Version string `json:"version,omitempty"`
	// From says where Version comes from: "--version", or "package.json"
	// for an npm install whose --version did not answer in time.
	From  string `json:"from,omitempty"`
	Error string `json:"error,omitempty"`
}

// NewCmdVersion returns `kittymux version`.
func NewCmdVersion(f *factory.Factory) *cobra.Command {
	asJSON := false
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Which kittymux this is; with --json also the kitty and agent CLI versions found",
		Long: `version prints the module version, the VCS revision and time stamped into the build, and
the Go version it was built with (the same line as --version).

With --json it adds the kitty versions found (kitty on PATH, and $KITTYMUX_KITTY when set) and
the version each installed agent CLI reports (those on PATH), each asked with --version at once
and given ` + Timeout.String() + `.`,
		Example: `  kittymux version
  kittymux --version
  kittymux version --json | jq .agents`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in := version.Get()
			if !asJSON {
				fmt.Fprintln(f.IO.Out, in.Line("kittymux"))
				return nil
			}
			sp := spinner.Start(f.IO.ErrOut, "asking kitty and the agent CLIs for their versions")
			rep := Collect(cmd.Context(), f, in)
			sp.Stop()
			return factory.PrintJSON(f.IO.Out, rep)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the build, kitty and agent CLI versions as JSON")
	return cmd
}

// Collect asks every kitty and agent CLI found for its version, all at
// once, each bounded by Timeout.
func Collect(ctx context.Context, f *factory.Factory, in version.Info) Report {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	rep := Report{Info: in, Kitty: []Program{}, Agents: []Program{}}
	if p, err := f.LookPath("kitty"); err == nil {
		rep.Kitty = append(rep.Kitty, Program{Name: "kitty", Source: "PATH", Path: p})
	}
	if p := f.Getenv("KITTYMUX_KITTY"); p != "" {
		rep.Kitty = append(rep.Kitty, Program{Name: "kitty", Source: "KITTYMUX_KITTY", Path: p})
	}
	if set, err := f.Agents(); err == nil {
		for name, p := range set.Installed(f.LookPath) {
			rep.Agents = append(rep.Agents, Program{Name: name, Source: "PATH", Path: p})
		}
		sort.Slice(rep.Agents, func(i, j int) bool { return rep.Agents[i].Name < rep.Agents[j].Name })
	}
	var wg sync.WaitGroup
	for i := range rep.Kitty {
		wg.Go(func() {
			v, err := kitty.VersionOfExe(ctx, rep.Kitty[i].Path)
			rep.Kitty[i].Version, rep.Kitty[i].From, rep.Kitty[i].Error = v.String(), "--version", errText(err)
			if err != nil {
				rep.Kitty[i].Version, rep.Kitty[i].From = "", ""
			}
		})
	}
	for i := range rep.Agents {
		wg.Go(func() {
			a := &rep.Agents[i]
			a.Version, a.Error = askVersion(ctx, a.Path)
			if a.Version != "" && a.Error == "" {
				a.From = "--version"
			} else if v := probe.PackageVersion(a.Path); v != "" {
				a.Version, a.From = v, "package.json"
			}
		})
	}
	wg.Wait()
	return rep
}

// askVersion runs `path --version` until ctx ends and returns the first
// line it printed, without control characters.
func askVersion(ctx context.Context, path string) (string, string) {
	cmd := exec.CommandContext(ctx, path, "--version")
	var out bytes.Buffer
	cmd.Stdout = &out
	// A CLI that leaves a child holding its output must not hold us.
	cmd.WaitDelay = 100 * time.Millisecond
	err := cmd.Run()
	line, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	line = kitty.Printable(strings.TrimSpace(line))
	if ctx.Err() != nil && err != nil {
		return line, fmt.Sprintf("no answer within %s", Timeout)
	}
	return line, errText(err)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return kitty.Printable(err.Error())
}
