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
	"github.com/kittymux/kittymux/pkg/resumerecord"
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
// auto mode on, no terminal, a journal of 300 records and the lease. The
// sides are static builds (CGO_ENABLED=0) that exec the same "agent",
// /bin/true named claude: a Go program that only execs (the floor), then
// kittymux-resume on two records: "test", a bare sealed record, and
// "saved", the record a save writes for a window the scanner recorded
// (savedRecord: its tab and origin, the journal's open record of the agent
// process, claude's own files of the conversation), the path a restore
// takes; and a fourth, $KITTYMUX_PROMPT_BEFORE on the saved record, when
// set. With hyperfine on PATH it runs them side by side (-N, 30 warm-up
// runs, 300 runs) and reports the medians' differences over the floor;
// then it runs them interleaved itself (each round every side once) and
// reports the median of each round's difference, and of the saved
// record's ratio to the floor. -benchtime 1x is enough: the runs are
// inside. With valgrind on PATH it also counts each side's instructions up
// to the exec (callgrind), which a busy machine does not change.
//
// The records are sealed for the directory the runs start in; HOME holds
// only claude's files of their conversations; the interval
// between unasked starts is 1 ns, so each run takes its slot as a restore
// does but never waits for the one before. KITTYMUX_BENCH_KEEP=DIR (an
// empty directory) makes the files there, keeps them, writes sideN.sh for
// each side and stops: `sideN.sh strace -f` and the like.
func BenchmarkPromptExec(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("measured on Linux")
	}
	dir := b.TempDir()
	keep := os.Getenv("KITTYMUX_BENCH_KEEP")
	if keep != "" {
		dir = keep
	}
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
	key, err := resumerecord.LoadOrCreateKey(p)
	if err != nil {
		b.Fatal(err)
	}
	fill300(b, p)
	id := "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	claudeConversation(b, home, work, id)
	r := resumerecord.Record{Agent: "claude", Mode: "exact", ID: id, Exe: []string{claude}, Dir: work,
		Argv: []string{claude, "--resume", id}}.Sealed(key)
	env := append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "KITTYMUX_RESUME=auto",
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"KITTY_PID=1", "KITTY_WINDOW_ID=7", "KITTY_LISTEN_ON=unix:/tmp/kitty-1", "HOME="+home,
		"KITTYMUX_RESUME_INTERVAL=1ns")
	saved := savedRecord(b, p, key, claude, home, work)
	sides := [][]string{
		append([]string{only}, r.Argv...),
		append([]string{prompt}, r.Args()...),
		append([]string{prompt}, saved.Args()...),
	}
	if keep != "" {
		keepScenario(b, keep, env, work, sides)
		return
	}
	// KITTYMUX_PROMPT_BEFORE: another build of kittymux-resume (an older
	// commit's, say) measured in the same run, third.
	if before := os.Getenv("KITTYMUX_PROMPT_BEFORE"); before != "" {
		sides = append(sides, append([]string{before}, saved.Args()...))
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
	// The sides after the floor, by the name their figures carry:
	// "test" the bare sealed record, "saved" the record a save writes
	// (savedRecord), "before" $KITTYMUX_PROMPT_BEFORE on the saved one.
	names := []string{"", "test", "saved", "before"}
	if vg, err := exec.LookPath("valgrind"); err == nil {
		ins := instructions(b, vg, env, work, sides)
		b.ReportMetric(ins[0]/1e6, "execonly-Minstr")
		for i := 1; i < len(sides); i++ {
			b.ReportMetric((ins[i]-ins[0])/1e6, names[i]+"-own-Minstr")
		}
		b.ReportMetric(ins[2]/ins[0], "saved/execonly-instr")
	}
	if hf, err := exec.LookPath("hyperfine"); err == nil {
		res := hyperfine(b, hf, env, work, sides)
		b.ReportMetric(res[0].Median*1e3, "execonly-median-ms")
		for i := 1; i < len(sides); i++ {
			b.ReportMetric((res[i].Median-res[0].Median)*1e3, names[i]+"-own-median-ms")
			b.ReportMetric((res[i].User+res[i].System-res[0].User-res[0].System)*1e3, names[i]+"-own-cpu-ms")
		}
		b.ReportMetric(res[2].Median/res[0].Median, "saved/execonly-median")
	}
	// Interleaved: hyperfine runs one command 300 times, then the next, so a
	// busy machine's load that changes between them moves the difference.
	// Here each round runs every side once, in turn, and what is reported
	// is the median over the rounds of each round's difference, and of
	// each round's ratio.
	wall, cpu := interleaved(b, env, work, sides, 300)
	for i := 1; i < len(sides); i++ {
		b.ReportMetric(medianDiff(wall[i], wall[0]), names[i]+"-own-paired-ms")
		b.ReportMetric(medianDiff(cpu[i], cpu[0]), names[i]+"-own-paired-cpu-ms")
	}
	b.ReportMetric(medianRatio(wall[2], wall[0]), "saved/execonly-paired")
}

