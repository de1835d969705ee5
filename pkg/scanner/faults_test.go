package scanner_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

var (
	frameStart = []byte("\x1bP@kitty-cmd")
	frameEnd   = []byte("\x1b\\")
)

func frame(body string) []byte {
	return append(append(append([]byte{}, frameStart...), body...), frameEnd...)
}

// faultRig is a scanner asking a fake kitty over the real protocol (the
// fake's socket, the scanner's own client) on a fake clock.
type faultRig struct {
	fake    *kittytest.Fake
	inst    kitty.Instance
	clock   *clock.Fake
	journal *journal.Journal
	sc      *scanner.Scanner
	saves   *recordingAutosave
	insts   func() []kitty.Instance
}

func newFaultRig(t *testing.T, dir string) *faultRig {
	t.Helper()
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	r := &faultRig{clock: newClock(), saves: &recordingAutosave{}}
	r.fake = kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json"), Dir: dir})
	r.inst = kitty.Instance{Addr: r.fake.Addr, Socket: r.fake.Addr.String(), PID: 0, Version: r.fake.Version}
	r.insts = func() []kitty.Instance { return []kitty.Instance{r.inst} }
	r.journal = journal.New(filepath.Join(t.TempDir(), "agent-sessions.json"), false)
	r.journal.Clock = r.clock
	r.sc = scanner.New(scanner.Options{
		Set:            set,
		Journal:        r.journal,
		Discover:       func(context.Context) ([]kitty.Instance, error) { return r.insts(), nil },
		Records:        live.Records{Getenv: func(string) string { return "" }},
		Clock:          r.clock,
		Logf:           t.Logf,
		Jitter:         func() float64 { return 0 },
		RequestTimeout: 300 * time.Millisecond,
		Autosave:       r.saves,
	})
	return r
}

func (r *faultRig) poll(t *testing.T) scanner.Pass {
	t.Helper()
	p, err := r.sc.Poll(t.Context())
	if err != nil {
		t.Fatalf("poll: %v", err)
	}
	return p
}

// openKeys are the journal's open records, by key.
func (r *faultRig) openKeys(t *testing.T) []string {
	t.Helper()
	f, err := r.journal.Read()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, rec := range f.Records {
		if rec.Open {
			keys = append(keys, rec.Key)
		}
	}
	slices.Sort(keys)
	return keys
}

// TestPollKittyFaults: a kitty whose socket is there but whose answers go
// wrong (the connection dropped mid-reply, no answer at all, garbage,
// ok: false) is a failing kitty, not a gone one: the scanner keeps its
// sessions open, writes nothing about them, tells autosave nothing, backs
// off (2 s, 4 s, ...) and says so in its status, and on the next good
// answer it recovers with the same sessions.
func TestPollKittyFaults(t *testing.T) {
	r := newFaultRig(t, "")
	first := r.poll(t)
	if k := first.Kitties[0]; !k.OK || k.Agents == 0 {
		t.Fatalf("the first poll: %+v", k)
	}
	open := r.openKeys(t)
	if len(open) == 0 {
		t.Fatal("no sessions recorded from the fixture")
	}
	polled := len(r.saves.windows)

	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	faults := []struct {
		name  string
		reply func() []byte
		says  string
	}{
		{"the connection drops mid-reply", func() []byte {
			return frame(`{"ok": true, "data": "[{\"id\": 1, \"tabs\": [{\"id\": 1, \"windows\": [`)[:40]
		}, ""},
		{"no answer at all", func() []byte { <-release; return nil }, "did not answer in time"},
		{"garbage", func() []byte { return []byte("\x00\xffHTTP/1.1 400 Bad Request\r\n\r\n") }, ""},
		{"garbage in a frame", func() []byte { return frame(`{"ok": true, "data": "[{\"id\": 1,`) }, ""},
		{"ok: false", func() []byte { return frame(`{"ok": false, "error": "boom from kitty"}`) }, "boom from kitty"},
		{"ok with no windows list", func() []byte { return frame(`{"ok": true, "data": "{\"not\": \"a list\"}"}`) }, ""},
	}
	wantWait := 2 * time.Second
	for i, f := range faults {
		r.fake.Hook(func(req kittytest.Request) ([]byte, bool) {
			if req.Cmd != "ls" {
				return nil, false
			}
			return f.reply(), true
		})
		p := r.poll(t)
		k := p.Kitties[0]
		if k.OK || k.Error == "" || k.Failures != i+1 || !k.NextPoll.Equal(r.clock.Now().Add(wantWait)) {
			t.Fatalf("%s: the kitty's status %+v, want failing %d times, next try in %v", f.name, k, i+1, wantWait)
		}
		if f.says != "" && !strings.Contains(k.Error, f.says) {
			t.Errorf("%s: the status says %q, want it to say %q", f.name, k.Error, f.says)
		}
		if len(p.Closed) > 0 || !slices.Equal(r.openKeys(t), open) {
			t.Fatalf("%s: sessions closed %v; open %v, were %v", f.name, p.Closed, r.openKeys(t), open)
		}
		if len(r.saves.windows) != polled {
			t.Fatalf("%s: autosave was told of a failed poll: %v", f.name, r.saves.windows)
		}
		// Not asked again before its backoff ends.
		asked := len(r.fake.Requests())
		r.clock.Advance(wantWait - time.Millisecond)
		r.poll(t)
		if len(r.fake.Requests()) != asked {
			t.Fatalf("%s: asked again before the backoff ended", f.name)
		}
		r.clock.Advance(time.Millisecond)
		wantWait = min(2*wantWait, scanner.DefaultBackoffCap)
	}

	r.fake.Hook(nil)
	p := r.poll(t)
	if k := p.Kitties[0]; !k.OK || k.Failures != 0 || k.Error != "" {
		t.Fatalf("after the faults: %+v", k)
	}
	if !slices.Equal(r.openKeys(t), open) || len(p.Closed) > 0 {
		t.Errorf("recovered with other sessions: open %v, were %v; closed %v", r.openKeys(t), open, p.Closed)
	}
	if len(r.saves.windows) != polled+1 || r.saves.windows[polled] != first.Kitties[0].Windows {
		t.Errorf("autosave after recovery saw %v", r.saves.windows)
	}
}

