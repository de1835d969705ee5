package prompt

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/tui"
)

// block is what a question shows: its paragraphs at the terminal's width,
// drawn again from its first row when the window is resized.
type block struct {
	e     *Env
	paras func(width int) []para
	drawn []line
}

// draw draws the block, over what it drew before.
func (b *block) draw() {
	if up := rows(b.drawn, b.e.width()); up > 0 {
		// Back to the block's first row (as the terminal folded its lines
		// to the new width), clear below.
		fmt.Fprintf(b.e.Out, "\r\x1b[%dA\x1b[J", up)
	}
	w := b.e.width()
	b.drawn = layout(b.paras(w), w)
	fmt.Fprint(b.e.Out, render(b.drawn, b.e.color()))
}

// add draws more paragraphs below the block, as part of it.
func (b *block) add(more []para) {
	lines := layout(more, b.e.width())
	b.drawn = append(b.drawn, lines...)
	fmt.Fprint(b.e.Out, render(lines, b.e.color()))
}

// wait shows b on the terminal in raw mode, with the window titled for r,
// and hands each tick (every) and each key to the caller until one of them
// says it is done.
func (e *Env) wait(r resumerecord.Record, b *block, every time.Duration, tick func() bool, key func(c byte, keys <-chan byte) bool) error {
	keys, done, err := tui.RawKeys(e.In)
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	defer done()
	e.title(e.waitingTitle(r))
	b.draw()
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	t := e.clk().NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-winch:
			b.draw()
		case <-t.C():
			if tick() {
				return nil
			}
		case c, ok := <-keys:
			if !ok {
				return errors.New("terminal closed")
			}
			if key(c, keys) {
				return nil
			}
		}
	}
}
