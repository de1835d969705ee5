package prompt

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/kittymux/kittymux/pkg/clock"
)

// TestAskWaitsOnItsClock: the question waits on the prompt's clock, so a
// fake one shows a waiting prompt joining another window's `a` at its next
// tick, with no real time passing.
func TestAskWaitsOnItsClock(t *testing.T) {
	e := viewEnv(t, nil)
	clk := e.Clock.(*clock.Fake)
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer pts.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 24, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, ptm)
	e.In, e.Out = pts, pts
	type answer struct {
		c   Choice
		err error
	}
	got := make(chan answer, 1)
	go func() {
		c, err := e.ask(exact(nil), true)
		got <- answer{c, err}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if !clk.WaitArmed(ctx, 1) {
		t.Fatal("the prompt does not wait on its clock")
	}
	clk.Advance(250 * time.Millisecond) // a tick with no `a` anywhere
	// Another window's `a`, then the next tick.
	e.setResumeAll()
	clk.Advance(250 * time.Millisecond)
	select {
	case a := <-got:
		if a.err != nil || a.c != ChoiceResume || !e.byResumeAll {
			t.Errorf("answer %q, %v (by resume all: %v), want resume by resume all", a.c, a.err, e.byResumeAll)
		}
	case <-ctx.Done():
		t.Fatal("the waiting prompt did not join resume all at its tick")
	}
}

// An arrow key read with the keys typed after it (a busy machine delays
// the reader, and they come in one read) takes only its own bytes: the
// Enter after it is still Enter. A lone Esc is one.
func TestDrainSequenceStopsAtItsEnd(t *testing.T) {
	for _, c := range []struct {
		after string // what follows the Esc
		seq   bool
		left  string
	}{
		{"[A\r", true, "\r"},
		{"[1;5Cn", true, "n"},
		{"OAs", true, "s"},
		{"x\r", true, "\r"}, // Alt-x
		{"", false, ""},
	} {
		keys := make(chan byte, 16)
		for _, b := range []byte(c.after) {
			keys <- b
		}
		close(keys)
		if got := drainSequence(clock.Real, keys); got != c.seq {
			t.Errorf("Esc %q: a sequence = %v, want %v", c.after, got, c.seq)
		}
		var left []byte
		for b := range keys {
			left = append(left, b)
		}
		if string(left) != c.left {
			t.Errorf("Esc %q: left %q, want %q", c.after, left, c.left)
		}
	}
}
