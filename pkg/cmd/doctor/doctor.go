// Package doctor implements `kittymux doctor`: what kittymux can reach and use.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	integrationcmd "github.com/kittymux/kittymux/pkg/cmd/integration"
	"github.com/kittymux/kittymux/pkg/hookinstall"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/setup"
)

// Options of `kittymux doctor`.
type Options struct {
	IO         *factory.IOStreams
	Paths      paths.Paths
	Getenv     func(string) string
	Executable string
	LookPath   func(string) (string, error)
	Discover   func(context.Context) ([]kitty.Instance, error)
	AskTimeout time.Duration

	JSON bool
}

// From fills o with what doctor takes from f.
func (o Options) From(f *factory.Factory) *Options {
	o.IO, o.Paths, o.Getenv, o.Executable, o.LookPath = f.IO, f.Paths, f.Getenv, f.Executable, f.LookPath
	o.Discover, o.AskTimeout = f.Discover, f.AskTimeout
	return &o
}

// NewCmdDoctor returns the doctor command; runF replaces the run in tests.
func NewCmdDoctor(f *factory.Factory, runF func(*Options) error) *cobra.Command {
	o := Options{}.From(f)
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check kitty, remote control, features, the state directory and the scanner",
		Example: `  kittymux doctor
  kittymux doctor --json | jq .kitties
  kittymux doctor --to unix:/tmp/kitty-12345`,
		Long: `Check each running kitty (socket, pid, version, remote control reachable), which features
its version has and what works on it (save, autosave and restore need kitty 0.43 or newer, the
quit capture 0.46.2), the state directory and its permissions, and the scanner. With no kitty
running it tells the same of the kitty installed on PATH.

Exit codes: 0 every kitty found is reachable, 1 no kitty can be reached.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return Run(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the report as JSON")
	return cmd
}

// Report is doctor's JSON output; field names are stable.
type Report struct {
	OK       bool          `json:"ok"`
	Kitties  []KittyReport `json:"kitties"`
	StateDir DirReport     `json:"state_dir"`
	Scanner  ScannerReport `json:"scanner"`
	Agents   AgentsReport  `json:"agents"`
	// Setup is each part `kittymux setup` puts in place: include, remote
	// control, socket, watcher, scanner, autosave.
	Setup []setup.Part `json:"setup"`
	// Integrations are the agents' hooks (`kittymux integration status`).
	Integrations []hookinstall.Status `json:"integrations"`
	// Retention is how long each installed agent keeps its conversations.
	Retention []RetentionReport `json:"retention"`
	// ScreenHistory is whether saves keep what plain windows show, and
	// how much they keep.
	ScreenHistory HistoryReport `json:"screen_history"`
	// Installed is the kitty on PATH, told of when no kitty runs.
	Installed *InstalledKitty `json:"installed_kitty,omitempty"`
	Hint      string          `json:"hint,omitempty"`
}

// InstalledKitty is the kitty installed on PATH and what works on it.
type InstalledKitty struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	Works   string `json:"works"`
}

// AgentsReport is the agent CLIs found on PATH.
type AgentsReport struct {
	// Installed are the defined agents found on PATH, with their probe.
	Installed []probe.AgentCheck `json:"installed"`
	// Failing are installed agents whose probe failed or lacks a flag:
	// their windows are saved as they were.
	Failing []string `json:"failing"`
	// Undefined are agent CLIs on PATH that kittymux has no definition for.
	Undefined []string `json:"undefined"`
	// IDLimits say, per installed agent, why its windows in their usual
	// form get no exact id (codex's shared daemon).
	IDLimits map[string]string `json:"id_limits,omitempty"`
	// Chooses are the installed agents whose windows, where kittymux
	// cannot know which conversation one held, come back with the choosing
	// prompt (their conversations listed from their own files).
	Chooses []string `json:"chooses"`
	// DefinitionsError is a problem in the user's resume.json.
	DefinitionsError string `json:"definitions_error,omitempty"`
	// CheckedAt is when the report was made; each agent's checked_at is
	// when its probe ran (earlier for a cached one).
	CheckedAt time.Time `json:"checked_at,omitzero"`
}

// KittyReport is one kitty instance.
type KittyReport struct {
	Socket    string                   `json:"socket"`
	Source    string                   `json:"source"`
	PID       int                      `json:"pid,omitempty"`
	Exe       string                   `json:"exe,omitempty"`
	Version   string                   `json:"version"`
	Utility   string                   `json:"utility,omitempty"`
	Reachable bool                     `json:"reachable"`
	Error     string                   `json:"error,omitempty"`
	Windows   int                      `json:"windows"`
	Features  map[string]FeatureReport `json:"features"`
	// Works says which parts of kittymux work on this kitty's version and
	// which need a newer kitty.
	Works string `json:"works"`
	// Remote says of each window running ssh to an agent what a restore
	// does with it (remote.go).
	Remote []string `json:"remote,omitempty"`
}

// FeatureReport says whether a kitty has a feature, and which version has it.
type FeatureReport struct {
	Available bool   `json:"available"`
	Needs     string `json:"needs"`
}

// DirReport is the state directory.
type DirReport struct {
	Path    string `json:"path"`
	Exists  bool   `json:"exists"`
	Mode    string `json:"mode,omitempty"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

// ScannerReport is the background scanner, from the same lock and status
// file as `scanner status`, and its journal.
type ScannerReport struct {
	Running bool   `json:"running"`
	Note    string `json:"note"`
	PID     int    `json:"pid,omitempty"`
	// Status is the scanner's last status (kitties and their polls).
	Status   *scanner.Status `json:"status,omitempty"`
	Journal  JournalReport   `json:"journal"`
	Autosave AutosaveReport  `json:"autosave"`
	Offer    OfferReport     `json:"offer"`
}

// Run checks everything and prints the report.
func Run(ctx context.Context, o *Options) error {
	r := Report{Kitties: []KittyReport{}}
	insts, err := o.Discover(ctx)
	if err != nil {
		return err
	}
	reachable := 0
	// Every kitty is asked at once, each with its own deadline: hung ones
	// cost one deadline together.
	for _, a := range kitty.LSAll(ctx, insts, o.AskTimeout) {
		k := kittyReport(a)
		k.Remote = remoteNotes(o, a)
		if k.Reachable && k.Utility == "" {
			reachable++
		}
		r.Kitties = append(r.Kitties, k)
	}
	r.StateDir = checkDir(o.Paths.StateDir)
	r.Scanner = checkScanner(o)
	if !slices.ContainsFunc(r.Kitties, func(k KittyReport) bool { return k.Utility == "" }) {
		r.Installed = installedKitty(ctx, o)
	}
	r.Scanner.Autosave = checkAutosave(o, r.Kitties, r.Installed, r.Scanner)
	r.Scanner.Offer = checkOffer(o, r.Scanner)
	r.Agents = checkAgents(ctx, o)
	r.Setup = checkSetup(ctx, o, r.Scanner.Running)
	r.Integrations = checkIntegrations(o)
	r.Retention = checkRetention(o, r.Agents.Installed)
	r.ScreenHistory = checkHistory(o)
	r.OK = reachable > 0
	if !r.OK {
		r.Hint = factory.ConfHint(o.Paths, o.Getenv)
	}
	if o.JSON {
		if err := factory.PrintJSON(o.IO.Out, r); err != nil {
			return err
		}
	} else {
		printText(o.IO.Out, r)
	}
	if !r.OK {
		if o.JSON {
			return &factory.SilentError{Code: factory.ExitError}
		}
		return fmt.Errorf("%w", factory.ErrNoKitty)
	}
	return nil
}

// installedKitty is the kitty on PATH with its version, or nil.
func installedKitty(ctx context.Context, o *Options) *InstalledKitty {
	if o.LookPath == nil {
		return nil
	}
	exe, err := o.LookPath("kitty")
	if err != nil {
		return nil
	}
	v, _ := kitty.VersionOfExe(ctx, exe)
	return &InstalledKitty{Path: exe, Version: v.String(), Works: v.WhatWorks()}
}

func kittyReport(a kitty.Answer) KittyReport {
	in := a.Instance
	k := KittyReport{Socket: in.Socket, Source: in.Source, PID: in.PID, Exe: in.Exe, Version: in.Version.String(),
		Utility: in.Utility, Features: map[string]FeatureReport{}, Works: in.Version.WhatWorks()}
	for _, f := range in.Version.Features() {
		k.Features[f.Name] = FeatureReport{Available: f.Have, Needs: f.Need}
	}
	if a.Err != nil {
		k.Error = kitty.Printable(a.Err.Error())
		return k
	}
	k.Reachable = true
	k.Windows = len(kitty.Windows(a.LS))
	return k
}

func checkAgents(ctx context.Context, o *Options) AgentsReport {
	ar := AgentsReport{Installed: []probe.AgentCheck{}, Failing: []string{}, Undefined: []string{}, Chooses: []string{}}
	set, err := agents.Load(o.Paths.UserAgents())
	if err != nil {
		ar.DefinitionsError = err.Error()
	}
	if set == nil {
		return ar
	}
	ar.Undefined = append(ar.Undefined, set.UndefinedAgents(filepath.SplitList(o.Getenv("PATH")))...)
	opt := probe.CheckOptionsFor(o.Paths)
	opt.LookPath = o.LookPath
	// doctor must not stall on a hung CLI either; `sessions check` waits longer.
	opt.Timeout = probe.CommandProbeTimeout
	rep, err := probe.Check(ctx, set, opt)
	if err != nil {
		ar.DefinitionsError = err.Error()
		return ar
	}
	ar.CheckedAt = rep.CheckedAt
	for _, a := range rep.Agents {
		if !a.Installed {
			continue
		}
		ar.Installed = append(ar.Installed, a)
		// The agent as typed plainly (no flags).
		if why := live.IDLimit(a.Agent, nil); why != "" {
			if ar.IDLimits == nil {
				ar.IDLimits = map[string]string{}
			}
			ar.IDLimits[a.Agent] = why
		}
		if set.Chooses(a.Agent) {
			ar.Chooses = append(ar.Chooses, a.Agent)
		}
		if !a.OK {
			ar.Failing = append(ar.Failing, a.Agent)
		}
	}
	return ar
}

// probeAge says when an agent's probe ran: now, or how long ago its cached
// result was taken.
func probeAge(now time.Time, a probe.AgentCheck) string {
	if !a.Cached || now.IsZero() {
		return "probed now"
	}
	return "probed " + now.Sub(a.CheckedAt).Round(time.Second).String() + " ago, cached"
}

func checkDir(path string) DirReport {
	d := DirReport{Path: path}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.OK = true
		d.Problem = "does not exist yet (made with mode 0700 on first save)"
		return d
	case err != nil:
		d.Problem = err.Error()
		return d
	}
	d.Exists = true
	d.Mode = fmt.Sprintf("%04o", fi.Mode().Perm())
	switch {
	case !fi.IsDir():
		d.Problem = "is not a directory"
	case fi.Mode().Perm()&0o077 != 0:
		d.Problem = fmt.Sprintf("mode %s lets other users read it; want 0700 (chmod 700 %s)", d.Mode, path)
	default:
		d.OK = true
	}
	return d
}

