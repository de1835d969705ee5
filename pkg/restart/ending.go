package restart

import (
	"strings"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
)

// EndingOf returns how agent ends cleanly: its own way where it has one
// (agents.Code.Ending: read in the installed CLI and checked by a real
// run), else SIGTERM, what a session manager sends first.
func EndingOf(agent string) agents.Ending {
	if c := agents.CodeOf(agent); c != nil && c.Ending != nil {
		return *c.Ending
	}
	return agents.Ending{Signal: syscall.SIGTERM}
}

// Endings says how each agent ends, for the help: "claude: SIGINT; codex:
// typed /quit; others: SIGTERM".
func Endings() string {
	var b strings.Builder
	for _, c := range agents.Codes() {
		if c.Ending != nil {
			b.WriteString(c.Name + ": " + c.Ending.String() + "; ")
		}
	}
	return b.String() + "others: " + EndingOf("").String()
}

// Bounds are how long each step of ending an agent may take.
type Bounds struct {
	// Clean is the wait for the agent's own clean way: it writes its
	// conversation and runs its end hooks.
	Clean time.Duration
	// Term and Kill are the waits after SIGTERM and SIGKILL, the steps
	// taken when the clean way does not end it.
	Term, Kill time.Duration
	// Start is the wait for the restarted agent to show in the window.
	Start time.Duration
}

// DefaultBounds are generous: claude runs its SessionEnd hooks on the way
// out, and a node CLI can take seconds to start.
var DefaultBounds = Bounds{Clean: 15 * time.Second, Term: 5 * time.Second, Kill: 3 * time.Second, Start: 60 * time.Second}
