package scanner

import (
	"context"
	"time"
)

// Defaults of LoopOptions.
const (
	DefaultInterval = 2 * time.Second
	DefaultRescan   = 30 * time.Second
)

// LoopOptions configure Loop.
type LoopOptions struct {
	// Interval between polls.
	Interval time.Duration
	// Rescan: kitties are discovered again at least this often, besides
	// each Wake.
	Rescan time.Duration
	// Wake asks for a rescan now (a socket directory changed). Senders
	// must not block: a pending wake is as good as two.
	Wake <-chan struct{}
	// AfterPass sees each pass (the status file).
	AfterPass func(Pass)
}

// Loop polls until ctx is cancelled, then writes the journal one last time
// (Stop) and returns. Intervals are measured on the scanner's clock; the
// rescan is due by the clock's time, not by counting ticks, because timers
// pause while the machine sleeps.
func (s *Scanner) Loop(ctx context.Context, o LoopOptions) error {
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	if o.Rescan <= 0 {
		o.Rescan = DefaultRescan
	}
	after := func(p Pass) {
		if o.AfterPass != nil {
			o.AfterPass(p)
		}
	}
	rescan := true
	var lastRescan time.Time
	for {
		now := s.o.Clock.Now()
		if rescan || now.Sub(lastRescan) >= o.Rescan {
			if err := s.Rescan(ctx); err != nil {
				s.o.Logf.Printf("%v", err)
			}
			lastRescan, rescan = now, false
		}
		p, err := s.Poll(ctx)
		if err != nil && ctx.Err() == nil {
			s.o.Logf.Printf("poll: %v", err)
		}
		if ctx.Err() == nil {
			after(p)
		}
		select {
		case <-ctx.Done():
			after(s.Stop())
			return nil
		case <-s.o.Clock.After(o.Interval):
		case <-o.Wake:
			rescan = true
		}
	}
}
