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
func NewCmdRoot(f *factory.Factory) *cobra.Command { return newCmdRoot(f, "") }

// commands are the top-level commands, each by its name.
var commands = []struct {
	name string
	new  func(*factory.Factory) *cobra.Command
}{
	{"doctor", func(f *factory.Factory) *cobra.Command { return doctor.NewCmdDoctor(f, nil) }},
	{"sessions", sessions.NewCmdSessions},
	{"scanner", scanner.NewCmdScanner},
	{"setup", func(f *factory.Factory) *cobra.Command { return setup.NewCmdSetup(f, nil) }},
	{"hook", hookcmd.NewCmdHook},
	{"integration", func(f *factory.Factory) *cobra.Command { return integration.NewCmdIntegration(f, nil) }},
	{"agents", agentscmd.NewCmdAgents},
	{"version", versioncmd.NewCmdVersion},
}

// newCmdRoot returns the kittymux command, with only the top-level command
// named only under it when only is not "": the one a command line runs (see
// Main), so that no other command is made.
func newCmdRoot(f *factory.Factory, only string) *cobra.Command {
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
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.PersistentFlags().StringVar(&f.To, "to", "", "kitty socket address (`unix:/path`); default: KITTY_LISTEN_ON, then every running kitty")
	cmd.SetIn(f.IO.In)
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &factory.FlagError{Err: err} })
	for _, c := range commands {
		if only == "" || c.name == only {
			cmd.AddCommand(c.new(f))
		}
	}
	if only == "" {
		cmd.Version = version.Get().Line("kittymux")
		cmd.SetVersionTemplate("{{.Version}}\n")
		cmd.InitDefaultHelpCmd()
		cmd.InitDefaultCompletionCmd()
	} else {
		// The command line names another command: none of the root's own
		// (help, completion, --version) can run.
		cmd.CompletionOptions.DisableDefaultCmd = true
	}
	strict(cmd)
	return cmd
}

// only is the top-level command args run when the first of them names one:
// the rest of the command line is that command's (flags of the root, such
// as --to, are inherited by every command and so are still known). "" when
// args start otherwise (a flag, help, completion, a mistyped name), which
// needs the whole tree.
func only(args []string) string {
	if len(args) == 0 {
		return ""
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.name
		}
	}
	return ""
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
	cmd := newCmdRoot(f, only(args))
	cmd.SetArgs(args)
	return factory.ReportHint(f.IO.ErrOut, cmd.ExecuteContext(ctx), f.ConfHint())
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
