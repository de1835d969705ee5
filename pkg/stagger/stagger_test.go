package stagger

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
)

// TestSlot: starts of one agent that come at once get now, now+interval,
// now+2×interval; another agent has its own slots; no interval, or a
// slot far ahead (a clock that went back), is now.
func TestSlot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	const i = 2 * time.Second
	for n, want := range []time.Time{now, now.Add(i), now.Add(2 * i)} {
		if got, err := Slot(dir, "claude", i, now); err != nil || !got.Equal(want) {
			t.Errorf("start %d: %v %v, want %v", n, got, err, want)
		}
	}
	if got, _ := Slot(dir, "codex", i, now); !got.Equal(now) {
		t.Errorf("codex's first start: %v, want now", got)
	}
	if got, _ := Slot(dir, "claude", i, now.Add(time.Minute)); !got.Equal(now.Add(time.Minute)) {
		t.Errorf("a start long after: %v, want its own time", got)
	}
	if got, _ := Slot(dir, "claude", 0, now); !got.Equal(now) {
		t.Errorf("no interval: %v, want now", got)
	}
	// The clock went back an hour: the slot kept is not waited for.
	if got, _ := Slot(dir, "claude", i, now.Add(-time.Hour)); !got.Equal(now.Add(-time.Hour)) {
		t.Errorf("clock back: %v, want now", got)
	}
	if got, _ := Slot(dir, "../x", i, now); !got.Equal(now) {
		t.Errorf("a name that is no agent's: %v", got)
	}
}

// TestInterval: config.json's resume.interval, then the environment.
func TestInterval(t *testing.T) {
	p := paths.Paths{ConfigDir: t.TempDir()}
	none := func(string) string { return "" }
	if d, err := Interval(p, none); d != DefaultInterval || err != nil {
		t.Errorf("default: %v %v", d, err)
	}
	os.WriteFile(filepath.Join(p.ConfigDir, "config.json"), []byte(`{"resume": {"interval": "3s"}}`), 0o600)
	if d, _ := Interval(p, none); d != 3*time.Second {
		t.Errorf("config.json: %v", d)
	}
	env := func(k string) string { return map[string]string{EnvInterval: "250ms"}[k] }
	if d, _ := Interval(p, env); d != 250*time.Millisecond {
		t.Errorf("environment: %v", d)
	}
	bad := func(k string) string { return map[string]string{EnvInterval: "soon"}[k] }
	if d, err := Interval(p, bad); d != 3*time.Second || err == nil {
		t.Errorf("bad value: %v %v, want the one before and an error", d, err)
	}
}

// TestIsName holds isName to the expression it stands for.
func TestIsName(t *testing.T) {
	re := regexp.MustCompile(`^[a-z][a-z0-9._-]{0,31}$`)
	for _, in := range []string{"", "a", "claude", "cursor-agent", "a.b_c-d9", "9a", "-a", ".a", "_a", "A", "aB", "a/b",
		"../x", "a b", "a\n", "é", "aé", "a\xff", "a" + strings.Repeat("b", 31), "a" + strings.Repeat("b", 32), "{}", "a`"} {
		if got, want := isName(in), re.MatchString(in); got != want {
			t.Errorf("isName(%q) = %v, the expression says %v", in, got, want)
		}
	}
}

// TestSlotRewritten: the slot is written over the one before; a longer
// file before it (garbage, a clock far off) is cut to the new slot.
func TestSlotRewritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	want := func(slot time.Time) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "stagger-claude"))
		if got := string(b); err != nil || got != fmt.Sprintf("%d\n", slot.UnixNano()) {
			t.Errorf("slot file %q (%v), want %d", got, err, slot.UnixNano())
		}
	}
	if _, err := Slot(dir, "claude", time.Second, now); err != nil {
		t.Fatal(err)
	}
	want(now)
	if _, err := Slot(dir, "claude", time.Second, now); err != nil {
		t.Fatal(err)
	}
	want(now.Add(time.Second))
	long := strings.Repeat("9", 40) + "\n" + strings.Repeat("x", 100)
	if err := os.WriteFile(filepath.Join(dir, "stagger-claude"), []byte(long), 0o600); err != nil {
		t.Fatal(err)
	}
	later := now.Add(time.Hour)
	if got, err := Slot(dir, "claude", time.Second, later); err != nil || !got.Equal(later) {
		t.Errorf("after garbage: %v %v, want %v", got, err, later)
	}
	want(later)
}

// TestSpan: the last start of the agent with the most starts comes
// (n-1)×interval after the first; one start of each agent comes at once.
func TestSpan(t *testing.T) {
	starts := []string{"claude", "claude", "codex", "claude", "codex"}
	if got := Span(starts, time.Second); got != 2*time.Second {
		t.Errorf("three claude, two codex: %v, want 2s", got)
	}
	if got := Span([]string{"claude", "codex"}, time.Second); got != 0 {
		t.Errorf("one start each: %v, want 0", got)
	}
}
