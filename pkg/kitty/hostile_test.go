package kitty_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// serveRaw is a socket server that is not kitty: for each connection it
// reads the request frame, then hands the connection to answer. It stops
// with the test.
func serveRaw(t testing.TB, answer func(net.Conn)) kitty.Address {
	t.Helper()
	path := filepath.Join(kittytest.ShortTempDir(t), "k")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				var req []byte
				buf := make([]byte, 4096)
				for !bytes.HasSuffix(req, []byte("\x1b\\")) {
					n, err := c.Read(buf)
					req = append(req, buf[:n]...)
					if err != nil {
						return
					}
				}
				answer(c)
			}()
		}
	}()
	return kitty.Address{Path: path}
}

// bigLS is an ls reply (framing included) of about size bytes: windows
// enough that the document is that large.
func bigLS(t testing.TB, size int) (frame []byte, windows int) {
	t.Helper()
	type win struct {
		ID      int      `json:"id"`
		Title   string   `json:"title"`
		Cmdline []string `json:"cmdline"`
	}
	arg := strings.Repeat("x", 1000)
	var ws []win
	for n := 0; n < size; n += len(arg) + 60 {
		ws = append(ws, win{ID: len(ws) + 1, Title: fmt.Sprintf("w%d", len(ws)+1), Cmdline: []string{"claude", arg}})
	}
	doc, err := json.Marshal([]map[string]any{{"id": 1, "tabs": []map[string]any{{"id": 1, "windows": ws}}}})
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(map[string]any{"ok": true, "data": string(doc)})
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]byte("\x1bP@kitty-cmd"), body...), "\x1b\\"...), len(ws)
}

// A 50 MB ls reply is read whole, within the ordinary request deadline.
func TestLargeReply(t *testing.T) {
	frame, n := bigLS(t, 50<<20)
	addr := serveRaw(t, func(c net.Conn) { c.Write(frame) })
	ctx, cancel := context.WithTimeout(context.Background(), kitty.DefaultTimeout)
	defer cancel()
	start := time.Now()
	ls, err := kitty.NewClient(addr).LS(ctx)
	if err != nil {
		t.Fatalf("%d-byte reply: %v", len(frame), err)
	}
	t.Logf("%d-byte reply read and decoded in %v", len(frame), time.Since(start))
	ws := kitty.Windows(ls)
	if len(ws) != n || ws[n-1].Window.Title != fmt.Sprintf("w%d", n) || len(ws[n-1].Window.Cmdline[1]) != 1000 {
		t.Fatalf("got %d windows, want %d; last %q", len(ws), n, ws[len(ws)-1].Window.Title)
	}
}

