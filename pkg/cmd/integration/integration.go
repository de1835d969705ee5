// Package integration is `kittymux integration install|status|uninstall`.
package integration

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/hookinstall"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
)

// Options of the integration commands.
type Options struct {
	IO         *factory.IOStreams
	Paths      paths.Paths
	Getenv     func(string) string
	Executable string
	LookPath   func(string) (string, error)

	Action string // install, status, uninstall
	Agents []string
	JSON   bool
}

// From fills o with what the integration commands take from f.
func (o Options) From(f *factory.Factory) *Options {
	o.IO, o.Paths, o.Getenv, o.Executable, o.LookPath = f.IO, f.Paths, f.Getenv, f.Executable, f.LookPath
	return &o
}

// NewCmdIntegration returns `kittymux integration`; runF replaces the run
// in tests.
func NewCmdIntegration(f *factory.Factory, runF func(*Options) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "integration",
		Short: "Agent hooks that report the conversation id and the working state",
		Example: `  kittymux integration status
  kittymux integration install claude codex
  kittymux integration uninstall`,
		Long: `Install kittymux's hooks into agents' own settings (` + strings.Join(hookinstall.Names(), ", ") + `): on session
start, prompt submitted and turn finished the agent runs ` + "`kittymux hook AGENT EVENT`" + `, which records the
exact conversation id and whether the agent works, in the kitty window it runs in.

Install adds one hook group per event and leaves the user's hooks and settings as they are; it
keeps the file as the user had it in FILE` + hookinstall.BackupSuffix + ` (never replaced). A settings file that
is a link is edited where it leads. Uninstall removes exactly kittymux's groups.`,
	}
	for _, action := range []string{"install", "status", "uninstall"} {
		o := Options{Action: action}.From(f)
		short := map[string]string{
			"install":   "Add kittymux's hooks (no AGENT: every agent installed here)",
			"status":    "Show each agent's hooks: installed, outdated or missing, with their version",
			"uninstall": "Remove kittymux's hooks and nothing else (no AGENT: every agent)",
		}[action]
		c := &cobra.Command{
			Use:   action + " [AGENT...]",
			Short: short,
			Example: map[string]string{
				"install":   "  kittymux integration install\n  kittymux integration install claude codex",
				"status":    "  kittymux integration status\n  kittymux integration status --json claude",
				"uninstall": "  kittymux integration uninstall\n  kittymux integration uninstall gemini",
			}[action],
			Long:      short + ".\n\nExit codes: 0 done, 1 a settings file could not be read or written, 2 unknown agent.",
			ValidArgs: hookinstall.Names(),
			RunE: func(cmd *cobra.Command, args []string) error {
				o.Agents = args
				if runF != nil {
					return runF(o)
				}
				return Run(o)
			},
		}
		if action == "status" {
			c.Flags().BoolVar(&o.JSON, "json", false, "print the status as JSON")
		}
		cmd.AddCommand(c)
	}
	return cmd
}

// Env is the integration environment of a process with getenv, running
// the kittymux at exe. Home is "" when HOME is not set: no agent's settings
// can be found then.
func Env(getenv func(string) string, exe string) hookinstall.Env {
	return hookinstall.Env{Getenv: getenv, Home: getenv("HOME"), Exe: exe}
}

// Journal is the journal, to tell hooks that do not run; nil when it is
// off or unreadable.
func Journal(p paths.Paths, getenv func(string) string) *journal.File {
	j := journal.New(p.Journal(), journal.IsOff(p.StateDir, getenv))
	if j.Off {
		return nil
	}
	jf, err := j.Read()
	if err != nil {
		return nil
	}
	return jf
}

