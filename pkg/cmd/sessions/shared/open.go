package shared

import (
	"context"
	"fmt"
	"os/exec"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/kitty"
)

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
			q, err := syntax.Quote(path, syntax.LangPOSIX)
			if err != nil {
				return "", err
			}
			err = kitty.NewClient(in.Addr).Action(ctx, "goto_session "+q)
			if err == nil {
				return "the kitty at " + in.Socket, nil
			}
			// A kitty of unknown version that lacks goto_session gets a
			// new kitty like any older one.
			if !kitty.IsUnknownCommand(err) {
				return "", fmt.Errorf("goto_session %s: %w", path, err)
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

// StartKitty starts a new kitty on a session file.
func StartKitty(kittyPath, session string) error {
	return exec.Command(kittyPath, "--detach", "--session", session).Run()
}
