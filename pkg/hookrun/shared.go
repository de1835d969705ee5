package hookrun

import (
	"errors"

	"github.com/kittymux/kittymux/pkg/agents"
)

// ErrSharedServer: the hook was run by a server process that serves every
// window of its agent, not by the agent in one window. codex 0.171.0 runs
// its TUIs through one app-server daemon by default (`codex app-server
// --managed-daemon`), and the daemon runs every thread's hooks: their
// environment is the daemon's, whose KITTY_WINDOW_ID is the window that
// happened to start it, and their parents lead to that window while its
// codex lives. Such a hook names no window, so it records nothing: taken
// at its word it would give one window every other window's conversation.
var ErrSharedServer = errors.New("run by the agent's shared server, not by the agent in a window: which window is unknown")

// sharedServer returns the pid of the first of procs that is an agent's
// shared server, or 0. cmdline reads a process's argv (nil where the OS
// gives none).
// Only a process named like an agent that has one (agents.Code.SharedServer)
// is read.
func sharedServer(procs []Proc, cmdline func(int) []string) int {
	for _, p := range procs {
		c := agents.CodeOf(p.Comm)
		if c == nil || c.SharedServer == nil {
			continue
		}
		if c.SharedServer(cmdline(p.PID)) {
			return p.PID
		}
	}
	return 0
}