func printText(w io.Writer, r Report) {
	printKitties(w, r.Kitties)
	if k := r.Installed; k != nil {
		fmt.Fprintf(w, "  installed: kitty %s (%s): %s\n", k.Version, kitty.Printable(k.Path), k.Works)
	}
	sd := "ok"
	if !r.StateDir.OK {
		sd = "PROBLEM: " + r.StateDir.Problem
	} else if r.StateDir.Problem != "" {
		sd = r.StateDir.Problem
	}
	fmt.Fprintf(w, "state dir  %s  %s %s\n", r.StateDir.Path, r.StateDir.Mode, sd)
	fmt.Fprintf(w, "scanner    %s\n", r.Scanner.Note)
	fmt.Fprintf(w, "journal    %s\n", r.Scanner.Journal.Note)
	fmt.Fprintf(w, "autosave   %s\n", r.Scanner.Autosave.Note)
	for _, k := range r.Scanner.Autosave.Kitties {
		fmt.Fprintf(w, "  kitty %s  %s\n", kitty.Printable(k.Socket), k.Note)
	}
	fmt.Fprintf(w, "offer      %s\n", r.Scanner.Offer.Note)
	fmt.Fprintf(w, "history    %s\n", r.ScreenHistory.Note)
	printSetup(w, r.Setup)
	printAgents(w, r.Agents)
	printRetention(w, r.Retention)
	for _, st := range r.Integrations {
		printIntegration(w, st)
	}
}