// Run runs one integration command.
func Run(o *Options) error {
	env := Env(o.Getenv, o.Executable)
	if env.Home == "" {
		return errors.New("HOME is not set: the agents' settings cannot be found")
	}
	var list []hookinstall.Agent
	for _, name := range o.Agents {
		a, ok := hookinstall.Find(name)
		if !ok {
			return &factory.FlagError{Err: fmt.Errorf("unknown agent %q: kittymux has hooks for %s", name, strings.Join(hookinstall.Names(), ", "))}
		}
		list = append(list, a)
	}
	if len(list) == 0 {
		switch o.Action {
		case "install":
			list = hookinstall.Detect(env, o.LookPath)
			if len(list) == 0 {
				return fmt.Errorf("none of %s is installed here: name the agent to install its hooks anyway", strings.Join(hookinstall.Names(), ", "))
			}
		default:
			list = hookinstall.Agents()
		}
	}
	if o.Action == "status" {
		var sts []hookinstall.Status
		jf := Journal(o.Paths, o.Getenv)
		for _, a := range list {
			st := hookinstall.StatusOf(a, env)
			hookinstall.Check(&st, a, env, jf, time.Now())
			sts = append(sts, st)
		}
		return PrintStatus(o.IO, sts, o.JSON)
	}
	var failed int
	for _, a := range list {
		var ch hookinstall.Change
		var err error
		if o.Action == "install" {
			ch, err = hookinstall.Install(a, env)
		} else {
			ch, err = hookinstall.Uninstall(a, env)
		}
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(o.IO.ErrOut, "kittymux: %s: %v\n", a.Name, err)
		case !ch.Changed && o.Action == "install":
			fmt.Fprintf(o.IO.Out, "%s: already installed in %s\n", a.Name, ch.File)
		case !ch.Changed:
			fmt.Fprintf(o.IO.Out, "%s: no kittymux hooks in %s\n", a.Name, ch.File)
		default:
			verb := map[string]string{"install": "installed in", "uninstall": "removed from"}[o.Action]
			fmt.Fprintf(o.IO.Out, "%s: %s %s", a.Name, verb, ch.File)
			if ch.Backup != "" {
				fmt.Fprintf(o.IO.Out, " (was: %s)", ch.Backup)
			}
			fmt.Fprintln(o.IO.Out)
			if o.Action == "install" && a.Note != "" {
				fmt.Fprintf(o.IO.Out, "  %s\n", a.Note)
			}
		}
	}
	if failed > 0 {
		return &factory.SilentError{Code: 1}
	}
	return nil
}

// PrintStatus prints statuses as a table (a header on a terminal), as
// tab-separated lines, or as JSON. doctor prints the same.
func PrintStatus(ios *factory.IOStreams, sts []hookinstall.Status, asJSON bool) error {
	if asJSON {
		return factory.PrintJSON(ios.Out, map[string]any{"integrations": sts})
	}
	for i, st := range sts {
		version := "-"
		if st.Version > 0 || st.State != hookinstall.Missing {
			version = fmt.Sprintf("v%d", st.Version)
		}
		if ios.IsTTY {
			if i == 0 {
				fmt.Fprintf(ios.Out, "%-10s %-10s %-8s %s\n", "AGENT", "HOOKS", "VERSION", "FILE")
			}
			fmt.Fprintf(ios.Out, "%-10s %-10s %-8s %s\n", st.Agent, st.State, version, st.File)
			if st.Why != "" {
				fmt.Fprintf(ios.Out, "%30s%s (this kittymux installs v%d)\n", "", st.Why, st.Current)
			}
			if st.TrustHow != "" {
				fmt.Fprintf(ios.Out, "%30s%s: %s\n", "", st.Trust, st.TrustHow)
			}
			if st.Warning != "" {
				fmt.Fprintf(ios.Out, "%30s%s\n", "", st.Warning)
			}
			if st.Note != "" && st.State != hookinstall.Missing {
				fmt.Fprintf(ios.Out, "%30s%s\n", "", st.Note)
			}
			continue
		}
		fmt.Fprintf(ios.Out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", st.Agent, st.State, version, st.File, st.Why, st.Trust, st.Warning)
	}
	return nil
}