// A reply over the cap is refused as soon as the cap is passed: an endless
// one too, and the rest is never read.
func TestReplyCap(t *testing.T) {
	const limit = 1 << 20
	var written atomic.Int64
	endless := serveRaw(t, func(c net.Conn) {
		c.Write([]byte("\x1bP@kitty-cmd{\"ok\": true, \"data\": \""))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for {
			n, err := c.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	frame, _ := bigLS(t, 2*limit)
	big := serveRaw(t, func(c net.Conn) { c.Write(frame) })
	fits, _ := bigLS(t, limit-100<<10)
	atCap := serveRaw(t, func(c net.Conn) { c.Write(fits) })

	for _, c := range []struct {
		name string
		addr kitty.Address
		ok   bool
	}{
		{"endless", endless, false},
		{"twice the cap", big, false},
		{"under the cap", atCap, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			client := &kitty.Client{Addr: c.addr, MaxReply: limit}
			_, err := client.LS(ctx(t))
			if c.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, kitty.ErrBadReply) || !strings.Contains(err.Error(), fmt.Sprintf("over %d bytes", limit)) {
				t.Fatalf("err = %v, want ErrBadReply over %d bytes", err, limit)
			}
		})
	}
	// The endless writer stops once the client has gone: what it wrote is
	// the cap and what the socket buffers held, not more and more.
	if w := written.Load(); w > 64*limit {
		t.Errorf("the endless reply went on: %d bytes written", w)
	}
}

// hung is a kitty that takes the request and never answers.
func hung(t testing.TB) kitty.Address {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return serveRaw(t, func(net.Conn) { <-release })
}

// Four hung kitties cost one deadline together, and each one's error names it.
func TestLSAllHung(t *testing.T) {
	good := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	insts := []kitty.Instance{{Addr: good.Addr}}
	for range 4 {
		insts = append(insts, kitty.Instance{Addr: hung(t)})
	}
	const deadline = time.Second
	start := time.Now()
	answers := kitty.LSAll(context.Background(), insts, deadline)
	if took := time.Since(start); took >= 2*deadline {
		t.Errorf("four hung kitties took %v, want about one deadline (%v)", took, deadline)
	}
	if len(answers) != len(insts) {
		t.Fatalf("%d answers for %d kitties", len(answers), len(insts))
	}
	if a := answers[0]; a.Err != nil || a.Instance.Addr != good.Addr || len(kitty.Windows(a.LS)) != 6 {
		t.Errorf("the kitty that answers: %+v", a)
	}
	for i, a := range answers[1:] {
		if a.Instance.Addr != insts[i+1].Addr || !errors.Is(a.Err, kitty.ErrTimeout) || !strings.Contains(a.Err.Error(), a.Instance.Addr.String()) {
			t.Errorf("hung kitty %d (%s): err = %v, want ErrTimeout naming it", i, insts[i+1].Addr, a.Err)
		}
	}
}

// Where the process cannot say (macOS), ls says which kitty is a panel.
func TestLSAllUtility(t *testing.T) {
	doc := func(classes ...string) []byte {
		var ls []map[string]any
		for i, c := range classes {
			ls = append(ls, map[string]any{"id": i + 1, "wm_class": c, "tabs": []any{}})
		}
		b, _ := json.Marshal(ls)
		return b
	}
	var insts []kitty.Instance
	for _, classes := range [][]string{{"kitty-panel"}, {"kitty-quick-access"}, {"kitty"}, {"kitty-panel", "kitty"}} {
		f := kittytest.StartFake(t, kittytest.FakeOptions{LS: doc(classes...)})
		insts = append(insts, kitty.Instance{Addr: f.Addr})
	}
	var got []string
	for _, a := range kitty.LSAll(ctx(t), insts, 0) {
		if a.Err != nil {
			t.Fatal(a.Err)
		}
		got = append(got, a.Instance.Utility)
	}
	if diff := cmp.Diff([]string{"panel", "quick-access", "", ""}, got); diff != "" {
		t.Errorf("utility (-want +got):\n%s", diff)
	}
}

func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"héllo 世界 🐱‍👤 ✓", "héllo 世界 🐱‍👤 ✓"},
		{"\x1b]0;pwned\x07title", "]0;pwnedtitle"},
		{"\x1b[2J\x1b[31mred\x1b[0m", "[2J[31mred[0m"},
		{"c1 \u009b31m csi \u009d osc", "c1 31m csi  osc"},
		{"tab\tnew\nline\r", "tab new line "},
		{"del\x7f nul\x00", "del nul"},
		{"bidi \u202eevil\u202c \u2066x\u2069", "bidi evil x"},
		{"bad \xff\xfe utf8", "bad \ufffd\ufffd utf8"},
		{"", ""},
	} {
		if got := kitty.Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// kitty's error text never carries an escape sequence into a message, and
// the message names the kitty.
func TestCommandErrorPrintable(t *testing.T) {
	f := kittytest.StartFake(t, kittytest.FakeOptions{})
	evil := "no such window\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J\u009b31m\u0090q\u009c"
	f.Hook(func(kittytest.Request) ([]byte, bool) {
		body, _ := json.Marshal(map[string]any{"ok": false, "error": evil, "tb": "Traceback\x1b[1m"})
		return append(append([]byte("\x1bP@kitty-cmd"), body...), "\x1b\\"...), true
	})
	_, err := f.Client.LS(ctx(t))
	var ce *kitty.CommandError
	if !errors.As(err, &ce) || ce.Message != evil {
		t.Fatalf("err = %v, want a CommandError keeping kitty's message", err)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\x1b\x07\u009b\u0090\u009c") {
		t.Errorf("error text carries control characters: %q", msg)
	}
	if !strings.Contains(msg, f.Addr.String()) || !strings.Contains(msg, "no such window") {
		t.Errorf("error %q does not name the kitty and keep its text", msg)
	}
}

// BenchmarkLargeReply reads and decodes ls replies of growing size: the
// throughput (MB/s) stays flat when reading is linear.
func BenchmarkLargeReply(b *testing.B) {
	for _, mb := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			frame, _ := bigLS(b, mb<<20)
			addr := serveRaw(b, func(c net.Conn) { c.Write(frame) })
			client := kitty.NewClient(addr)
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				if _, err := client.LS(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
