// Package spinner shows that a command is still at work: a turning mark and
// a few words on standard error while it waits, when standard error is a
// terminal; nothing at all when it is piped or redirected.
package spinner

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// Delay is how long a wait goes before the spinner shows: a wait shorter
// than that shows nothing.
const Delay = 300 * time.Millisecond

var frames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Spinner is one shown wait.
type Spinner struct {
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// Start shows msg with a turning mark on w once Delay has passed, until
// Stop, when w is a terminal; otherwise it shows nothing.
func Start(w io.Writer, msg string) *Spinner {
	f, ok := w.(*os.File)
	return start(w, msg, ok && term.IsTerminal(int(f.Fd())), Delay)
}

func start(w io.Writer, msg string, tty bool, delay time.Duration) *Spinner {
	s := &Spinner{stop: make(chan struct{}), done: make(chan struct{})}
	if !tty {
		close(s.done)
		return s
	}
	go s.run(w, msg, delay)
	return s
}

func (s *Spinner) run(w io.Writer, msg string, delay time.Duration) {
	defer close(s.done)
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-s.stop:
		return
	case <-t.C:
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		fmt.Fprintf(w, "\r%s %s", frames[i%len(frames)], msg)
		select {
		case <-s.stop:
			// Clear the line: what the command prints next starts clean.
			fmt.Fprint(w, "\r\x1b[K")
			return
		case <-tick.C:
		}
	}
}

// Stop ends the spinner and clears its line; it returns once nothing more
// is written. It may be called more than once.
func (s *Spinner) Stop() {
	s.once.Do(func() { close(s.stop) })
	<-s.done
}
