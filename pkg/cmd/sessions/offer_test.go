package sessions_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions"
	"github.com/kittymux/kittymux/pkg/ended"
	storage "github.com/kittymux/kittymux/pkg/store"
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
			err := sessions.Offer(t.Context(), sessions.OfferOptions{Kitty: "4242", Keys: keys, Poll: 10 * time.Millisecond, CloseAfter: time.Millisecond}.From(f))
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
			if err := sessions.Offer(t.Context(), sessions.OfferOptions{Kitty: "4242", Keys: closed}.From(f)); err != nil {
				t.Fatal(err)
			}
			if again := !strings.Contains(out.String(), "nothing to offer"); again != c.again {
				t.Errorf("shown again: %v, want %v:\n%s", again, c.again, out.String())
			}
		})
	}
}
