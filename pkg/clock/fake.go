package clock

import (
	"context"
	"sync"
	"time"
)

// Fake is a Clock for tests: its time moves only by Advance and Set, and
// its timers and tickers fire then, in the goroutine that moves it. Like
// the system's, a timer's channel holds one value, and a ticker that falls
// behind drops ticks.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	waiting []*fakeTimer
	// armed is signalled whenever a timer or ticker is armed, for
	// WaitArmed.
	armed chan struct{}
}

// NewFake is a Fake clock at now.
func NewFake(now time.Time) *Fake {
	return &Fake{now: now, armed: make(chan struct{})}
}

type fakeTimer struct {
	f      *Fake
	c      chan time.Time
	at     time.Time
	period time.Duration // a ticker's; 0 for a timer
}

func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *Fake) After(d time.Duration) <-chan time.Time { return f.NewTimer(d).C() }

// Sleep waits until the clock has been advanced by d.
func (f *Fake) Sleep(d time.Duration) { <-f.After(d) }

func (f *Fake) NewTimer(d time.Duration) Timer { return f.arm(d, 0) }

func (f *Fake) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	return fakeTicker{f.arm(d, d)}
}

func (f *Fake) arm(d, period time.Duration) *fakeTimer {
	t := &fakeTimer{f: f, c: make(chan time.Time, 1), period: period}
	f.mu.Lock()
	t.at = f.now.Add(d)
	f.waiting = append(f.waiting, t)
	close(f.armed)
	f.armed = make(chan struct{})
	f.mu.Unlock()
	f.fire()
	return t
}

// Advance moves the clock by d and fires what is due.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
	f.fire()
}

// Set moves the clock to t (never back) and fires what is due.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	if t.After(f.now) {
		f.now = t
	}
	f.mu.Unlock()
	f.fire()
}

// Waiting is the number of timers and tickers armed and not stopped.
func (f *Fake) Waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiting)
}

// WaitArmed waits until at least n timers and tickers are armed, so a test
// moves the clock only once the code under test is waiting on it; false
// when ctx ends first.
func (f *Fake) WaitArmed(ctx context.Context, n int) bool {
	for {
		f.mu.Lock()
		got, armed := len(f.waiting), f.armed
		f.mu.Unlock()
		if got >= n {
			return true
		}
		select {
		case <-armed:
		case <-ctx.Done():
			return false
		}
	}
}

func (f *Fake) fire() {
	f.mu.Lock()
	defer f.mu.Unlock()
	kept := f.waiting[:0]
	for _, t := range f.waiting {
		if t.at.After(f.now) {
			kept = append(kept, t)
			continue
		}
		select {
		case t.c <- f.now:
		default: // the channel is full: a late reader gets the older value
		}
		if t.period > 0 {
			for !t.at.After(f.now) {
				t.at = t.at.Add(t.period)
			}
			kept = append(kept, t)
		}
	}
	clear(f.waiting[len(kept):])
	f.waiting = kept
}

func (f *Fake) stop(t *fakeTimer) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, w := range f.waiting {
		if w == t {
			f.waiting = append(f.waiting[:i], f.waiting[i+1:]...)
			return true
		}
	}
	return false
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }
func (t *fakeTimer) Stop() bool          { return t.f.stop(t) }

func (t *fakeTimer) Reset(d time.Duration) bool {
	active := t.f.stop(t)
	t.f.mu.Lock()
	t.at = t.f.now.Add(d)
	t.f.waiting = append(t.f.waiting, t)
	close(t.f.armed)
	t.f.armed = make(chan struct{})
	t.f.mu.Unlock()
	t.f.fire()
	return active
}

type fakeTicker struct{ t *fakeTimer }

func (k fakeTicker) C() <-chan time.Time { return k.t.c }
func (k fakeTicker) Stop()               { k.t.f.stop(k.t) }
