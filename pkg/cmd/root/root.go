// Package root assembles kittymux's command tree.
package root

import (
	"context"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/doctor"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	hookcmd "github.com/kittymux/kittymux/pkg/cmd/hook"
	"github.com/kittymux/kittymux/pkg/cmd/integration"
	"github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/cmd/sessions"
	"github.com/kittymux/kittymux/pkg/cmd/setup"
)

// NewCmdRoot returns the kittymux command.
func NewCmdRoot(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kittymux",
		Short: "Keep AI coding agents' conversations across kitty restarts",
		Long: `kittymux watches kitty through its remote-control socket, saves kitty's layout with
kitty's own save_as_session, rewrites each agent window's command into its exact resume
command, and asks once in each restored window before it resumes.

Exit codes: 0 ok, 1 error, 2 cancelled or bad usage.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.PersistentFlags().StringVar(&f.To, "to", "", "kitty socket address (`unix:/path`); default: KITTY_LISTEN_ON, then every running kitty")
	cmd.SetIn(f.IO.In)
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &factory.FlagError{Err: err} })
	cmd.AddCommand(doctor.NewCmdDoctor(f, nil), sessions.NewCmdSessions(f), scanner.NewCmdScanner(f),
		setup.NewCmdSetup(f, nil), hookcmd.NewCmdHook(f), integration.NewCmdIntegration(f, nil))
	return cmd
}

// Main runs kittymux with args and returns the exit code. Commands run with
// a context that SIGINT and SIGTERM cancel, so they stop cleanly: a request
// to kitty in flight ends, the scanner writes its journal.
func Main(f *factory.Factory, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	cmd := NewCmdRoot(f)
	cmd.SetArgs(args)
	return factory.Report(f.IO.ErrOut, cmd.ExecuteContext(ctx))
}
