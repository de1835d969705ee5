//go:build linux

package scanner_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// realKitty starts a real kitty (kittyBin, "" for kitty on PATH) with n
// windows: the first a shell, every third of the others a fake claude with
// its id on the command line, the rest shells.
func realKitty(b *testing.B, kittyBin string, n int) *kittytest.Real {
	kittytest.NeedReal(b)
	binDir, log := kittytest.FakeAgents(b, "claude")
	k := kittytest.StartReal(b, kittytest.RealOptions{Env: log.Env(), Kitty: kittyBin})
	for i := 1; i < n; i++ {
		o := kitty.LaunchOptions{Cwd: k.Home}
		if i%3 == 0 {
			o.Args = []string{filepath.Join(binDir, "claude"), "--resume", fmt.Sprintf("4f9e2a51-3c1d-4b7a-9e0f-%012d", i)}
		}
		k.LaunchWith(o)
	}
	k.WaitFor(func(ls []kitty.OSWindow) bool { return len(kitty.Windows(ls)) == n }, 60*time.Second)
	return k
}

// pair times a and b alternately, b.N times each, and reports the mean of
// each in ms and b's mean over a's: on a shared machine, load that comes
// and goes weighs on both alike.
func pair(b *testing.B, nameA string, a func(), nameB string, fb func()) {
	var ta, tb time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		a()
		mid := time.Now()
		fb()
		ta += mid.Sub(start)
		tb += time.Since(mid)
	}
	b.ReportMetric(float64(ta.Microseconds())/1000/float64(b.N), nameA+"-ms")
	b.ReportMetric(float64(tb.Microseconds())/1000/float64(b.N), nameB+"-ms")
	b.ReportMetric(float64(tb)/float64(ta), nameB+"/"+nameA)
}

// BenchmarkRealPoll compares one in-process scanner pass (request, decode,
// recognise, read ids, journal diff) with a bare socket ls round trip (the
// request and its reply's bytes, nothing decoded) on the same kitty (kitty
// on PATH), with 10 and 30 windows, alternating the two.
func BenchmarkRealPoll(b *testing.B) {
	for _, n := range []int{10, 30} {
		b.Run(fmt.Sprintf("windows=%d", n), func(b *testing.B) {
			k := realKitty(b, "", n)
			ctx := context.Background()
			set, err := agents.Load("")
			if err != nil {
				b.Fatal(err)
			}
			inst := kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version}
			sc := scanner.New(scanner.Options{Set: set,
				Journal:  journal.New(filepath.Join(b.TempDir(), "agent-sessions.json"), false),
				Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil },
				Records:  live.Records{Getenv: func(string) string { return "" }}})
			if _, err := sc.Poll(ctx); err != nil { // the first pass writes every record
				b.Fatal(err)
			}
			b.ResetTimer()
			pair(b, "bare-ls", func() {
				if _, err := k.Client.RoundTrip(ctx, "ls", map[string]any{}); err != nil {
					b.Fatal(err)
				}
			}, "poll", func() {
				p, err := sc.Poll(ctx)
				if err != nil || len(p.Kitties) != 1 || !p.Kitties[0].OK {
					b.Fatal(p, err)
				}
			})
		})
	}
}

// BenchmarkRealProcess compares `kittymux scanner poll --once` as a whole
// process with kitty's own client on the same kitty of 10 windows:
// `kitty @ ls` on kitty on PATH (0.26.5: a Python client), and `kitten @ ls`
// (the Go client beside it) on $KITTYMUX_KITTY (0.48.2), alternating the
// two.
func BenchmarkRealProcess(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "kittymux")
	build := exec.Command("go", "build", "-o", bin, "github.com/kittymux/kittymux/cmd/kittymux")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config")}
	// run also adds the process's CPU time (user and system) to cpu: on a
	// shared machine it says more than the wall time.
	run := func(cpu *time.Duration, argv ...string) func() {
		return func() {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
			*cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
	}
	reportCPU := func(b *testing.B, nameA string, a time.Duration, nameB string, cb time.Duration) {
		b.ReportMetric(float64(a.Microseconds())/1000/float64(b.N), nameA+"-cpu-ms")
		b.ReportMetric(float64(cb.Microseconds())/1000/float64(b.N), nameB+"-cpu-ms")
		b.ReportMetric(float64(cb)/float64(a), nameB+"/"+nameA+"-cpu")
	}
	b.Run("kitty-@-ls", func(b *testing.B) {
		kittyBin, err := exec.LookPath("kitty")
		if err != nil {
			b.Fatal(err)
		}
		k := realKitty(b, "", 10)
		var cpuA, cpuB time.Duration
		b.ResetTimer()
		pair(b, "poll-once", run(&cpuA, bin, "--to", k.Addr.String(), "scanner", "poll", "--once"),
			"kitty-ls", run(&cpuB, kittyBin, "@", "--to", k.Addr.String(), "ls"))
		reportCPU(b, "poll-once", cpuA, "kitty-ls", cpuB)
	})
	b.Run("kitten-@-ls", func(b *testing.B) {
		kittyBin := kittytest.NeedKitty(b, kitty.VersionSaveAsSession)
		k := realKitty(b, kittyBin, 10)
		kitten := filepath.Join(filepath.Dir(kittyBin), "kitten")
		var cpuA, cpuB time.Duration
		b.ResetTimer()
		pair(b, "poll-once", run(&cpuA, bin, "--to", k.Addr.String(), "scanner", "poll", "--once"),
			"kitten-ls", run(&cpuB, kitten, "@", "--to", k.Addr.String(), "ls"))
		reportCPU(b, "poll-once", cpuA, "kitten-ls", cpuB)
	})
}
