// Package hook is `kittymux hook AGENT EVENT`, what agents' hooks run.
package hook

import (
	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/hookrun"
	"github.com/kittymux/kittymux/pkg/lease"
)

// NewCmdHook returns `kittymux hook`. cmd/kittymux runs hookrun.Main before
// building the command tree; this command is what --help shows and what a
// call through the tree runs.
func NewCmdHook(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "hook AGENT EVENT",
		Short:   "Record an agent's hook event (called by the hooks `integration install` adds)",
		Example: `  echo '{"session_id": "..."}' | kittymux hook claude SessionStart`,
		Long: `Called by an agent's own hooks with the event's JSON on stdin: records the conversation id
and the state (SessionStart, UserPromptSubmit or BeforeAgent, Stop or AfterAgent) of the kitty
window it runs in (KITTY_WINDOW_ID, KITTY_PID, KITTY_LISTEN_ON) in the journal, and on kitty
≥ 0.30 sets the window's kittymux_session user var.

It never fails the agent: it exits 0 whatever happens and logs errors to hook.log in the
state directory.

Exit codes: 0 always.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Flags are the agent's to pass, so cobra does not see --help.
			if len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
				return cmd.Help()
			}
			hookrun.Main(args, f.IO.In, lease.Move)
			return nil
		},
	}
}
