package kittytest

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// A wait in a test against real processes (kitty, Xvfb, agents) is a base
// bound, what it takes on an idle machine with room to spare, stretched by
// how busy the machine is while waiting: a kitty that takes 25 s to open its
// socket at load 12 on 2 CPUs is slow, not broken. The stretch is the
// highest seen while waiting of
//
//   - the 1-minute load average per CPU, and
//   - 1/(1-p) for p the share of the last 10 s in which some task waited for
//     a CPU (/proc/pressure/cpu "some avg10", Linux 4.20 and newer), which
//     follows a burst of load much sooner than the load average does,
//
// at least 1 and at most maxStretch, times $KITTYMUX_TEST_SLOWDOWN when set
// (a number, for a machine known to be slow). A wait never sleeps in place of
// "it happened": it polls for the thing itself until its bound runs out.

const (
	// maxStretch caps how far a busy machine stretches a bound.
	maxStretch = 10
	// pollInterval is how often a wait looks again.
	pollInterval = 50 * time.Millisecond
)

// Stretch is how much longer than on an idle machine a wait may take now, and
// what it is made of: "load 6.20 on 2 CPUs, CPU pressure 93%".
func Stretch() (float64, string) {
	ncpu := runtime.NumCPU()
	load, pressure, ok := machineLoad()
	f := 1.0
	why := "no load figures"
	if ok {
		f = max(f, load/float64(ncpu))
		if pressure >= 0 {
			f = max(f, 1/(1-min(pressure, 0.9)))
			why = fmt.Sprintf("load %.2f on %d CPUs, CPU pressure %.0f%%", load, ncpu, 100*pressure)
		} else {
			why = fmt.Sprintf("load %.2f on %d CPUs", load, ncpu)
		}
	}
	f = min(f, maxStretch)
	if s, err := strconv.ParseFloat(os.Getenv("KITTYMUX_TEST_SLOWDOWN"), 64); err == nil && s > 0 {
		f *= s
		why += fmt.Sprintf(", KITTYMUX_TEST_SLOWDOWN=%g", s)
	}
	return f, why
}

// Scaled is base stretched by how busy the machine is now: the timeout of
// one request, say.
func Scaled(base time.Duration) time.Duration {
	f, _ := Stretch()
	return time.Duration(float64(base) * f)
}

// Bound is the limit of one wait: base on an idle machine, stretched by the
// highest Stretch seen since the wait began. Make one with NewBound when the
// wait begins and ask Over on each poll.
type Bound struct {
	what    string
	base    time.Duration
	start   time.Time
	stretch float64
	why     string
	until   time.Time // the test's own deadline, less room to report; zero: none
}

// NewBound starts a wait for what (words for the failure: "kitty to answer
// ls") of base on an idle machine. When t has a deadline (go test -timeout),
// the bound ends a little before it, so the failure says which wait ran out
// instead of the test binary panicking.
func NewBound(t TB, what string, base time.Duration) *Bound {
	b := &Bound{what: what, base: base, start: time.Now()}
	b.stretch, b.why = Stretch()
	if tt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok { // *testing.T
		if d, ok := tt.Deadline(); ok {
			b.until = d.Add(-15 * time.Second)
		}
	}
	return b
}

// Over reports whether the wait has run out: more than base stretched by the
// busiest the machine has been since it began, or near the test's deadline.
func (b *Bound) Over() bool {
	if f, why := Stretch(); f > b.stretch {
		b.stretch, b.why = f, why
	}
	now := time.Now()
	if !b.until.IsZero() && now.After(b.until) {
		return true
	}
	return now.Sub(b.start) > b.Limit()
}

// Limit is the bound as it stands: base times the highest stretch seen.
func (b *Bound) Limit() time.Duration { return time.Duration(float64(b.base) * b.stretch) }

// String says which bound ran out, and how it was reached, for a failure:
// "kitty to answer ls: no success within 62s (20s stretched ×3.1 by load 6.20
// on 2 CPUs, CPU pressure 93% at the busiest)".
func (b *Bound) String() string {
	waited := time.Since(b.start).Round(100 * time.Millisecond)
	s := fmt.Sprintf("%s: not within %v (bound %v on an idle machine, stretched ×%.1f by %s at the busiest)",
		b.what, waited, b.base, b.stretch, b.why)
	if !b.until.IsZero() && time.Now().After(b.until) {
		s += "; the test's own deadline (go test -timeout) is near"
	}
	return s
}

// Eventually polls cond every 50 ms until it reports done, or fails the test
// once the bound of what (base on an idle machine, see Bound) runs out,
// with the bound and cond's last words about what it saw.
func Eventually(t testing.TB, what string, base time.Duration, cond func() (done bool, last string)) {
	t.Helper()
	b := NewBound(t, what, base)
	for {
		done, last := cond()
		if done {
			return
		}
		if b.Over() {
			if last != "" {
				t.Fatalf("%v; last seen:\n%s", b, last)
			}
			t.Fatal(b)
		}
		time.Sleep(pollInterval)
	}
}
