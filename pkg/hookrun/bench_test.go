package hookrun

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// BenchmarkHookProcess runs `kittymux hook claude UserPromptSubmit` /
// `Stop` as the agent would, a whole process each time: the binary
// starting, the journal (300 records) updated under its lock, and
// set-user-vars sent to a fake kitty on its socket. It reports the 99th
// percentile of one run, the figure the 50 ms budget is about.
func BenchmarkHookProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "kittymux")
	build := exec.Command("go", "build", "-o", bin, "github.com/kittymux/kittymux/cmd/kittymux")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		b.Fatalf("build: %v", err)
	}
	state := b.TempDir()
	j := journal.New(filepath.Join(state, "kittymux", "agent-sessions.json"), false)
	now := time.Now()
	_, err := j.Update(func(f *journal.File) error {
		for i := range journal.MaxRecords {
			f.Upsert(journal.Record{Key: fmt.Sprintf("unix:/tmp/kitty-1|1|%d|%d", i, 1000+i), Agent: "claude",
				ID: fmt.Sprintf("%08d-0000-4000-8000-000000000000", i), Dir: "/home/u/project", Argv: []string{"claude", "--model", "opus"},
				FirstSeen: now, LastSeen: now, State: "idle", StateSince: now, Open: i%3 == 0, KittySocket: "unix:/tmp/kitty-1", WindowID: i})
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	fake := kittytest.StartFake(b, kittytest.FakeOptions{LS: kittytest.Fixture(b, "0.26.5-ls.json")})
	env := append(os.Environ(), "XDG_STATE_HOME="+state, "KITTY_WINDOW_ID=2", "KITTY_PID=999999", "KITTY_LISTEN_ON="+fake.Addr.String())
	events := []string{"UserPromptSubmit", "Stop"}
	var runs []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ev := events[i%2]
		cmd := exec.Command(bin, "hook", "claude", ev)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(payloads["claude"][ev])
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		runs = append(runs, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(runs)
	b.ReportMetric(float64(runs[len(runs)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "p50-ms")
	if log, _ := os.ReadFile(filepath.Join(state, "kittymux", paths.HookLogName)); len(log) > 0 {
		b.Fatalf("the hook logged errors:\n%s", log)
	}
}
