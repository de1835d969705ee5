package save_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// copies builds an ls document and a raw save of 6×n windows from the real
// kitty 0.48.2 fixtures (two tabs of three windows: four agents, a shell,
// a codex), each copy's windows and tabs renumbered.
func copies(t testing.TB, n int) (ls, session []byte) {
	var doc []map[string]any
	if err := json.Unmarshal(kittytest.Fixture(t, "0.48.2/ls.json"), &doc); err != nil {
		t.Fatal(err)
	}
	osw := doc[0]
	tabs := osw["tabs"].([]any)
	var all []any
	for c := range n {
		for _, tab := range tabs {
			b, _ := json.Marshal(tab)
			var cp map[string]any
			json.Unmarshal(b, &cp)
			cp["id"] = cp["id"].(float64) + float64(c*len(tabs))
			for _, w := range cp["windows"].([]any) {
				w.(map[string]any)["id"] = w.(map[string]any)["id"].(float64) + float64(c*6)
			}
			all = append(all, cp)
		}
	}
	osw["tabs"] = all
	ls, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	raw := string(kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session"))
	body := raw[:strings.Index(raw, "focus_tab")]
	id := regexp.MustCompile(`"id": (\d+)`)
	var b strings.Builder
	for c := range n {
		b.WriteString(id.ReplaceAllStringFunc(body, func(m string) string {
			v, _ := strconv.Atoi(m[len(`"id": `):])
			return `"id": ` + strconv.Itoa(v+c*6)
		}))
	}
	b.WriteString("focus_tab 1\n")
	return ls, []byte(b.String())
}

// timed counts the time spent waiting on kitty: each request from sending
// to the decoded reply. Subtracted from the whole, it leaves kittymux's own
// part of a save (and leaves out the decoding of ls, which is kittymux's:
// the figure is, if anything, low by that much; the whole is given too).
type timed struct {
	save.Kitty
	mu    sync.Mutex
	spent time.Duration
}

func (k *timed) add(start time.Time) {
	k.mu.Lock()
	k.spent += time.Since(start)
	k.mu.Unlock()
}

func (k *timed) LS(ctx context.Context) ([]kitty.OSWindow, error) {
	defer k.add(time.Now())
	return k.Kitty.LS(ctx)
}

func (k *timed) SetUserVars(ctx context.Context, match string, vars []string) error {
	defer k.add(time.Now())
	return k.Kitty.SetUserVars(ctx, match, vars)
}

func (k *timed) Action(ctx context.Context, action string) error {
	defer k.add(time.Now())
	return k.Kitty.Action(ctx, action)
}

// BenchmarkSave30 takes one save of 30 windows (25 of them agents) through
// the one save path against the fake kitty: ls, marking each agent
// window, save_as_session, reading kitty's file, rewriting and sealing.
// Probes are left out (cached in use; `sessions check`). ns/op is the
// whole; kittymux-ns/op leaves out the time spent waiting on kitty.
func BenchmarkSave30(b *testing.B) {
	ls, raw := copies(b, 5)
	fake := kittytest.StartFake(b, kittytest.FakeOptions{LS: ls, Session: raw})
	set, err := agents.Load("")
	if err != nil {
		b.Fatal(err)
	}
	k := &timed{Kitty: fake.Client}
	o := save.Options{Kitty: k, Agents: set, Paths: paths.Under(b.TempDir()), ResumeBin: "/opt/kittymux/bin/kittymux-resume",
		Name: "bench", All: true, Getenv: func(string) string { return "" }}
	res, err := save.Take(b.Context(), o)
	if err != nil || res.Count != 30 {
		b.Fatalf("save: %v; want 30 windows", err)
	}
	b.ReportAllocs()
	k.spent = 0
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := save.Take(b.Context(), o); err != nil {
			b.Fatal(err)
		}
	}
	whole := time.Since(start)
	b.ReportMetric(float64((whole-k.spent).Nanoseconds())/float64(b.N), "kittymux-ns/op")
	b.ReportMetric(float64(len(res.Windows)), "agent-windows")
}
