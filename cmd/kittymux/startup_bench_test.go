package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// hello is the floor of a Go command's start-up: a static program that
// prints one line.
const hello = `package main

import "fmt"

func main() { fmt.Println("hello") }
`

// BenchmarkStartup measures the start of every command over a static Go
// "hello": each top-level command's --help, `kittymux version`, `kittymux
// --help` and `kittymux-resume --version`, all built with CGO_ENABLED=0 as
// `just build` does. The sides run interleaved, 300 rounds (each round
// every side once, the first to run turning), and each figure is the
// median over the rounds of that round's ratio to hello: a busy machine's
// load, which changes from second to second, moves both sides of a ratio
// alike. It reports each command's ratio (name-x) and the largest (max-x).
// KITTYMUX_STARTUP_BEFORE=DIR (a directory with another build's kittymux)
// adds that build's `version` and `--help` (before-version-x,
// before-help-x). -benchtime 1x is enough: the runs are inside.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	build := func(in, out string, args ...string) {
		cmd := exec.Command("go", append([]string{"build", "-o", out}, args...)...)
		cmd.Env, cmd.Dir = append(os.Environ(), "CGO_ENABLED=0"), in
		if o, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", out, err, o)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "hello.go"), []byte(hello), 0o644); err != nil {
		b.Fatal(err)
	}
	build(dir, filepath.Join(dir, "hello"), "hello.go")
	build(".", dir+"/", "github.com/kittymux/kittymux/cmd/...")
	km, resume := filepath.Join(dir, "kittymux"), filepath.Join(dir, "kittymux-resume")
	sides := [][]string{{filepath.Join(dir, "hello")}, {km, "version"}, {km, "--help"}, {resume, "--version"}}
	names := []string{"hello", "version", "help", "resume-version"}
	for _, c := range []string{"agents", "completion", "doctor", "hook", "integration", "scanner", "sessions", "setup"} {
		sides = append(sides, []string{km, c, "--help"})
		names = append(names, c+"-help")
	}
	if before := os.Getenv("KITTYMUX_STARTUP_BEFORE"); before != "" {
		sides = append(sides, []string{filepath.Join(before, "kittymux"), "version"}, []string{filepath.Join(before, "kittymux"), "--help"})
		names = append(names, "before-version", "before-help")
	}
	// A home of its own: nothing read there but what a first start reads.
	home := b.TempDir()
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	for _, argv := range sides {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	b.ResetTimer()
	const rounds = 300
	wall := make([][]time.Duration, len(sides))
	for r := range rounds {
		for k := range sides {
			i := (r + k) % len(sides)
			cmd := exec.Command(sides[i][0], sides[i][1:]...)
			cmd.Env = env
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			wall[i] = append(wall[i], time.Since(start))
		}
	}
	b.StopTimer()
	most := 0.0
	for i := 1; i < len(sides); i++ {
		ratios := make([]float64, rounds)
		for r := range rounds {
			ratios[r] = float64(wall[i][r]) / float64(wall[0][r])
		}
		slices.Sort(ratios)
		x := ratios[rounds/2]
		b.ReportMetric(x, names[i]+"-x")
		if !strings.HasPrefix(names[i], "before-") {
			most = max(most, x)
		}
	}
	slices.Sort(wall[0])
	b.ReportMetric(float64(wall[0][rounds/2].Microseconds())/1e3, "hello-ms")
	b.ReportMetric(most, "max-x")
}
