package factory

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/setup"
)

// Exit codes: 0 ok, 1 error, 2 cancelled or bad usage.
const (
	ExitOK     = 0
	ExitError  = 1
	ExitCancel = 2
)

// FlagError is bad usage: exit 2.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// SilentError carries an exit code for an error that was already reported.
type SilentError struct{ Code int }

func (e *SilentError) Error() string { return fmt.Sprintf("exit %d", e.Code) }

// ErrCancel: the user cancelled: exit 2.
var ErrCancel = errors.New("cancelled")

// ConfHint is what kitty.conf needs for kittymux to reach kitty, with the
// socket `kittymux setup` would write (setup.ListenOn: in a directory only
// the user can write).
func ConfHint(p paths.Paths, getenv func(string) string) string {
	listen, err := setup.ListenOn(p, getenv)
	if err != nil {
		listen = "unix:<a directory only you can write>/kitty"
	}
	return `kittymux talks to kitty over its remote-control socket. Run ` + "`kittymux setup`" + `, or add to kitty.conf:
    allow_remote_control socket-only
    listen_on ` + listen + `
then restart kitty and run ` + "`kittymux doctor`"
}

// ConfHint is ConfHint for f's paths and environment.
func (f *Factory) ConfHint() string { return ConfHint(f.Paths, f.Getenv) }

// Report prints err with a hint where one helps and returns the exit code,
// the hint on kitty.conf for this process's paths and environment.
func Report(w io.Writer, err error) int {
	return ReportHint(w, err, ConfHint(paths.FromEnv(), os.Getenv))
}

// ReportHint is Report with confHint as the hint on kitty.conf. It is the
// one place where errors become exit codes and hints.
func ReportHint(w io.Writer, err error, confHint string) int {
	if err == nil {
		return ExitOK
	}
	var silent *SilentError
	if errors.As(err, &silent) {
		return silent.Code
	}
	if errors.Is(err, ErrCancel) {
		return ExitCancel
	}
	// Errors carry kitty's own text (and socket paths from the
	// environment): never let an escape sequence in them reach the terminal.
	fmt.Fprintf(w, "kittymux: %s\n", kitty.Printable(err.Error()))
	var flagErr *FlagError
	switch {
	case errors.As(err, &flagErr):
		return ExitCancel
	case errors.Is(err, kitty.ErrNotYours):
		// Another user's socket: what to do is in the error (listen_on in
		// a directory only you can write), not in setting up remote control.
	case errors.Is(err, ErrNoKitty), errors.Is(err, kitty.ErrNoSocket), errors.Is(err, kitty.ErrRefused):
		fmt.Fprintln(w, confHint)
	case errors.Is(err, kitty.ErrTimeout):
		fmt.Fprintln(w, "kitty did not answer; is it busy or stopped? run `kittymux doctor`")
	}
	return ExitError
}
