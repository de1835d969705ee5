// Package shared holds what several `kittymux sessions` commands use: the
// kitty a command acts on and opening a session file in it, the completion
// of save names, and what a save prints.
package shared

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/kitty"
)

// Target is how a command finds the kitty it acts on.
type Target struct {
	// To is the --to address, read when the command runs; "" when none
	// was given.
	To         func() string
	Getenv     func(string) string
	Kitties    func(context.Context) ([]kitty.Instance, error)
	AskTimeout time.Duration
}

// TargetFrom is the Target of f.
func TargetFrom(f *factory.Factory) Target {
	return Target{To: f.Target, Getenv: f.Getenv, Kitties: f.Kitties, AskTimeout: f.AskTimeout}
}

// KittyNamed says whether a kitty is named: by --to, or as the kitty the
// command runs in (KITTY_LISTEN_ON).
func (t Target) KittyNamed() bool {
	return t.To() != "" || t.Getenv("KITTY_LISTEN_ON") != ""
}

// OneKitty picks the kitty a command acts on: --to, the kitty we run
// inside, or the only one running.
func (t Target) OneKitty(ctx context.Context) (kitty.Instance, error) {
	insts, err := t.Kitties(ctx)
	if err != nil {
		return kitty.Instance{}, err
	}
	if len(insts) > 1 {
		// Where processes cannot be read (macOS) a panel or the
		// quick-access terminal is known only by its ls.
		var plain []kitty.Instance
		for _, a := range kitty.LSAll(ctx, insts, t.AskTimeout) {
			if a.Instance.Utility == "" {
				plain = append(plain, a.Instance)
			}
		}
		if len(plain) == 1 {
			return plain[0], nil
		}
	}
	if len(insts) > 1 {
		var names []string
		for _, in := range insts {
			names = append(names, in.Socket)
		}
		return kitty.Instance{}, &factory.FlagError{Err: fmt.Errorf("%d kitties are running (%s): pick one with --to", len(insts), strings.Join(names, ", "))}
	}
	return insts[0], nil
}

// NeedVersion refuses a kitty known to be older than a feature needs.
func NeedVersion(in kitty.Instance, what string, v kitty.Version) error {
	if !in.Version.IsZero() && !in.Version.AtLeast(v) {
		return fmt.Errorf("%s needs kitty %s or newer; the kitty at %s is %s", what, v, in.Addr, in.Version)
	}
	return nil
}

// OpenBasic opens a session file written with the basic directives only
// (recover, templates): inside kitty (or with --to) through goto_session
// when that kitty has it (0.43 or newer), else in a new kitty started with
// --session, which every kitty since 0.26.5 loads. It returns where it
// opened, for the message.
func OpenBasic(ctx context.Context, t Target, lookPath func(string) (string, error), start func(kittyPath, session string) error, path string) (string, error) {
	if t.KittyNamed() {
		in, err := t.OneKitty(ctx)
		if err != nil {
			return "", err
		}
		if in.Version.IsZero() || in.Version.AtLeast(kitty.VersionSaveAsSession) {
			err = kitty.NewClient(in.Addr).GotoSession(ctx, path)
			if err == nil {
				return "the kitty at " + in.Socket, nil
			}
			// A kitty of unknown version that lacks goto_session gets a
			// new kitty like any older one.
			if !kitty.IsUnknownCommand(err) {
				return "", err
			}
		}
	}
	kp, err := lookPath("kitty")
	if err != nil {
		return "", fmt.Errorf("no kitty on PATH to start: %w", err)
	}
	if err := start(kp, path); err != nil {
		return "", fmt.Errorf("start kitty: %w", err)
	}
	return "a new kitty", nil
}
