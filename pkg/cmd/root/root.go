// Package root assembles kittymux's command tree.
package root

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	agentscmd "github.com/kittymux/kittymux/pkg/cmd/agents"
	"github.com/kittymux/kittymux/pkg/cmd/doctor"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	hookcmd "github.com/kittymux/kittymux/pkg/cmd/hook"
	"github.com/kittymux/kittymux/pkg/cmd/integration"
	"github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/cmd/sessions"
	"github.com/kittymux/kittymux/pkg/cmd/setup"
	versioncmd "github.com/kittymux/kittymux/pkg/cmd/version"
	"github.com/kittymux/kittymux/pkg/version"
)

// NewCmdRoot returns the kittymux command.
func NewCmdRoot(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kittymux",
		Short: "Keep AI coding agents' conversations across kitty restarts",
		Long: `kittymux watches kitty through its remote-control socket, saves kitty's layout with
kitty's own save_as_session, rewrites each agent window's command into its exact resume
command, and asks once in each restored window before it resumes.

Exit codes: 0 ok, 1 error, 2 cancelled or bad usage (an unknown command or flag, a wrong
number of arguments).`,
		Example: `  kittymux setup              # connect kittymux to kitty, once
  kittymux doctor             # what works on the kitty found, and what does not
  kittymux sessions restore last
  kittymux sessions saves`,
		Version:       version.Get().Line("kittymux"),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.PersistentFlags().StringVar(&f.To, "to", "", "kitty socket address (`unix:/path`); default: KITTY_LISTEN_ON, then every running kitty")
	cmd.SetIn(f.IO.In)
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &factory.FlagError{Err: err} })
	cmd.AddCommand(doctor.NewCmdDoctor(f, nil), sessions.NewCmdSessions(f), scanner.NewCmdScanner(f),
		setup.NewCmdSetup(f, nil), hookcmd.NewCmdHook(f), integration.NewCmdIntegration(f, nil),
		agentscmd.NewCmdAgents(f), versioncmd.NewCmdVersion(f))
	cmd.InitDefaultHelpCmd()
	cmd.InitDefaultCompletionCmd()
	strict(cmd)
	return cmd
}

// Grace is how long a command has to end on its own after SIGINT or
// SIGTERM; a second signal ends it at once.
const Grace = 5 * time.Second

// Main runs kittymux with args and returns the exit code. Commands run with
// a context that SIGINT and SIGTERM cancel, so they stop cleanly: a request
// to kitty in flight ends, the scanner writes its journal. One that has not
// ended Grace after the signal (blocked where no context reaches) is ended
// by it, as if kittymux had not caught it.
func Main(f *factory.Factory, args []string) int {
	ctx, stop := watchSignals(Grace, dieBy)
	defer stop()
	cmd := NewCmdRoot(f)
	cmd.SetArgs(args)
	return factory.Report(f.IO.ErrOut, cmd.ExecuteContext(ctx))
}

// watchSignals returns a context that SIGINT and SIGTERM cancel, and stop,
// which the command calls when it has returned. A command that has not
// returned grace after the signal, or at a second signal, is left to
// die(signal).
func watchSignals(grace time.Duration, die func(os.Signal)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	returned := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		var sig os.Signal
		select {
		case <-returned:
			return
		case sig = <-sigs:
		}
		cancel()
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-returned:
		case <-t.C:
			die(sig)
		case again := <-sigs:
			die(again)
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(returned)
		<-watched
		cancel()
	}
}

// dieBy ends the process by sig, with the default action a process that
// never caught it gets (a service manager sees a stop by SIGTERM).
func dieBy(sig os.Signal) {
	signal.Reset(sig)
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second)
	}
	os.Exit(2)
}
