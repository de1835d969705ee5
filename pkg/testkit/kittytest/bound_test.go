package kittytest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestStretchSlowdown(t *testing.T) {
	t.Setenv("KITTYMUX_TEST_SLOWDOWN", "")
	base, _ := Stretch()
	if base < 1 || base > maxStretch {
		t.Errorf("stretch %v, want within [1, %d]", base, maxStretch)
	}
	t.Setenv("KITTYMUX_TEST_SLOWDOWN", "3")
	f, why := Stretch()
	if f < 3 || !strings.Contains(why, "KITTYMUX_TEST_SLOWDOWN=3") {
		t.Errorf("with KITTYMUX_TEST_SLOWDOWN=3: ×%v (%s), want at least ×3 and the reason", f, why)
	}
	if runtime.GOOS == "linux" && !strings.Contains(why, "load ") {
		t.Errorf("on Linux the stretch reads the load average: %q", why)
	}
	t.Setenv("KITTYMUX_TEST_SLOWDOWN", "not a number")
	if _, why := Stretch(); strings.Contains(why, "SLOWDOWN") {
		t.Errorf("a bad KITTYMUX_TEST_SLOWDOWN was used: %q", why)
	}
}

// A bound that ran out says which wait it was and how far it was stretched.
func TestBoundOver(t *testing.T) {
	b := NewBound(t, "kitty to answer ls", time.Nanosecond)
	if b.Limit() < time.Nanosecond {
		t.Errorf("limit %v below the base", b.Limit())
	}
	time.Sleep(time.Millisecond)
	if !b.Over() {
		t.Fatal("a 1 ns bound is not over after 1 ms")
	}
	if s := b.String(); !strings.HasPrefix(s, "kitty to answer ls: not within ") || !strings.Contains(s, "stretched ×") {
		t.Errorf("String: %q", s)
	}
	if b := NewBound(t, "x", time.Hour); b.Over() {
		t.Error("an hour's bound is over at once")
	}
}
