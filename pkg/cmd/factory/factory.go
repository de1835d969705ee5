// Package factory holds what every command needs: IO streams, paths, and
// lazily made clients, so that `--help` never dials a socket.
package factory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
)

// IOStreams are the command's standard streams.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// IsTTY says whether Out is a terminal: tables with headers on a TTY,
	// tab-separated lines without one.
	IsTTY bool
}

// CanAsk says whether a person can answer a question: In and Out are both
// terminals.
func (s *IOStreams) CanAsk() bool {
	f, ok := s.In.(*os.File)
	return s.IsTTY && ok && term.IsTerminal(int(f.Fd()))
}

// PrintJSON prints v as the commands' --json print it: indented by two
// spaces, one value.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, IsTTY: term.IsTerminal(int(os.Stdout.Fd()))}
}

// Factory is handed to every command constructor.
type Factory struct {
	IO     *IOStreams
	Paths  paths.Paths
	Getenv func(string) string
	// To is the --to address given on the command line, if any.
	To string
	// Executable is the path of the running kittymux binary; the resume
	// prompt binary is looked for beside it.
	Executable string
	// Discover finds running kitties; tests replace it.
	Discover func(ctx context.Context) ([]kitty.Instance, error)
	// OwnKitties: Discover leaves out the kitties of another kittymux (a
	// kitty started with another HOME whose environment names another
	// state directory): the scanner, which acts in every kitty it finds on
	// its own (offers, autosaves), sets it. A command acts where it is told.
	OwnKitties bool
	// Programs are the kitties running, with a socket or not (setup
	// describes them); nil in tests unless they set it.
	Programs func(ctx context.Context) []kitty.Instance
	// AskTimeout is how long each kitty has to answer when several are
	// asked at once; 0 is kitty.AskTimeout.
	AskTimeout time.Duration

	// What New fills below is made on first use, and once: a command that
	// needs none of it pays nothing.

	// Agents are the shipped and user agent definitions; a bad user file
	// is reported, and the shipped definitions still work.
	Agents func() (*agents.Set, error)
	// ResumeBin is the restore prompt binary put into published files.
	ResumeBin func() (string, error)
	// SealKey is the key that seals restore records, made the first time.
	SealKey func() ([]byte, error)
	// Probes checks the agents named (save.Probes), with
	// KITTYMUX_PROBE_TIMEOUT as the deadline when it is set.
	Probes func(ctx context.Context, set *agents.Set, names []string) probe.Probes
}

// New returns a Factory for the real system.
func New() *Factory {
	f := &Factory{IO: System(), Paths: paths.FromEnv(), Getenv: os.Getenv}
	f.Executable, _ = os.Executable()
	f.Discover = f.discover
	f.Programs = func(ctx context.Context) []kitty.Instance {
		return kitty.Programs(ctx, kitty.DiscoverOptions{Getenv: f.Getenv})
	}
	f.lazy()
	return f
}

// Target is the --to address, read when the command runs (after its flags
// are parsed), "" when none was given.
func (f *Factory) Target() string { return f.To }

func (f *Factory) discover(ctx context.Context) ([]kitty.Instance, error) {
	if f.To != "" {
		a, err := kitty.ParseAddress(f.To)
		if err != nil {
			return nil, &FlagError{Err: fmt.Errorf("--to: %w", err)}
		}
		return []kitty.Instance{{Addr: a, Socket: a.String(), Source: "--to"}}, nil
	}
	o := kitty.DiscoverOptions{Getenv: f.Getenv}
	if f.OwnKitties {
		o.StateDir = f.Paths.StateDir
	}
	return kitty.Discover(ctx, o)
}

// Kitties returns the kitties a command acts on. A kitty that --to or
// KITTY_LISTEN_ON names is the only one: a failure there is that kitty's to
// report, never a reason to act on another kitty. Otherwise every kitty found
// but the utility ones (panels, the quick-access terminal).
func (f *Factory) Kitties(ctx context.Context) ([]kitty.Instance, error) {
	all, err := f.Discover(ctx)
	if err != nil {
		return nil, err
	}
	for _, in := range all {
		if !named(in) {
			continue
		}
		if in.Utility != "" {
			return nil, fmt.Errorf("the kitty at %s (%s) is a %s kitty, which kittymux leaves alone: pick another with --to", in.Addr, in.Source, in.Utility)
		}
		return []kitty.Instance{in}, nil
	}
	var out []kitty.Instance
	for _, in := range all {
		if in.Utility == "" {
			out = append(out, in)
		}
	}
	if len(out) == 0 {
		return nil, ErrNoKitty
	}
	return out, nil
}

// named reports a kitty that --to or KITTY_LISTEN_ON names.
func named(in kitty.Instance) bool {
	return in.Source == "--to" || in.Source == "KITTY_LISTEN_ON"
}

// ErrNoKitty: no kitty with remote control was found.
var ErrNoKitty = errors.New("no running kitty with remote control found")

// LookPath finds an executable on the PATH of the command's environment
// (Getenv), which tests set without touching the process's own.
func (f *Factory) LookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		return exec.LookPath(name)
	}
	for _, dir := range filepath.SplitList(f.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}
