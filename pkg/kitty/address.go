package kitty

import (
	"fmt"
	"strconv"
	"strings"
)

// Address is a kitty remote-control socket. Only unix sockets are supported:
// a path, or an abstract name (Linux) written with a leading '@'.
type Address struct {
	Path string // "/tmp/kitty-123" or "@kitty-123"
}

// ParseAddress reads the forms kitty uses in listen_on, --to and
// KITTY_LISTEN_ON: "unix:/path" and "unix:@name".
func ParseAddress(s string) (Address, error) {
	rest, ok := strings.CutPrefix(s, "unix:")
	if !ok {
		if strings.HasPrefix(s, "tcp:") || strings.HasPrefix(s, "fd:") {
			return Address{}, fmt.Errorf("kitty address %q: only unix sockets are supported", s)
		}
		return Address{}, fmt.Errorf("kitty address %q: want unix:/path or unix:@name", s)
	}
	if rest == "" || rest == "@" {
		return Address{}, fmt.Errorf("kitty address %q: empty socket name", s)
	}
	return Address{Path: rest}, nil
}

// Abstract reports whether the address is in the Linux abstract namespace.
func (a Address) Abstract() bool { return strings.HasPrefix(a.Path, "@") }

func (a Address) String() string { return "unix:" + a.Path }

// WithPIDSuffix applies kitty's rule for listen_on in kitty.conf: the kitty
// process id is appended as "-<pid>", unless the value names {kitty_pid}
// itself, which is substituted instead.
func WithPIDSuffix(listenOn string, pid int) string {
	return withPIDSuffix(listenOn, strconv.Itoa(pid))
}

func withPIDSuffix(listenOn, pid string) string {
	if strings.Contains(listenOn, "{kitty_pid}") {
		return strings.ReplaceAll(listenOn, "{kitty_pid}", pid)
	}
	return listenOn + "-" + pid
}
