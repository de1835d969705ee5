package prompt

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/restorerec"
)

// execOnly is the baseline: a static Go program that only execs its
// arguments, so what is left over is kittymux-resume's own time.
const execOnly = `package main

import (
	"os"
	"os/exec"
	"syscall"
)

func main() {
	path, err := exec.LookPath(os.Args[1])
	if err != nil {
		os.Exit(127)
	}
	syscall.Exec(path, os.Args[1:], os.Environ())
	os.Exit(126)
}
`

// BenchmarkPromptExec measures the restore prompt's own time to the agent's
// exec in the case every auto-mode restore takes: a sealed exact record, the
// auto mode on, no terminal, a journal of 300 records and the lease. Both
// sides are static builds (CGO_ENABLED=0) and exec the same "agent", /bin/true
// named claude: kittymux-resume with the record, and a Go program that only
// execs (and a third, $KITTYMUX_PROMPT_BEFORE, when set). With hyperfine on PATH it runs both side by side (-N, 30 warm-up
// runs, 300 runs) and reports hyperfine's means; without it the benchmark
// alternates them itself. -benchtime 1x is enough: the runs are inside.
// With valgrind on PATH it also counts each side's instructions up to the
// exec (callgrind), which a busy machine does not change.
//
// The record is sealed for the directory the runs start in; HOME is an
// empty directory (no agent's files: the conversation check has nothing to
// say, as on a machine where claude keeps them elsewhere); the interval
// between unasked starts is 1 ns, so each run takes its slot as a restore
// does but never waits for the one before.
//
//	go test -run '^$' -bench BenchmarkPromptExec -benchtime 1x ./pkg/prompt/
func BenchmarkPromptExec(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("measured on Linux")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		b.Fatal(err)
	}
	build := func(in, out string, args ...string) {
		cmd := exec.Command("go", append([]string{"build", "-o", out}, args...)...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		cmd.Dir = in
		if o, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", out, err, o)
		}
	}
	prompt := filepath.Join(dir, "kittymux-resume")
	build(".", prompt, "github.com/kittymux/kittymux/cmd/kittymux-resume")
	if err := os.WriteFile(filepath.Join(dir, "execonly.go"), []byte(execOnly), 0o644); err != nil {
		b.Fatal(err)
	}
	only := filepath.Join(dir, "execonly")
	build(dir, only, "execonly.go")
	trueBin, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true on PATH")
	}
	data, err := os.ReadFile(trueBin)
	if err != nil {
		b.Fatal(err)
	}
	claude := filepath.Join(bin, "claude")
	if err := os.WriteFile(claude, data, 0o755); err != nil {
		b.Fatal(err)
	}
	work, home := filepath.Join(dir, "work"), filepath.Join(dir, "home")
	for _, d := range []string{work, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}

	p := paths.Paths{StateDir: filepath.Join(dir, "state", "kittymux"), ConfigDir: filepath.Join(dir, "config", "kittymux")}
	key, err := restorerec.LoadOrCreateKey(p)
	if err != nil {
		b.Fatal(err)
	}
	fill300(b, p)
	id := "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	r := restorerec.Record{Agent: "claude", Mode: "exact", ID: id, Exe: []string{claude}, Dir: work,
		Argv: []string{claude, "--resume", id}}.Sealed(key)
	env := append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "KITTYMUX_RESUME=auto",
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"KITTY_PID=1", "KITTY_WINDOW_ID=7", "KITTY_LISTEN_ON=unix:/tmp/kitty-1", "HOME="+home,
		"KITTYMUX_RESUME_INTERVAL=1ns")
	sides := [][]string{
		append([]string{only}, r.Argv...),
		append([]string{prompt}, r.Args()...),
	}
	// KITTYMUX_PROMPT_BEFORE: another build of kittymux-resume (an older
	// commit's, say) measured in the same run, third.
	if before := os.Getenv("KITTYMUX_PROMPT_BEFORE"); before != "" {
		sides = append(sides, append([]string{before}, r.Args()...))
	}
	// Each side runs the agent and exits 0: the prompt resumed it.
	for _, argv := range sides {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env, cmd.Dir = env, work
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			b.Fatalf("%s: %v\n%s", argv[0], err, out)
		}
	}

	b.ResetTimer()
	if vg, err := exec.LookPath("valgrind"); err == nil {
		ins := instructions(b, vg, env, work, sides)
		b.ReportMetric(ins[0]/1e6, "execonly-Minstr")
		b.ReportMetric(ins[1]/1e6, "prompt-Minstr")
		b.ReportMetric((ins[1]-ins[0])/1e6, "own-Minstr")
		if len(ins) > 2 {
			b.ReportMetric((ins[2]-ins[0])/1e6, "before-own-Minstr")
		}
	}
	if hf, err := exec.LookPath("hyperfine"); err == nil {
		res := hyperfine(b, hf, env, work, sides)
		b.ReportMetric(res[0].Median*1e3, "execonly-median-ms")
		b.ReportMetric(res[1].Median*1e3, "prompt-median-ms")
		b.ReportMetric((res[1].Median-res[0].Median)*1e3, "own-median-ms")
		b.ReportMetric((res[1].Mean-res[0].Mean)*1e3, "own-mean-ms")
		b.ReportMetric((res[1].User+res[1].System-res[0].User-res[0].System)*1e3, "own-cpu-ms")
		if len(res) > 2 {
			b.ReportMetric((res[2].Median-res[0].Median)*1e3, "before-own-median-ms")
		}
	}
	// Interleaved: hyperfine runs one command 300 times, then the next, so a
	// busy machine's load that changes between them moves the difference.
	// Here each round runs every side once, in turn, and what is reported
	// is the median over the rounds of each round's difference.
	wall, cpu := interleaved(b, env, work, sides, 300)
	b.ReportMetric(medianDiff(wall[1], wall[0]), "own-paired-ms")
	b.ReportMetric(medianDiff(cpu[1], cpu[0]), "own-paired-cpu-ms")
	if len(sides) > 2 {
		b.ReportMetric(medianDiff(wall[2], wall[0]), "before-own-paired-ms")
		b.ReportMetric(medianDiff(cpu[2], cpu[0]), "before-own-paired-cpu-ms")
	}
}

