package autosave_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestAutosaveKittyFaults: autosave through the real save path against a
// fake kitty whose save_as_session goes wrong: it writes half the file and
// drops the connection, says ok: false, sends garbage, or never answers.
// None of these publishes anything: the last good save stays, the status
// says so, and no raw file is left; once kitty answers again, saves resume.
func TestAutosaveKittyFaults(t *testing.T) {
	p := paths.Under(t.TempDir())
	if err := statefile.EnsureState(p); err != nil {
		t.Fatal(err)
	}
	session := kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json"), Session: session})
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	a := &autosave.Autosaver{
		Settings: autosave.Settings{Settle: 20 * time.Second, AtMostEvery: time.Minute, AtLeastEvery: 15 * time.Minute, Keep: 5},
		Store:    autosave.Store{Paths: p, Keep: 5},
		Clock:    clk,
		Logf:     t.Logf,
		Take: autosave.SaveOptions(save.Options{Agents: set, Paths: p, ResumeBin: "/usr/local/bin/kittymux-resume",
			Getenv: func(string) string { return "" }, Clock: clk}),
	}
	in := kitty.Instance{Addr: fake.Addr, Socket: fake.Addr.String(), PID: 4242, Version: fake.Version}
	key := autosave.KittyKey(in)
	layout := 0
	// step: the layout changes and settles, and a save is taken.
	step := func() string {
		t.Helper()
		layout++
		l := "layout" + strings.Repeat("+", layout)
		clk.Advance(time.Minute)
		a.Polled(t.Context(), in, l, 6, clk.Now())
		clk.Advance(21 * time.Second)
		a.Polled(t.Context(), in, l, 6, clk.Now())
		a.Wait()
		return a.Polled(t.Context(), in, l, 6, clk.Now())
	}
	names := func() []string {
		n, err := a.Store.Names(key)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if status := step(); len(names()) != 1 || !strings.HasPrefix(status, "saved ") {
		t.Fatalf("the first save: %q, saves %v", status, names())
	}
	good := names()
	goodData, err := os.ReadFile(p.Session(good[0]))
	if err != nil {
		t.Fatal(err)
	}

	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	frame := func(body string) []byte { return []byte("\x1bP@kitty-cmd" + body + "\x1b\\") }
	for _, f := range []struct {
		name  string
		reply func(path string) []byte
	}{
		{"half the file, then the connection drops", func(path string) []byte {
			_ = os.WriteFile(path, session[:len(session)/2], 0o600)
			return frame(`{"ok": true`)[:10]
		}},
		{"ok: false", func(string) []byte { return frame(`{"ok": false, "error": "No such action"}`) }},
		{"garbage", func(path string) []byte {
			_ = os.WriteFile(path, session[:len(session)/3], 0o600)
			return []byte("\xff\xfe not a frame")
		}},
		{"no answer", func(path string) []byte {
			_ = os.WriteFile(path, session, 0o600)
			<-release
			return nil
		}},
	} {
		fake.Hook(func(r kittytest.Request) ([]byte, bool) {
			action, _ := r.Payload["action"].(string)
			if r.Cmd != "action" || !strings.HasPrefix(action, "save_as_session") {
				return nil, false
			}
			words := strings.Fields(action)
			return f.reply(strings.Trim(words[len(words)-1], `'`)), true
		})
		status := step()
		if got := names(); !slices.Equal(got, good) {
			t.Errorf("%s: saves %v, want only the good one %v", f.name, got, good)
		}
		if !strings.HasPrefix(status, "not saved: ") || !strings.Contains(status, "the last good save stays") {
			t.Errorf("%s: status %q", f.name, status)
		}
		if b, _ := os.ReadFile(p.Session(good[0])); string(b) != string(goodData) {
			t.Errorf("%s: the good save changed", f.name)
		}
		if raw, _ := filepath.Glob(filepath.Join(p.SessionsDir(), ".raw-*")); len(raw) > 0 {
			t.Errorf("%s: raw files left: %q", f.name, raw)
		}
	}

	fake.Hook(nil)
	if status := step(); len(names()) != 2 || !strings.HasPrefix(status, "saved ") {
		t.Errorf("after kitty answers again: %q, saves %v", status, names())
	}
}
