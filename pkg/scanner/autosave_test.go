package scanner_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/scanner"
)

// recordingAutosave notes what the scanner tells it.
type recordingAutosave struct {
	keys    []string
	windows []int
	gone    []int
}

func (a *recordingAutosave) Polled(_ context.Context, in kitty.Instance, key string, windows int, _ time.Time) string {
	a.keys = append(a.keys, key)
	a.windows = append(a.windows, windows)
	return fmt.Sprintf("seen %d", len(a.keys))
}

func (a *recordingAutosave) Gone(in kitty.Instance) { a.gone = append(a.gone, in.PID) }

// TestAutosaveLayout: after each poll the autosave sees the kitty's layout
// as a key that changes with the windows, their directories and the agents'
// ids and commands, not with titles; and it hears when the kitty goes away.
func TestAutosaveLayout(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	k := &fakeKitty{}
	as := &recordingAutosave{}
	inst := kitty.Instance{Addr: kitty.Address{Path: "/tmp/kitty-7"}, Socket: "unix:/tmp/kitty-7", PID: 7,
		Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}}
	sc := scanner.New(scanner.Options{
		Set:      set,
		Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil },
		Client:   func(kitty.Instance) scanner.KittyClient { return k },
		Records:  live.Records{Getenv: func(string) string { return "" }},
		Clock:    newClock(),
		Logf:     t.Logf,
		Autosave: as,
	})
	const a, b = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "0a1b2c3d-0000-4000-8000-000000000000"
	shell := win{id: 1, title: "~", cwd: "/w"}
	claude := func(id string) win {
		return win{id: 2, title: "claude", pid: 42, argv: []string{"claude", "--resume", id}, cwd: "/w/api"}
	}
	steps := []struct {
		name string
		ls   []kitty.OSWindow
	}{
		{"start", lsOf(shell, claude(a))},
		{"a title changed", lsOf(win{id: 1, title: "vim", cwd: "/w"}, claude(a))},
		{"a window opened", lsOf(shell, claude(a), win{id: 3, cwd: "/w"})},
		{"a directory changed", lsOf(win{id: 1, cwd: "/tmp"}, claude(a), win{id: 3, cwd: "/w"})},
		{"another conversation", lsOf(win{id: 1, cwd: "/tmp"}, claude(b), win{id: 3, cwd: "/w"})},
		// The same process read anew with its flags (pi's argv reported
		// after a save).
		{"its command read anew", lsOf(win{id: 1, cwd: "/tmp"},
			win{id: 2, title: "claude", pid: 42, argv: []string{"claude", "--model", "opus", "--resume", b}, cwd: "/w/api"}, win{id: 3, cwd: "/w"})},
	}
	var status []string
	for _, s := range steps {
		k.set(s.ls, nil)
		p, err := sc.Poll(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		status = append(status, p.Kitties[0].Autosave)
	}
	same := func(i, j int) bool { return as.keys[i] == as.keys[j] }
	got := map[string]bool{
		"a title is no change":          same(0, 1),
		"a window opened is one":        !same(1, 2),
		"a directory changed is one":    !same(2, 3),
		"another conversation is one":   !same(3, 4),
		"a command read anew is one":    !same(4, 5),
		"each key is new (none repeat)": !same(0, 2) && !same(0, 3) && !same(0, 4) && !same(2, 4),
	}
	for what, ok := range got {
		if !ok {
			t.Errorf("%s: keys %v", what, as.keys)
		}
	}
	if diff := cmp.Diff([]int{2, 2, 3, 3, 3, 3}, as.windows); diff != "" {
		t.Errorf("windows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"seen 1", "seen 2", "seen 3", "seen 4", "seen 5", "seen 6"}, status); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	k.set(nil, fmt.Errorf("dial: %w", kitty.ErrNoSocket))
	if _, err := sc.Poll(t.Context()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{7}, as.gone); diff != "" {
		t.Errorf("gone (-want +got):\n%s", diff)
	}
}
