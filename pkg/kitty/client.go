// Package kitty is a client for kitty's remote-control protocol, spoken
// directly on the unix socket (never by running `kitty @`), and the typed
// model of what `ls` returns on old (0.26.x) and new (≥ 0.43) kitty; and
// starting a new kitty on a session file.
package kitty

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Every request and reply is framed as ESC P @kitty-cmd JSON ESC \.
const (
	framePrefix = "\x1bP@kitty-cmd"
	frameSuffix = "\x1b\\"
)

// protocolVersion is what we claim to be. kitty refuses a client whose
// major.minor is newer than its own, so claim the oldest kitty we support.
var protocolVersion = [3]int{0, 26, 0}

// DefaultTimeout bounds a request whose context has no deadline.
const DefaultTimeout = 5 * time.Second

// DefaultMaxReply bounds how much of a reply is read: ls of a large session
// is a few hundred KiB; anything near this is not kitty.
const DefaultMaxReply = 64 << 20

// Client talks to one kitty instance. The zero value is not usable; a Client
// holds no connection: kitty takes one request per connection.
type Client struct {
	Addr Address
	// MaxReply is the most bytes of one reply read, framing included;
	// 0 is DefaultMaxReply.
	MaxReply int
}

// NewClient returns a client for addr.
func NewClient(addr Address) *Client { return &Client{Addr: addr} }

type request struct {
	Cmd        string `json:"cmd"`
	Version    [3]int `json:"version"`
	NoResponse bool   `json:"no_response"`
	Payload    any    `json:"payload,omitempty"`
}

type reply struct {
	OK *bool `json:"ok"`
	// Data holds a pointer to what the reply's data is decoded into, so
	// that a large reply is decoded in one go.
	Data      any    `json:"data"`
	Error     string `json:"error"`
	Traceback string `json:"tb"`
}

// Do sends one command and returns the reply's data (raw JSON, may be
// empty). With noResponse kitty sends nothing back and Do returns once the
// request is written.
func (c *Client) Do(ctx context.Context, cmd string, payload any, noResponse bool) (json.RawMessage, error) {
	var data json.RawMessage
	if err := c.do(ctx, cmd, payload, noResponse, &data); err != nil {
		return nil, err
	}
	return data, nil
}

// RoundTrip sends one command and returns kitty's reply as it came, its
// frame's body undecoded: what a request costs before any decoding, for
// benchmarks.
func (c *Client) RoundTrip(ctx context.Context, cmd string, payload any) ([]byte, error) {
	return c.exchange(ctx, cmd, payload, false)
}

// do is Do decoding the reply's data into the value data points to.
func (c *Client) do(ctx context.Context, cmd string, payload any, noResponse bool, data any) error {
	raw, err := c.exchange(ctx, cmd, payload, noResponse)
	if err != nil || noResponse {
		return err
	}
	return c.decodeReply(cmd, raw, data)
}

// decodeReply reads a reply frame's body into data.
func (c *Client) decodeReply(cmd string, raw []byte, data any) error {
	r := reply{Data: data}
	err := json.Unmarshal(raw, &r)
	if r.OK == nil || err != nil && *r.OK {
		return fmt.Errorf("kitty @ %s at %s: %w: %.80q", cmd, c.Addr, ErrBadReply, raw)
	}
	if !*r.OK {
		return &CommandError{Cmd: cmd, Addr: c.Addr, Message: r.Error, Traceback: r.Traceback}
	}
	return nil
}

// exchange sends one command and returns the body of kitty's reply frame
// (nil with noResponse).
func (c *Client) exchange(ctx context.Context, cmd string, payload any, noResponse bool) ([]byte, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	body, err := json.Marshal(request{Cmd: cmd, Version: protocolVersion, NoResponse: noResponse, Payload: payload})
	if err != nil {
		return nil, fmt.Errorf("encode kitty @ %s: %w", cmd, err)
	}
	conn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	// Closing the connection when the context is cancelled unblocks reads and
	// writes that the deadline alone would not (cancel without a deadline).
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	msg := make([]byte, 0, len(framePrefix)+len(body)+len(frameSuffix))
	msg = append(append(append(msg, framePrefix...), body...), frameSuffix...)
	if _, err := conn.Write(msg); err != nil { // net.Conn.Write loops on short writes
		return nil, c.ioError(ctx, cmd, "send", err)
	}
	if noResponse {
		return nil, nil
	}
	limit := c.MaxReply
	if limit <= 0 {
		limit = DefaultMaxReply
	}
	raw, err := readFrame(conn, limit)
	if err != nil {
		if errors.Is(err, ErrBadReply) {
			return nil, fmt.Errorf("kitty @ %s at %s: %w", cmd, c.Addr, err)
		}
		return nil, c.ioError(ctx, cmd, "read reply", err)
	}
	return raw, nil
}