// interleaved runs each side once per round, the first to run turning
// from round to round, and returns each side's wall and CPU (user +
// system) time per round.
func interleaved(b *testing.B, env []string, dir string, sides [][]string, rounds int) (wall, cpu [][]time.Duration) {
	wall, cpu = make([][]time.Duration, len(sides)), make([][]time.Duration, len(sides))
	for r := range rounds {
		for k := range sides {
			i := (r + k) % len(sides)
			cmd := exec.Command(sides[i][0], sides[i][1:]...)
			cmd.Env, cmd.Dir = env, dir
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			wall[i] = append(wall[i], time.Since(start))
			cpu[i] = append(cpu[i], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
	}
	return wall, cpu
}

// medianDiff is the median of a[i]-b[i], in milliseconds.
func medianDiff(a, b []time.Duration) float64 {
	d := make([]time.Duration, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	slices.Sort(d)
	return float64(d[len(d)/2].Microseconds()) / 1e3
}

// timing is one command's figures from hyperfine, in seconds.
type timing struct{ Mean, Median, User, System float64 }

// hyperfine runs the commands side by side and returns their figures.
func hyperfine(b *testing.B, hf string, env []string, dir string, sides [][]string) []timing {
	out := filepath.Join(b.TempDir(), "hyperfine.json")
	args := []string{"-N", "-w", "30", "-r", "300", "--export-json", out, "--style", "basic"}
	for _, argv := range sides {
		words := make([]string, len(argv))
		for i, w := range argv {
			q, err := syntax.Quote(w, syntax.LangPOSIX)
			if err != nil {
				b.Fatal(err)
			}
			words[i] = q
		}
		args = append(args, strings.Join(words, " "))
	}
	cmd := exec.Command(hf, args...)
	cmd.Env, cmd.Dir = env, dir
	o, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("hyperfine: %v\n%s", err, o)
	}
	b.Logf("hyperfine:\n%s", o)
	data, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	var res struct{ Results []timing }
	if err := json.Unmarshal(data, &res); err != nil || len(res.Results) != len(sides) {
		b.Fatalf("hyperfine's results: %v\n%s", err, data)
	}
	return res.Results
}

// instructions counts each side's instructions from its start to its exec
// of the agent (callgrind, dumping on entry to syscall.Exec, every thread
// counted), the median of three runs. Asynchronous preemption is off: its
// signals trip callgrind, and neither side is long enough to be preempted.
// RDTSCP is off: callgrind (3.19) cannot decode it, which the runtime uses
// for its clock where the CPU has it (AMD's).
func instructions(b *testing.B, vg string, env []string, dir string, sides [][]string) []float64 {
	out := make([]float64, len(sides))
	for i, argv := range sides {
		var runs []float64
		for n := range 3 {
			file := filepath.Join(b.TempDir(), fmt.Sprintf("cg.%d.%d", i, n))
			cmd := exec.Command(vg, append([]string{"--tool=callgrind", "--dump-before=syscall.Exec",
				"--callgrind-out-file=" + file}, argv...)...)
			cmd.Env, cmd.Dir = append(env, "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off"), dir
			if o, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("valgrind %s: %v\n%s", argv[0], err, o)
			}
			data, err := os.ReadFile(file + ".1") // the first dump: at the exec
			if err != nil {
				b.Fatalf("callgrind dumped nothing at the exec of %s: %v", argv[0], err)
			}
			_, rest, ok := strings.Cut(string(data), "\nsummary: ")
			v, err := strconv.ParseFloat(strings.Fields(rest + " x")[0], 64)
			if !ok || err != nil {
				b.Fatalf("no summary in %s", file+".1")
			}
			runs = append(runs, v)
		}
		slices.Sort(runs)
		out[i] = runs[1]
	}
	b.Logf("instructions to the exec: execonly %.0f, kittymux-resume %.0f", out[0], out[1])
	return out
}

// fill300 writes a journal of 300 closed claude records, none of them the
// benchmark's conversation: the prompt looks its id up among them.
func fill300(b *testing.B, p paths.Paths) {
	j := journal.New(p.Journal(), false)
	now := time.Now()
	if _, err := j.Update(func(f *journal.File) error {
		for i := range journal.MaxRecords {
			f.Upsert(journal.Record{Key: fmt.Sprintf("1/%d/%d", i, 1000+i), Agent: "claude",
				ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Dir: "/home/u/p", Argv: []string{"claude"},
				FirstSeen: now, LastSeen: now, StateSince: now, State: agents.StateIdle, KittyPID: 1, WindowID: i})
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
}