// medianRatio is the median of a[i]/b[i].
func medianRatio(a, b []time.Duration) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = float64(a[i]) / float64(b[i])
	}
	slices.Sort(r)
	return r[len(r)/2]
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

// savedRecord is the record a real `sessions save` writes for a claude
// window (pkg/rewrite): sealed, exact, with the tab, the directory, the
// program kittymux saw run and the origin of the journal's record of the
// agent process; and around it what that save leaves: the journal's record
// of the process (open: no scanner saw it end) among 300, and claude's own
// record of it under HOME.
func savedRecord(b *testing.B, p paths.Paths, key []byte, claude, home, work string) resumerecord.Record {
	id := "5be1c0de-0000-4000-8000-000000000007"
	now := time.Now().Add(-time.Hour)
	// A pid no process has: the agent that ran is gone.
	const gone = 1 << 22
	rec := journal.Record{Key: fmt.Sprintf("%d/%d/%d", 4242, 3, gone), Agent: "claude", ID: id,
		IDFrom: fmt.Sprintf("claude sessions/%d.json", gone), Dir: work, TabTitle: "api work",
		Argv: []string{"claude", "--resume", id}, Exe: []string{claude}, FirstSeen: now, LastSeen: now,
		State: agents.StateIdle, StateSince: now, Open: true, KittyPID: 4242,
		KittySocket: "unix:/tmp/kitty-4242", WindowID: 3, PID: gone, Start: "12345"}
	j := journal.New(p.Journal(), false)
	if _, err := j.Update(func(f *journal.File) error {
		f.Records = f.Records[1:] // still 300
		f.Upsert(rec)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	claudeConversation(b, home, work, id)
	sessions := filepath.Join(home, ".claude", "sessions")
	if err := os.MkdirAll(sessions, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sessions, fmt.Sprintf("%d.json", gone)),
		fmt.Appendf(nil, `{"pid":%d,"sessionId":%q,"cwd":%q,"startedAt":%d}`, gone, id, work, now.UnixMilli()), 0o644); err != nil {
		b.Fatal(err)
	}
	return resumerecord.Record{Agent: "claude", Mode: "exact", ID: id, Tab: rec.TabTitle, Dir: work,
		Exe: []string{claude}, Origin: rec.Origin(), Argv: []string{claude, "--resume", id}}.Sealed(key)
}

// keepScenario writes in keep a script for each side, sideN.sh, that runs
// it as the benchmark does, for strace, perf and callgrind by hand.
func keepScenario(b *testing.B, keep string, env []string, work string, sides [][]string) {
	for i, argv := range sides {
		var sb strings.Builder
		q, _ := syntax.Quote(work, syntax.LangPOSIX)
		sb.WriteString("cd " + q + " || exit\n")
		// Its arguments go before the side's: `side1.sh strace -c`.
		words := []string{"exec", "env", "-i"}
		for _, w := range append(append(slices.Clone(env), "$@"), argv...) {
			q, _ := syntax.Quote(w, syntax.LangPOSIX)
			if w == "$@" {
				q = `"$@"`
			}
			words = append(words, q)
		}
		sb.WriteString(strings.Join(words, " ") + "\n")
		if err := os.WriteFile(filepath.Join(keep, fmt.Sprintf("side%d.sh", i)), []byte(sb.String()), 0o755); err != nil {
			b.Fatal(err)
		}
	}
}

// claudeConversation writes claude's file of conversation id, begun in
// work, under home: the prompt checks it is still there, and where.
func claudeConversation(b *testing.B, home, work, id string) {
	project := filepath.Join(home, ".claude", "projects", strings.ReplaceAll(work, "/", "-"))
	if err := os.MkdirAll(project, 0o755); err != nil {
		b.Fatal(err)
	}
	var conv []byte
	for i := range 20 {
		conv = fmt.Appendf(conv, `{"type":"user","sessionId":%q,"cwd":%q,"uuid":"%08d-0000-4000-8000-000000000000","message":{"role":"user","content":"step %d of the work"}}`+"\n", id, work, i, i)
	}
	if err := os.WriteFile(filepath.Join(project, id+".jsonl"), conv, 0o644); err != nil {
		b.Fatal(err)
	}
}