// dial connects to kitty's socket, and only to one of this user's: the
// socket file must be the user's (another user may have bound the path
// first), and so must the process at the other end (an abstract name has
// no file to own). Nothing is sent before both are proved.
func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	if !c.Addr.Abstract() {
		if fi, err := os.Lstat(c.Addr.Path); err == nil && fi.Mode().Type() == os.ModeSocket {
			if uid := ownerUID(fi); uid != os.Getuid() {
				return nil, c.notYours("the socket file", uid)
			}
		}
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", c.Addr.Path)
	if err == nil {
		uid, known, perr := peerUID(conn)
		switch {
		case perr != nil:
			conn.Close()
			return nil, fmt.Errorf("connect to %s: who listens there: %w", c.Addr, perr)
		case known && uid != os.Getuid():
			conn.Close()
			return nil, c.notYours("the process listening on it", uid)
		}
		return conn, nil
	}
	switch {
	case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ENOTDIR):
		return nil, fmt.Errorf("connect to %s: %w", c.Addr, ErrNoSocket)
	case errors.Is(err, syscall.ECONNREFUSED):
		// An abstract name nobody listens on also gives ECONNREFUSED:
		// there is no file to be stale, so that is a missing socket.
		if c.Addr.Abstract() {
			return nil, fmt.Errorf("connect to %s: %w", c.Addr, ErrNoSocket)
		}
		return nil, fmt.Errorf("connect to %s (stale socket, or remote control off): %w", c.Addr, ErrRefused)
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return nil, fmt.Errorf("connect to %s: %w", c.Addr, ErrTimeout)
	}
	return nil, fmt.Errorf("connect to %s: %w", c.Addr, err)
}

// notYours says whose the socket is, and that nothing was sent.
func (c *Client) notYours(what string, uid int) error {
	return fmt.Errorf("kitty socket %s: %s belongs to %s, not to you (%s): kittymux talks only to a kitty of yours and sent nothing; "+
		"another user's program may have taken the path first (listen_on should name a directory only you can write): %w",
		c.Addr, what, userName(uid), userName(os.Getuid()), ErrNotYours)
}

func (c *Client) ioError(ctx context.Context, cmd, what string, err error) error {
	if isTimeout(err) || ctx.Err() != nil {
		return fmt.Errorf("kitty @ %s at %s: %s: %w", cmd, c.Addr, what, ErrTimeout)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		// kitty closes the connection without a word when it will not take
		// commands from this peer (0.36.2+: another uid).
		return fmt.Errorf("kitty @ %s at %s: %s: connection closed: %w", cmd, c.Addr, what, ErrRefused)
	}
	return fmt.Errorf("kitty @ %s at %s: %s: %w", cmd, c.Addr, what, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded)
}

// readFrame reads one ESC P @kitty-cmd ... ESC \ frame of at most limit
// bytes and returns its body. It reads no more than limit+1 bytes, and each
// byte is looked at a bounded number of times, so a huge or endless reply
// costs time in proportion to what was read, never more.
func readFrame(r io.Reader, limit int) ([]byte, error) {
	r = io.LimitReader(r, int64(limit)+1)
	buf := make([]byte, 0, min(limit+1, 64<<10))
	searched := len(framePrefix) // the terminator does not start before this
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(len(buf), limit+1-len(buf)))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if k := min(len(buf), len(framePrefix)); !bytes.Equal(buf[:k], []byte(framePrefix[:k])) {
			return nil, fmt.Errorf("%w: starts with %.40q", ErrBadReply, buf)
		}
		if len(buf) > searched {
			if end := bytes.Index(buf[searched:], []byte(frameSuffix)); end >= 0 {
				return buf[len(framePrefix) : searched+end], nil
			}
			// The terminator may straddle this read and the next.
			searched = max(searched, len(buf)-len(frameSuffix)+1)
		}
		if len(buf) > limit {
			return nil, fmt.Errorf("%w: over %d bytes without an end", ErrBadReply, limit)
		}
		if err != nil {
			if errors.Is(err, io.EOF) && len(buf) > 0 {
				return nil, fmt.Errorf("%w: cut short after %d bytes", ErrBadReply, len(buf))
			}
			return nil, err
		}
	}
}

func isRemoteControlOff(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "remote control is disabled") || strings.Contains(m, "remote control disallowed") ||
		strings.Contains(m, "remote control is allowed over a socket only")
}
