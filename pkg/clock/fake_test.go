package clock

import (
	"context"
	"testing"
	"time"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func fired(c <-chan time.Time) (time.Time, bool) {
	select {
	case v := <-c:
		return v, true
	default:
		return time.Time{}, false
	}
}

func TestFakeTimer(t *testing.T) {
	f := NewFake(t0)
	tm := f.NewTimer(time.Second)
	f.Advance(999 * time.Millisecond)
	if _, ok := fired(tm.C()); ok {
		t.Fatal("fired before its time")
	}
	f.Advance(time.Millisecond)
	if v, ok := fired(tm.C()); !ok || !v.Equal(t0.Add(time.Second)) {
		t.Fatalf("fired %v at %v, want at %v", ok, v, t0.Add(time.Second))
	}
	if tm.Stop() {
		t.Error("Stop of a fired timer says it was active")
	}
	if tm.Reset(time.Second) {
		t.Error("Reset of a fired timer says it was active")
	}
	if !tm.Stop() || f.Waiting() != 0 {
		t.Errorf("Stop of an armed timer: waiting %d", f.Waiting())
	}
	f.Advance(time.Hour)
	if _, ok := fired(tm.C()); ok {
		t.Error("a stopped timer fired")
	}
	if _, ok := fired(f.After(0)); !ok {
		t.Error("After(0) did not fire at once")
	}
}

func TestFakeTicker(t *testing.T) {
	f := NewFake(t0)
	tk := f.NewTicker(250 * time.Millisecond)
	f.Advance(250 * time.Millisecond)
	if _, ok := fired(tk.C()); !ok {
		t.Fatal("no first tick")
	}
	// A ticker that falls behind drops ticks, and keeps its rhythm.
	f.Advance(time.Second)
	if v, ok := fired(tk.C()); !ok || !v.Equal(t0.Add(1250*time.Millisecond)) {
		t.Fatalf("tick %v at %v", ok, v)
	}
	if _, ok := fired(tk.C()); ok {
		t.Error("more than one tick kept")
	}
	f.Advance(249 * time.Millisecond)
	if _, ok := fired(tk.C()); ok {
		t.Error("ticked early")
	}
	f.Advance(time.Millisecond)
	if _, ok := fired(tk.C()); !ok {
		t.Error("no tick at 1.5 s")
	}
	tk.Stop()
	f.Advance(time.Hour)
	if _, ok := fired(tk.C()); ok {
		t.Error("a stopped ticker ticked")
	}
}

func TestFakeWaitArmed(t *testing.T) {
	f := NewFake(t0)
	done := make(chan struct{})
	go func() {
		f.Sleep(time.Minute)
		close(done)
	}()
	if !f.WaitArmed(t.Context(), 1) {
		t.Fatal("WaitArmed ended without a timer")
	}
	f.Advance(time.Minute)
	<-done
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if f.WaitArmed(ctx, 1) {
		t.Error("WaitArmed with no timer armed and its context ended says armed")
	}
	if f.Set(t0); !f.Now().Equal(t0.Add(time.Minute)) {
		t.Errorf("Set moved the clock back to %v", f.Now())
	}
}

func TestOr(t *testing.T) {
	if Or(nil) != Real {
		t.Error("Or(nil) is not Real")
	}
	f := NewFake(t0)
	if Or(f) != f {
		t.Error("Or(f) is not f")
	}
}