// TestPollKittyReplaced: a kitty quits and another starts with the same
// socket name, as a kitty.conf listen_on without {kitty_pid} does, with
// windows of its own. The scanner does not carry the first kitty's
// sessions over to the second: they are closed, the second kitty's are
// new records, and autosave hears of the first kitty going.
func TestPollKittyReplaced(t *testing.T) {
	dir := kittytest.ShortTempDir(t)
	r := newFaultRig(t, dir)
	// As discovery sees kitties: each with its pid.
	r.inst.PID = 1001
	r.poll(t)
	before := r.openKeys(t)
	if len(before) == 0 {
		t.Fatal("no sessions from the first kitty")
	}
	r.fake.Close()
	var doc []map[string]any
	if err := json.Unmarshal(kittytest.Fixture(t, "0.48.2/ls.json"), &doc); err != nil {
		t.Fatal(err)
	}
	// The second kitty: the same socket path, one window of its own.
	tabs := doc[0]["tabs"].([]any)
	tab := tabs[0].(map[string]any)
	tab["windows"] = tab["windows"].([]any)[:1]
	doc[0]["tabs"] = tabs[:1]
	second, err := json.Marshal(doc[:1])
	if err != nil {
		t.Fatal(err)
	}
	fake2 := kittytest.StartFake(t, kittytest.FakeOptions{LS: second, Dir: dir})
	if fake2.Addr != r.fake.Addr {
		t.Fatalf("the second kitty's socket %s is not the first's %s", fake2.Addr, r.fake.Addr)
	}
	r.inst.PID = 1002
	if err := r.sc.Rescan(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(time.Second)
	p := r.poll(t)
	if len(p.Kitties) != 1 || !p.Kitties[0].OK || p.Kitties[0].PID != 1002 {
		t.Fatalf("kitties after the swap: %+v", p.Kitties)
	}
	f, err := r.journal.Read()
	if err != nil {
		t.Fatal(err)
	}
	var open []journal.Record
	for _, rec := range f.Records {
		switch {
		case slices.Contains(before, rec.Key):
			if rec.Open || rec.CloseReason != journal.ClosedKittyGone {
				t.Errorf("the first kitty's session %s: open %v, closed as %q", rec.Key, rec.Open, rec.CloseReason)
			}
		case rec.Open:
			open = append(open, rec)
		}
	}
	if len(open) != 1 || open[0].KittyPID != 1002 || open[0].WindowID != 1 {
		t.Errorf("the second kitty's sessions: %+v", open)
	}
	if !slices.Equal(r.saves.gone, []int{1001}) {
		t.Errorf("autosave heard of kitties gone: %v, want the first", r.saves.gone)
	}
}
