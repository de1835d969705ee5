package kitty

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors of the remote-control client. Callers test them with
// errors.Is; the one place that turns them into hints for people is pkg/cmd.
var (
	// ErrNoSocket: nothing listens at the address (the socket file or the
	// abstract name does not exist). kitty is not running there.
	ErrNoSocket = errors.New("no kitty socket")
	// ErrRefused: the socket exists but kitty does not take commands on it:
	// a stale socket of a kitty that died, or remote control turned off.
	ErrRefused = errors.New("kitty refused remote control")
	// ErrBadReply: something answered, but not in kitty's framing or JSON.
	ErrBadReply = errors.New("reply is not kitty's")
	// ErrTimeout: kitty did not answer before the context's deadline.
	ErrTimeout = errors.New("kitty did not answer in time")
	// ErrNotYours: the socket, or the process at its other end, is
	// another user's: nothing was sent to it.
	ErrNotYours = errors.New("not your kitty")
)

// CommandError is kitty's own `{"ok": false}` reply.
// Message and Traceback are kitty's text as sent: print them through
// Printable.
type CommandError struct {
	Cmd       string
	Addr      Address
	Message   string
	Traceback string
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("kitty @ %s at %s: %s", e.Cmd, e.Addr, Printable(e.Message))
}

// Is lets a reply saying remote control is disabled count as ErrRefused.
func (e *CommandError) Is(target error) bool {
	return target == ErrRefused && isRemoteControlOff(e.Message)
}

// IsUnknownCommand reports whether kitty refused a command or an action it
// does not know: an older kitty (save_as_session and goto_session came in
// 0.43) says so instead of running it.
func IsUnknownCommand(err error) bool {
	var ce *CommandError
	if !errors.As(err, &ce) {
		return false
	}
	m := strings.ToLower(ce.Message)
	return strings.Contains(m, "unknown") || strings.Contains(m, "no remote command")
}
