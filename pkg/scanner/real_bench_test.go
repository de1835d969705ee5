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
	"github.com/kittymux/kittymux/pkg/kitty/kittytest"
	"github.com/kittymux/kittymux/pkg/scanner"
)

// realKitty starts a real kitty with n windows: the first a shell, every
// third of the others a fake claude with its id on the command line, the
// rest shells.
func realKitty(b *testing.B, n int) *kittytest.Real {
	kittytest.NeedReal(b)
	binDir, log := kittytest.FakeAgents(b, "claude")
	k := kittytest.StartReal(b, kittytest.RealOptions{Env: log.Env()})
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

// BenchmarkRealPoll compares one in-process scanner pass (request, decode,
// recognise, read ids, journal diff) with a bare socket ls round trip
// (request and reply, no decode) on the same kitty, with 10 and 30 windows.
func BenchmarkRealPoll(b *testing.B) {
	for _, n := range []int{10, 30} {
		b.Run(fmt.Sprintf("windows=%d", n), func(b *testing.B) {
			k := realKitty(b, n)
			ctx := context.Background()
			b.Run("bare-ls", func(b *testing.B) {
				for b.Loop() {
					if _, err := k.Client.Do(ctx, "ls", map[string]any{}, false); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("poll", func(b *testing.B) {
				set, err := agents.Load("")
				if err != nil {
					b.Fatal(err)
				}
				inst := kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version}
				sc := scanner.New(scanner.Options{Set: set,
					Journal:  journal.New(filepath.Join(b.TempDir(), "agent-sessions.json"), false),
					Discover: func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil },
					Records:  scanner.Records{Getenv: func(string) string { return "" }}})
				if _, err := sc.Poll(ctx); err != nil { // the first pass writes every record
					b.Fatal(err)
				}
				b.ResetTimer()
				for b.Loop() {
					p, err := sc.Poll(ctx)
					if err != nil || len(p.Kitties) != 1 || !p.Kitties[0].OK {
						b.Fatal(p, err)
					}
				}
			})
		})
	}
}

// BenchmarkRealProcess compares `kittymux scanner poll --once` as a whole
// process with `kitty @ ls` on the same kitty of 10 windows.
func BenchmarkRealProcess(b *testing.B) {
	k := realKitty(b, 10)
	dir := b.TempDir()
	bin := filepath.Join(dir, "kittymux")
	build := exec.Command("go", "build", "-o", bin, "github.com/kittymux/kittymux/cmd/kittymux")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	kittyBin, err := exec.LookPath("kitty")
	if err != nil {
		b.Fatal(err)
	}
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config")}
	for _, c := range []struct {
		name string
		argv []string
	}{
		{"kittymux-scanner-poll-once", []string{bin, "--to", k.Addr.String(), "scanner", "poll", "--once"}},
		{"kitty-@-ls", []string{kittyBin, "@", "--to", k.Addr.String(), "ls"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(c.argv[0], c.argv[1:]...)
				cmd.Env = env
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
}
