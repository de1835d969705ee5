package offer_test

import (
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/offer"
	"github.com/kittymux/kittymux/pkg/ended"
	storage "github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// The offer's keys: n dismisses, l (or Esc, or the terminal going away)
// leaves it for later; a restore made elsewhere meanwhile ends it. Each is
// kept in the state, and a session dismissed or restored is offered no
// more. (Enter, which restores into the kitty: TestRealOfferOnStart.)
func TestOfferKeys(t *testing.T) {
	saved := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		keys  string
		close bool // the terminal goes away
		// restored elsewhere while the offer waits
		restored bool
		want     string
		check    func(ended.Mark) bool
		// shown again by `sessions offer` (the scanner offers it no more)
		again bool
	}{
		{name: "n dismisses", keys: "xn", want: "dismissed: not offered again", check: func(m ended.Mark) bool { return !m.Dismissed.IsZero() }},
		{name: "l leaves it for later", keys: "l", check: func(m ended.Mark) bool { return !m.Later.IsZero() && m.Dismissed.IsZero() }, again: true},
		{name: "Esc leaves it for later", keys: "\x1b", check: func(m ended.Mark) bool { return !m.Later.IsZero() }, again: true},
		{name: "no terminal any more", close: true, check: func(m ended.Mark) bool { return !m.Later.IsZero() }, again: true},
		{name: "restored elsewhere", restored: true, want: "restored meanwhile at ", check: func(m ended.Mark) bool { return !m.Restored.IsZero() && m.Later.IsZero() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, out, _ := factorytest.New(t)
			f.IO.ErrOut = out
			name := autosave.Name("4242", saved)
			if _, err := storage.Publish(f.Paths, name, []byte("new_tab api\nlaunch\n")); err != nil {
				t.Fatal(err)
			}
			keys := make(chan byte, 8)
			for _, b := range []byte(c.keys) {
				keys <- b
			}
			if c.close {
				close(keys)
			}
			if c.restored {
				go func() {
					time.Sleep(50 * time.Millisecond)
					ended.MarkRestored(f.Paths, "4242", name, time.Now())
				}()
			}
			err := offer.Offer(t.Context(), offer.OfferOptions{Kitty: "4242", Keys: keys, Poll: 10 * time.Millisecond, CloseAfter: time.Millisecond}.From(f))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "1 window in 1 tab, ended unexpectedly ") || !strings.Contains(out.String(), `tab "api": 1 window`) ||
				!strings.Contains(out.String(), c.want) || strings.Contains(out.String(), "autosave-") {
				t.Errorf("offer said:\n%s", out.String())
			}
			st, err := ended.Read(f.Paths)
			if err != nil || !c.check(st.Kitties["4242"]) {
				t.Errorf("state %+v %v", st, err)
			}
			out.Reset()
			closed := make(chan byte)
			close(closed)
			if err := offer.Offer(t.Context(), offer.OfferOptions{Kitty: "4242", Keys: closed}.From(f)); err != nil {
				t.Fatal(err)
			}
			if again := !strings.Contains(out.String(), "nothing to offer"); again != c.again {
				t.Errorf("shown again: %v, want %v:\n%s", again, c.again, out.String())
			}
		})
	}
}

// TestOfferOnATerminal: on a terminal the offer is wrapped to the
// window's width, with its keys bold unless NO_COLOR is set.
func TestOfferOnATerminal(t *testing.T) {
	for _, noColor := range []string{"", "1"} {
		f, _, _ := factorytest.New(t)
		if _, err := storage.Publish(f.Paths, autosave.Name("4242", time.Now().Add(-3*time.Minute)),
			[]byte("new_tab a-tab-with-a-title-long-enough-to-wrap at forty columns in this window\nlaunch\n")); err != nil {
			t.Fatal(err)
		}
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 40}); err != nil {
			t.Fatal(err)
		}
		output := kittytest.Capture(ptmx)
		env := map[string]string{"TERM": "xterm-256color", "NO_COLOR": noColor}
		f.Getenv = func(k string) string { return env[k] }
		f.IO.Out = tty
		closed := make(chan byte)
		close(closed)
		if err := offer.Offer(t.Context(), offer.OfferOptions{Kitty: "4242", Keys: closed}.From(f)); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		bound := kittytest.NewBound(t, "the offer to reach the terminal", 10*time.Second)
		for !strings.Contains(output(), "restores it.") {
			if bound.Over() {
				t.Fatalf("%v:\n%q", bound, output())
			}
			time.Sleep(10 * time.Millisecond)
		}
		out := output()
		ptmx.Close()
		if bold := strings.Contains(out, "\x1b[1mEnter\x1b[22m restore it here"); bold != (noColor == "") {
			t.Errorf("NO_COLOR=%q: keys bold %v:\n%q", noColor, bold, out)
		}
		for _, l := range strings.Split(kittytest.Plain(out), "\n") {
			if n := len([]rune(strings.TrimRight(l, "\r"))); n > 40 {
				t.Errorf("a line %d wide at 40 columns: %q", n, l)
			}
		}
		if words := strings.Join(strings.Fields(kittytest.Plain(out)), " "); !strings.HasPrefix(words, "1 window in 1 tab, ended unexpectedly 3 minutes ago tab") {
			t.Errorf("heading:\n%s", kittytest.Plain(out))
		}
	}
}
