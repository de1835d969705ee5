package autosave

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/statefile"
)

var v0482 = kitty.Version{Major: 0, Minor: 48, Patch: 2}

// saved reads back every autosave on disk, oldest first, as its content.
func saved(t *testing.T, st Store, key string) []string {
	t.Helper()
	names, err := st.Names(key)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		b, err := os.ReadFile(st.Paths.Session(n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestAutosaverKeepsTheGoodSave drives an Autosaver as the scanner does,
// with a Take that answers from a script: only good saves reach the disk,
// a failed, empty or closing one leaves the last good save in place, and a
// kitty keeps its newest five.
func TestAutosaverKeepsTheGoodSave(t *testing.T) {
	p := paths.Under(t.TempDir())
	if err := statefile.EnsureState(p); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		data    string
		windows int
		err     error
	}
	var script []answer
	calls := 0
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	clk := clock.NewFake(t0)
	a := &Autosaver{
		Settings: Settings{Settle: 20 * time.Second, AtMostEvery: time.Minute, AtLeastEvery: 15 * time.Minute, Keep: 5},
		Store:    Store{Paths: p, Keep: 5},
		Clock:    clk,
		Take: func(context.Context, kitty.Instance) (*rewrite.Result, error) {
			calls++
			s := script[0]
			script = script[1:]
			if s.err != nil {
				return nil, s.err
			}
			return &rewrite.Result{Data: []byte(s.data), Count: s.windows}, nil
		},
	}
	in := kitty.Instance{PID: 4242, Version: v0482}
	key := KittyKey(in)
	layout := 0
	// step: the layout changes, settles, and a save is taken with answer s.
	step := func(s answer, windows int) string {
		t.Helper()
		script = append(script, s)
		layout++
		clk.Advance(time.Minute)
		a.Polled(t.Context(), in, fmt.Sprint("layout", layout), windows, clk.Now())
		clk.Advance(21 * time.Second)
		a.Polled(t.Context(), in, fmt.Sprint("layout", layout), windows, clk.Now())
		a.Wait()
		return a.Polled(t.Context(), in, fmt.Sprint("layout", layout), windows, clk.Now())
	}

	step(answer{data: "good 1", windows: 3}, 3)
	if diff := cmp.Diff([]string{"good 1"}, saved(t, a.Store, key)); diff != "" {
		t.Fatalf("after a good save (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		name    string
		answer  answer
		windows int
	}{
		{"failed", answer{err: errors.New("kitty went quiet")}, 3},
		{"empty", answer{err: fmt.Errorf("%w; nothing was written", rewrite.ErrEmpty)}, 3},
		{"too old", answer{err: fmt.Errorf("%w: unknown action", save.ErrKittyTooOld)}, 3},
	} {
		status := step(c.answer, c.windows)
		if diff := cmp.Diff([]string{"good 1"}, saved(t, a.Store, key)); diff != "" {
			t.Errorf("%s: the good save did not stay (-want +got):\n%s", c.name, diff)
		}
		if !strings.Contains(status, "the last good save stays") && c.name != "too old" {
			t.Errorf("%s: status %q", c.name, status)
		}
	}
	// save_as_session unknown: off for this kitty, never asked again.
	before := calls
	if status := step(answer{data: "never"}, 3); !strings.HasPrefix(status, "off: ") || calls != before {
		t.Errorf("after a kitty too old: status %q, %d more saves", status, calls-before)
	}
	script = nil

	// Another kitty: a save with fewer windows taken as it closes is held,
	// and dropped when the kitty goes away.
	in = kitty.Instance{PID: 4343, Version: v0482}
	key = KittyKey(in)
	step(answer{data: "good 1", windows: 3}, 3)
	if status := step(answer{data: "closing", windows: 1}, 1); !strings.HasPrefix(status, "holding a save") {
		t.Errorf("fewer windows: status %q", status)
	}
	a.Gone(in)
	if diff := cmp.Diff([]string{"good 1"}, saved(t, a.Store, key)); diff != "" {
		t.Errorf("closing: (-want +got):\n%s", diff)
	}

	// A third: windows closed by the user are saved once the kitty is seen
	// after the save; then the newest five stay.
	in = kitty.Instance{PID: 4444, Version: v0482}
	key = KittyKey(in)
	step(answer{data: "good 1", windows: 3}, 3)
	step(answer{data: "fewer", windows: 2}, 2)
	clk.Advance(2 * time.Second)
	a.Polled(t.Context(), in, fmt.Sprint("layout", layout), 2, clk.Now())
	if diff := cmp.Diff([]string{"good 1", "fewer"}, saved(t, a.Store, key)); diff != "" {
		t.Errorf("windows closed: (-want +got):\n%s", diff)
	}
	for i := 2; i <= 7; i++ {
		step(answer{data: fmt.Sprint("good ", i), windows: 3}, 3)
	}
	if diff := cmp.Diff([]string{"good 3", "good 4", "good 5", "good 6", "good 7"}, saved(t, a.Store, key)); diff != "" {
		t.Errorf("five kept: (-want +got):\n%s", diff)
	}
}

// TestAutosaverOff: an old kitty, KITTYMUX_AUTOSAVE=0 and autosave-off each
// keep the saves from starting, and the status says why.
func TestAutosaverOff(t *testing.T) {
	p := paths.Under(t.TempDir())
	env := map[string]string{}
	a := &Autosaver{
		Off: func() string { return Off(p, func(k string) string { return env[k] }) },
		Take: func(context.Context, kitty.Instance) (*rewrite.Result, error) {
			t.Fatal("a save started")
			return nil, nil
		},
	}
	t0 := time.Now()
	poll := func(v kitty.Version) string {
		in := kitty.Instance{PID: 1, Version: v}
		a.Polled(t.Context(), in, "k", 1, t0)
		return a.Polled(t.Context(), in, "k", 1, t0.Add(time.Hour))
	}
	got := map[string]string{"0.26.5": poll(kitty.Version{Major: 0, Minor: 26, Patch: 5})}
	env[EnvOff] = "0"
	got["env"] = poll(v0482)
	delete(env, EnvOff)
	if err := statefile.EnsureState(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.AutosaveOff(), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	got["file"] = poll(v0482)
	want := map[string]string{
		"0.26.5": "off: kitty 0.26.5 cannot save its layout (save_as_session needs 0.43.0)",
		"env":    "off: KITTYMUX_AUTOSAVE=0",
		"file":   "off: the file " + p.AutosaveOff() + " exists",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadSettings(t *testing.T) {
	cases := []struct {
		name    string
		config  string
		env     map[string]string
		want    Settings
		wantErr string
	}{
		{"defaults", "", nil, Defaults, ""},
		{"config file", `{"autosave": {"settle": "5s", "at_most_every": "10s", "at_least_every": "2m", "keep": 3}}`, nil,
			Settings{Settle: 5 * time.Second, AtMostEvery: 10 * time.Second, AtLeastEvery: 2 * time.Minute, Keep: 3}, ""},
		{"the environment wins", `{"autosave": {"settle": "5s", "keep": 3}}`,
			map[string]string{EnvSettle: "1s", EnvAtMostEvery: "2s", EnvAtLeastEvery: "3s", EnvKeep: "2"},
			Settings{Settle: time.Second, AtMostEvery: 2 * time.Second, AtLeastEvery: 3 * time.Second, Keep: 2}, ""},
		{"a bad value keeps the one before", `{"autosave": {"settle": "soon", "at_most_every": "-1m"}}`,
			map[string]string{EnvKeep: "none"}, Defaults, `"soon" is not a positive duration`},
		{"a file that is not JSON", `settle = 5s`, nil, Defaults, "invalid character"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := paths.Under(t.TempDir())
			if c.config != "" {
				if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p.Config(), []byte(c.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := LoadSettings(p, func(k string) string { return c.env[k] })
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if (err == nil) != (c.wantErr == "") || err != nil && !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("err = %v, want %q", err, c.wantErr)
			}
		})
	}
}

func TestNames(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 30, 5, 123e6, time.UTC)
	name := Name("4242", at)
	key, got, ok := ParseName(name)
	if name != "autosave-4242-20261201T093005.123Z" || !ok || key != "4242" || !got.Equal(at) {
		t.Errorf("Name = %q; ParseName = %q %v %v", name, key, got, ok)
	}
	for _, n := range []string{"default", "autosave-", "autosave-x", "autosave-1-soon"} {
		if _, _, ok := ParseName(n); ok {
			t.Errorf("ParseName(%q) took it for an autosave", n)
		}
	}
}

// TestPruneAll: a kitty keeps its newest saves; the saves of the kitties
// beyond the KeepKitties with the newest saves go whole, the kitty saving
// now always kept; other sessions are never touched.
func TestPruneAll(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	var names []string
	// Kitties 100..111, kitty 100+i's saves at t0+i hours, two each.
	for i := range KeepKitties + 2 {
		for j := range 2 {
			names = append(names, Name(strconv.Itoa(100+i), t0.Add(time.Duration(i)*time.Hour+time.Duration(j)*time.Minute)))
		}
	}
	// The kitty saving now is the oldest of all, with three saves.
	names = append(names, Name("7", t0.Add(-time.Hour)), "work", "autosave-quit")
	got := pruneAll(names, "7", 1)
	want := []string{Name("100", t0), Name("100", t0.Add(time.Minute)), Name("101", t0.Add(time.Hour)),
		Name("101", t0.Add(time.Hour+time.Minute)), Name("102", t0.Add(2*time.Hour)), Name("102", t0.Add(2*time.Hour+time.Minute))}
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	mine := []string{Name("7", t0), Name("7", t0.Add(time.Minute)), Name("7", t0.Add(2*time.Minute))}
	if diff := cmp.Diff(mine[:2], pruneAll(mine, "7", 1)); diff != "" {
		t.Errorf("own saves (-want +got):\n%s", diff)
	}
}
