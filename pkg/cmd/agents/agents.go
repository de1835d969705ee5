// Package agents holds `kittymux agents`: commands that act on the running
// agents themselves.
package agents

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/restart"
)

// NewCmdAgents returns `kittymux agents`.
func NewCmdAgents(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "Act on the running agents: restart them in place",
		Example: `  kittymux agents restart --dry-run
  kittymux agents restart --agent claude`,
	}
	cmd.AddCommand(NewCmdRestart(f, nil), newCmdWaitExec())
	return cmd
}

// newCmdWaitExec is what runs in the place of an agent started without a
// shell while `restart` ends it: it waits for the agent's process to end,
// then becomes the restore prompt. Not for people.
func newCmdWaitExec() *cobra.Command {
	var pid int
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:     "wait-exec --pid PID -- KITTYMUX-RESUME ARGS...",
		Short:   "Wait for a process to end, then run the restore prompt (used by agents restart)",
		Example: `  kittymux agents wait-exec --pid 4242 -- kittymux-resume --agent claude --mode exact --id ID -- claude`,
		Hidden:  true,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pid <= 0 {
				return &factory.FlagError{Err: fmt.Errorf("--pid %s is not a process id", strconv.Itoa(pid))}
			}
			err := restart.WaitExec(cmd.Context(), pid, args, timeout)
			// Still here: nothing ran. Say so where the user looks, and
			// give them a moment to read it before kitty closes the window.
			fmt.Fprintf(os.Stderr, "kittymux: %v\n", err)
			time.Sleep(5 * time.Second)
			return err
		},
	}
	cmd.Flags().IntVar(&pid, "pid", 0, "the process to wait for")
	cmd.Flags().DurationVar(&timeout, "timeout", time.Minute, "how long to wait for it")
	return cmd
}