// printKitties prints each kitty: how it was found, whether it answers,
// and which features its version has.
func printKitties(w io.Writer, ks []KittyReport) {
	if len(ks) == 0 {
		fmt.Fprintln(w, "kitty: none found with a remote-control socket")
	}
	for _, k := range ks {
		state := "reachable"
		if !k.Reachable {
			state = "NOT reachable: " + k.Error
		}
		fmt.Fprintf(w, "kitty %s  %s", k.Version, kitty.Printable(k.Socket))
		if k.PID > 0 {
			fmt.Fprintf(w, "  pid %d", k.PID)
		}
		fmt.Fprintf(w, "  (%s)\n", k.Source)
		if k.Utility != "" {
			fmt.Fprintf(w, "  %s: a utility kitty, left out\n", k.Utility)
			continue
		}
		fmt.Fprintf(w, "  remote control  %s", state)
		if k.Reachable {
			fmt.Fprint(w, ", "+offer.Count(k.Windows, "window"))
		}
		fmt.Fprintln(w)
		for _, n := range k.Remote {
			fmt.Fprintf(w, "  remote agent    %s\n", kitty.Printable(n))
		}
		fmt.Fprintf(w, "  kitty %s: %s\n", k.Version, k.Works)
		for _, name := range []string{"save_as_session", "goto_session", "user_vars", "on_quit"} {
			f := k.Features[name]
			if f.Available {
				fmt.Fprintf(w, "  %-16s yes\n", name)
			} else {
				fmt.Fprintf(w, "  %-16s no (needs kitty %s)\n", name, f.Needs)
			}
		}
	}
}

