// Package clock is the time kittymux's long-running parts see: the
// scanner, autosave, the journal, the restore prompt and recovery. Real is
// the system's; Fake, for tests, moves only when told to, so a test sees a
// timer fire (or not) without sleeping on a real one.
package clock

import "time"

// Clock tells the time and makes timers and tickers.
type Clock interface {
	Now() time.Time
	// After is a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
	// Sleep waits for d.
	Sleep(d time.Duration)
	NewTimer(d time.Duration) Timer
	NewTicker(d time.Duration) Ticker
}

// Timer is a *time.Timer, or a fake one.
type Timer interface {
	C() <-chan time.Time
	// Stop stops the timer; false when it had fired or was stopped.
	Stop() bool
	// Reset arms the timer again to fire d from now.
	Reset(d time.Duration) bool
}

// Ticker is a *time.Ticker, or a fake one.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// Real is the system's clock.
var Real Clock = system{}

// Or is c, or Real when c is nil: options leave their Clock unset for the
// system's.
func Or(c Clock) Clock {
	if c == nil {
		return Real
	}
	return c
}

type system struct{}

func (system) Now() time.Time                         { return time.Now() }
func (system) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (system) Sleep(d time.Duration)                  { time.Sleep(d) }
func (system) NewTimer(d time.Duration) Timer         { return realTimer{time.NewTimer(d)} }
func (system) NewTicker(d time.Duration) Ticker       { return realTicker{time.NewTicker(d)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time        { return t.t.C }
func (t realTimer) Stop() bool                 { return t.t.Stop() }
func (t realTimer) Reset(d time.Duration) bool { return t.t.Reset(d) }

type realTicker struct{ t *time.Ticker }

func (t realTicker) C() <-chan time.Time { return t.t.C }
func (t realTicker) Stop()               { t.t.Stop() }
