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