// printAgents prints each installed agent with its probe, the agent CLIs
// on PATH without a definition, and a problem in the definitions.
func printAgents(w io.Writer, ar AgentsReport) {
	for _, a := range ar.Installed {
		state := "ok"
		switch {
		case a.TimedOut:
			state = "probe timed out: " + a.Error + "; its windows are saved as they were (`kittymux sessions check` waits longer)"
		case a.Error != "":
			state = "probe failed: " + a.Error
		case len(a.Missing) > 0:
			state = fmt.Sprintf("probe lacks %v: its windows are saved as they were", a.Missing)
		}
		fmt.Fprintf(w, "agent      %-12s %s %s  %s (%s)\n", a.Agent, a.Version, a.Path, state, probeAge(ar.CheckedAt, a))
		if why := ar.IDLimits[a.Agent]; why != "" {
			fmt.Fprintf(w, "           %s\n", why)
		}
		if slices.Contains(ar.Chooses, a.Agent) {
			fmt.Fprintf(w, "           a window whose conversation kittymux cannot know (several in one directory, no id) comes back asking which: the restore lists %s's conversations there; its hooks or its own records make it exact\n", a.Agent)
		}
	}
	for _, name := range ar.Undefined {
		fmt.Fprintf(w, "agent      %-12s on PATH, but kittymux has no definition for it (add one to resume.json)\n", name)
	}
	if ar.DefinitionsError != "" {
		fmt.Fprintf(w, "agents     PROBLEM: %s\n", ar.DefinitionsError)
	}
}

// printIntegration prints one agent's hooks.
func printIntegration(w io.Writer, st hookinstall.Status) {
	line := fmt.Sprintf("hooks      %-12s %s", st.Agent, st.State)
	if st.State != hookinstall.Missing {
		line += fmt.Sprintf(" v%d", st.Version)
	}
	line += "  " + st.File
	switch {
	case st.State == hookinstall.Outdated:
		line += fmt.Sprintf(": %s; this kittymux installs v%d (`kittymux integration install %s`)", st.Why, st.Current, st.Agent)
	case st.Why != "":
		line += ": " + st.Why
	}
	if st.Trust != "" {
		line += "; " + st.Trust
		if st.TrustHow != "" {
			line += ": " + st.TrustHow
		}
	}
	if st.Warning != "" {
		line += "; " + st.Warning
	}
	fmt.Fprintln(w, line)
	if st.Note != "" && st.State != hookinstall.Missing {
		fmt.Fprintf(w, "           %s\n", st.Note)
	}
}

// checkIntegrations is the hooks of the agents installed here (and of any
// agent whose hooks kittymux installed).
func checkIntegrations(o *Options) []hookinstall.Status {
	env := integrationcmd.Env(o.Getenv, o.Executable)
	out := []hookinstall.Status{}
	if env.Home == "" {
		return out
	}
	detected := map[string]bool{}
	for _, a := range hookinstall.Detect(env, o.LookPath) {
		detected[a.Name] = true
	}
	jf := integrationcmd.Journal(o.Paths, o.Getenv)
	for _, a := range hookinstall.Agents() {
		st := hookinstall.StatusOf(a, env)
		hookinstall.Check(&st, a, env, jf, time.Now())
		if detected[a.Name] || st.State != hookinstall.Missing {
			out = append(out, st)
		}
	}
	return out
}
