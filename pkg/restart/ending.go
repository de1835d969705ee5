package restart

import (
	"syscall"
	"time"
)

// Ending is how an agent CLI ends cleanly: what it does on that writes its
// conversation and gives the terminal back as it found it.
type Ending struct {
	// Signal is sent to the agent's outermost process; 0 when the agent
	// ends on a typed command instead.
	Signal syscall.Signal
	// Typed is the command typed into the window, then Enter once it
	// shows.
	Typed, Enter string
}

func (e Ending) String() string {
	if e.Signal != 0 {
		return signalName(e.Signal)
	}
	return "typed " + e.Typed
}

// endings are the agents whose clean way was read in the installed CLI and
// checked by a real run; any other agent gets SIGTERM, what a session
// manager sends first.
//   - claude 2.1.197: its SIGINT handler (in its bundle) shuts down as
//     /exit does, exit status 0, and removes its sessions/<pid>.json;
//     SIGTERM exits 143.
//   - codex 0.171.0: SIGINT kills the node launcher at once and leaves the
//     terminal in the TUI's modes (alternate screen, kitty's keyboard
//     protocol). `/quit` leaves cleanly: it restores every mode and exits 0.
//     Its composer reads a fast burst of keys as a paste, so Enter is sent
//     once the text shows, in kitty's keyboard protocol (CSI 13 u).
var endings = map[string]Ending{
	"claude": {Signal: syscall.SIGINT},
	"codex":  {Typed: "/quit", Enter: "\x1b[13u"},
}

// EndingOf returns how agent ends cleanly.
func EndingOf(agent string) Ending {
	if e, ok := endings[agent]; ok {
		return e
	}
	return Ending{Signal: syscall.SIGTERM}
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

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
