//go:build linux

package e2e_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/restore"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/stagger"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// The restore benchmark's knobs, from the environment.
const (
	// envBenchRestore must be set for BenchmarkRealRestore to run: it
	// takes minutes, so `just bench` (every benchmark) leaves it out.
	envBenchRestore = "KITTYMUX_BENCH_RESTORE"
	// envBenchRuns is how many times each side is measured per size
	// (default 3).
	envBenchRuns = "KITTYMUX_BENCH_RESTORE_RUNS"
	// envBenchSizes is the sizes, WINDOWSxTABS comma-separated (default
	// 10x3,30x6,60x12).
	envBenchSizes = "KITTYMUX_BENCH_RESTORE_SIZES"
	// envBenchOut is a file the samples are written to, one a line (TSV),
	// for scripts/benchplot.
	envBenchOut = "KITTYMUX_BENCH_RESTORE_OUT"
)

// pollEvery is how often the benchmark asks kitty (ls) and reads the fake
// agents' log: the resolution of its figures. Both sides are polled alike.
const pollEvery = 40 * time.Millisecond

// BenchmarkRealRestore measures a restore as the user feels it, on a real
// kitty 0.43 or newer ($KITTYMUX_KITTY) under Xvfb: a save of N windows
// over T tabs, each a fake claude on its own conversation (it logs its
// argv and waits, as a TUI), and `sessions restore last` run outside kitty,
// which starts a new kitty on it. Each run starts from a copy of the state
// directory as the save left it. From the command's start, the X server's
// own start left out:
//
//   - kitty-alone: kitty started with --session on the same file with
//     every command removed (plain shells in the same tabs, windows and
//     directories), to the last window at its shell prompt (kitty's
//     at_prompt, from bash's shell integration): the floor.
//   - prompts: to every window's restore prompt drawn (its title, which
//     the prompt sets right before it draws its question).
//   - all-exec: one `a` (resume all) typed in one window as soon as every
//     prompt is drawn, to every agent exec'd (the fake agents' log).
//   - report, auto-exec: with KITTYMUX_RESUME=auto (prompts that run
//     without asking), to `sessions restore`'s report of every window
//     complete (the command returns), and to every agent exec'd.
//
// Starts are staggered by resume.interval (one agent's starts spaced):
// the headline runs set it to 0; one run per size with the default
// (stagger-…) shows what it adds. Timings are reported, never asserted.
func BenchmarkRealRestore(b *testing.B) {
	if os.Getenv(envBenchRestore) == "" {
		b.Skipf("takes minutes: set %s=1 to run it (just bench-restore)", envBenchRestore)
	}
	kittyBin := kittytest.NeedKitty(b, kitty.VersionSaveAsSession)
	runs := 3
	if s := os.Getenv(envBenchRuns); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("%s=%q: want a count", envBenchRuns, s)
		}
		runs = n
	}
	sizes, err := parseSizes(cmp.Or(os.Getenv(envBenchSizes), "10x3,30x6,60x12"))
	if err != nil {
		b.Fatal(err)
	}
	resume := buildResume(b)
	var samples []benchSample
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("windows=%d/tabs=%d", sz.windows, sz.tabs), func(b *testing.B) {
			fx := newRestoreFixture(b, kittyBin, resume, sz.windows, sz.tabs)
			got := map[string][]time.Duration{}
			run := 0
			add := func(side string, d time.Duration) {
				got[side] = append(got[side], d)
				samples = append(samples, benchSample{sz.windows, sz.tabs, run, side, d})
			}
			for i := range runs {
				run = i + 1
				// Each side in turn, the order turning every run: load
				// that comes and goes weighs on all alike.
				steps := []func(){
					func() { add("kitty-alone", fx.kittyAlone()) },
					func() {
						m := fx.restore(false, 0)
						add("prompts", m.prompts)
						add("all-exec", m.exec)
						add("key-to-exec", m.exec-m.key)
					},
					func() {
						m := fx.restore(true, 0)
						add("report", m.report)
						add("auto-exec", m.exec)
					},
				}
				if i%2 == 1 {
					slices.Reverse(steps)
				}
				for _, step := range steps {
					step()
				}
			}
			// Once with resume.interval at its default.
			run = 0
			m := fx.restore(true, stagger.DefaultInterval)
			add("stagger-report", m.report)
			add("stagger-auto-exec", m.exec)

			for _, side := range []string{"kitty-alone", "prompts", "all-exec", "key-to-exec", "report", "auto-exec",
				"stagger-report", "stagger-auto-exec"} {
				b.ReportMetric(ms(median(got[side])), side+"-ms")
			}
			// Each run's ratio to kitty alone in the same run, and their
			// median: load that changes between runs weighs on both sides
			// of one ratio alike.
			alone := median(got["kitty-alone"])
			paired := map[string]float64{}
			for _, side := range []string{"prompts", "all-exec", "report"} {
				var rs []float64
				for i, d := range got[side] {
					rs = append(rs, float64(d)/float64(got["kitty-alone"][i]))
				}
				paired[side] = median(rs)
				b.ReportMetric(paired[side], side+"/kitty-alone")
			}
			// Printed, not logged: a benchmark's log is cut after 10 lines.
			fmt.Printf("restore of %d windows over %d tabs, %d runs, medians: kitty alone %.0f ms; prompts %.0f ms (%.2f× paired); "+
				"all exec'd after one `a` %.0f ms (%.2f×; %.0f ms after the key); report %.0f ms (%.2f×), auto exec %.0f ms; "+
				"resume.interval %v: report %.0f ms, auto exec %.0f ms\n",
				sz.windows, sz.tabs, runs, ms(alone), ms(median(got["prompts"])), paired["prompts"],
				ms(median(got["all-exec"])), paired["all-exec"], ms(median(got["key-to-exec"])),
				ms(median(got["report"])), paired["report"], ms(median(got["auto-exec"])),
				stagger.DefaultInterval, ms(median(got["stagger-report"])), ms(median(got["stagger-auto-exec"])))
		})
	}
	if out := os.Getenv(envBenchOut); out != "" && !b.Failed() {
		var buf bytes.Buffer
		buf.WriteString("windows\ttabs\trun\tside\tms\n")
		for _, s := range samples {
			fmt.Fprintf(&buf, "%d\t%d\t%d\t%s\t%.1f\n", s.windows, s.tabs, s.run, s.side, ms(s.d))
		}
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

type benchSize struct{ windows, tabs int }

// parseSizes reads "10x3,30x6".
func parseSizes(s string) ([]benchSize, error) {
	var out []benchSize
	for f := range strings.SplitSeq(s, ",") {
		w, t, ok := strings.Cut(strings.TrimSpace(f), "x")
		nw, err1 := strconv.Atoi(w)
		nt, err2 := strconv.Atoi(t)
		if !ok || err1 != nil || err2 != nil || nw < 1 || nt < 1 || nt > nw {
			return nil, fmt.Errorf("%s: %q is not WINDOWSxTABS", envBenchSizes, f)
		}
		out = append(out, benchSize{nw, nt})
	}
	return out, nil
}

type benchSample struct {
	windows, tabs int
	run           int // 1, 2, ...; 0 for the run with resume.interval at its default
	side          string
	d             time.Duration
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// median is the middle of v (the mean of the two middle ones), 0 for none.
func median[T ~int64 | ~float64](v []T) T {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// buildResume builds the restore prompt as `just build` does (static): the
// restored windows run it, not the test binary.
func buildResume(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "kittymux-resume")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/kittymux/kittymux/cmd/kittymux-resume")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build kittymux-resume: %v\n%s", err, out)
	}
	return bin
}

// restoreFixture is one size's save: the state directory as `sessions save`
// left it (copied for each run), the session without commands for kitty
// alone, and the fake agents.
type restoreFixture struct {
	b        *testing.B
	kittyBin string
	binDir   string
	log      *kittytest.AgentLog
	home     string
	stateTpl string // XDG_STATE_HOME of the save; kittymux's state under it
	plain    string // the saved session with every command removed
	windows  int
	ids      []string
}

// newRestoreFixture starts a kitty with windows fake claudes over tabs
// tabs, each on its own id and directory, saves it (`sessions save bench`,
// the only save, so `last`), and stops it.
func newRestoreFixture(b *testing.B, kittyBin, resume string, windows, tabs int) *restoreFixture {
	b.Helper()
	fx := &restoreFixture{b: b, kittyBin: kittyBin, windows: windows, home: b.TempDir()}
	fx.binDir, fx.log = kittytest.FakeAgents(b, "claude")
	fx.stateTpl = filepath.Join(fx.home, "xdg-state")
	k := kittytest.StartReal(b, kittytest.RealOptions{Kitty: kittyBin,
		Env: append(fx.log.Env(), "XDG_STATE_HOME="+fx.stateTpl)})
	first := kitty.Windows(k.LS())[0].Window.ID
	claude := filepath.Join(fx.binDir, "claude")
	for i := range windows {
		tab := i * tabs / windows
		dir := filepath.Join(fx.home, "work", fmt.Sprintf("t%02d-w%02d", tab, i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		id := fmt.Sprintf("5be1c0de-0000-4000-8000-%012d", i)
		fx.ids = append(fx.ids, id)
		o := kitty.LaunchOptions{Args: []string{claude, "--resume", id}, Cwd: dir}
		if i > 0 && tab != (i-1)*tabs/windows {
			o.Type = "tab"
		}
		k.LaunchWith(o)
	}
	fx.log.WaitFor(b, windows, 60*time.Second)
	if err := k.Client.CloseWindow(b.Context(), "id:"+strconv.Itoa(first)); err != nil {
		b.Fatal(err)
	}
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		ws := kitty.Windows(ls)
		return len(ws) == windows && !slices.ContainsFunc(ws, func(r kitty.WindowRef) bool {
			return len(r.Window.ForegroundProcesses) == 0 ||
				!slices.Contains(r.Window.ForegroundProcesses[0].Cmdline, "--resume")
		})
	}, 60*time.Second)
	p := fx.paths(fx.stateTpl)
	code, out, errOut := fx.kittymux(p, map[string]string{
		"KITTY_LISTEN_ON": k.Addr.String(), "KITTY_PID": strconv.Itoa(k.PID), "KITTYMUX_RESUME_BIN": resume,
	}, "sessions", "save", "bench")
	if code != 0 {
		b.Fatalf("sessions save: exit %d\n%s%s", code, out, errOut)
	}
	k.Stop()
	fx.log.WaitExited(b, k.PID, 30*time.Second)

	data, err := os.ReadFile(p.Session("bench"))
	if err != nil {
		b.Fatal(err)
	}
	if n := bytes.Count(data, []byte(filepath.Base(resume))); n < windows {
		b.Fatalf("the save runs the restore prompt in %d windows, want %d:\n%s", n, windows, data)
	}
	fx.plain = filepath.Join(fx.home, "plain.kitty-session")
	if err := os.WriteFile(fx.plain, withoutCommands(b, data), 0o644); err != nil {
		b.Fatal(err)
	}
	return fx
}

// withoutCommands is the session file with every window's command gone: a
// shell in each, with its directory, tab and place as saved.
func withoutCommands(b *testing.B, data []byte) []byte {
	b.Helper()
	f, err := sessionfile.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range f.Launches() {
		if err := l.Launch.SetArgv(nil); err != nil {
			b.Fatal(err)
		}
		if u := l.Launch.Unserialize; u != nil {
			u.CmdAtShellStartup = sessionfile.CmdAtShellStartup{}
		}
	}
	out, err := f.Encode()
	if err != nil {
		b.Fatal(err)
	}
	return out
}

func (fx *restoreFixture) paths(xdgState string) paths.Paths {
	return paths.Paths{StateDir: filepath.Join(xdgState, "kittymux"), ConfigDir: filepath.Join(fx.home, "config", "kittymux")}
}

// kittymux runs kittymux in-process, as typed in a shell with env added to
// HOME and PATH (the fake agents first).
func (fx *restoreFixture) kittymux(p paths.Paths, env map[string]string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	f := factorytest.Writing(fx.b, &out, &errOut)
	all := map[string]string{"HOME": fx.home, "PATH": fx.binDir + ":" + os.Getenv("PATH")}
	for k, v := range env {
		all[k] = v
	}
	f.Getenv = func(k string) string { return all[k] }
	f.Paths = p
	code := root.Main(f, args)
	return code, out.String(), errOut.String()
}

// kittyAlone starts kitty on the session without commands and returns the
// time from kitty's exec to every window at its shell prompt.
func (fx *restoreFixture) kittyAlone() time.Duration {
	b := fx.b
	b.Helper()
	k := kittytest.StartReal(b, kittytest.RealOptions{Kitty: fx.kittyBin, Session: fx.plain})
	defer k.Stop()
	deadline := time.Now().Add(kittytest.Scaled(120 * time.Second))
	var at time.Time
	for ; ; time.Sleep(pollEvery) {
		if time.Now().After(deadline) {
			b.Fatalf("kitty alone: not every window at its prompt after %v:\n%s", time.Since(k.Launched), k.Log())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ls, err := k.Client.LS(ctx)
		cancel()
		at = time.Now()
		ws := kitty.Windows(ls)
		if err == nil && len(ws) == fx.windows && !slices.ContainsFunc(ws, func(r kitty.WindowRef) bool { return !atPrompt(r.Window) }) {
			break
		}
	}
	return at.Sub(k.Launched)
}

// restoreTimes are one restore's figures, from the command's start (the X
// server's start left out); zero where the run did not measure it.
type restoreTimes struct {
	prompts time.Duration // every prompt drawn
	key     time.Duration // the `a` sent
	exec    time.Duration // every agent exec'd
	ready   time.Duration // every agent taking input (real agents)
	report  time.Duration // the command returned, its report complete
}

// watchFunc polls the restored kitty k from t0 (see restoreFixture.watch).
type watchFunc func(k *kittytest.Real, auto bool, since func(time.Duration) time.Duration, t0 time.Time,
	done chan<- restoreTimes, failed chan<- string)

// restore runs `sessions restore last` outside kitty on a fresh copy of
// the saved state, the new kitty started under its own Xvfb. auto: the
// prompts run without asking (KITTYMUX_RESUME=auto), else the benchmark
// types `a` in one window once every prompt is drawn. interval is
// resume.interval.
func (fx *restoreFixture) restore(auto bool, interval time.Duration) restoreTimes {
	// The fakes write claude's record of the conversation they run, which
	// the report confirms the resume by.
	kenv := func(xdg string) []string {
		return append(fx.log.Env(), "XDG_STATE_HOME="+xdg, "FAKEAGENT_CLAUDE_SESSION=--resume")
	}
	return fx.restoreWith(auto, interval, 60*time.Second, kenv, fx.watch)
}

// restoreWith is restore with the restored kitty's environment kenv(its
// XDG_STATE_HOME), `--wait` wait, and watch timing it.
func (fx *restoreFixture) restoreWith(auto bool, interval, wait time.Duration, kenv func(xdg string) []string, watch watchFunc) restoreTimes {
	b := fx.b
	b.Helper()
	xdg := filepath.Join(b.TempDir(), "xdg-state")
	if out, err := exec.Command("cp", "-a", fx.stateTpl, xdg).CombinedOutput(); err != nil {
		b.Fatalf("copy the state: %v\n%s", err, out)
	}
	env := map[string]string{stagger.EnvInterval: interval.String()}
	kittyEnv := append(kenv(xdg), stagger.EnvInterval+"="+interval.String())
	if auto {
		env["KITTYMUX_RESUME"] = "auto"
		kittyEnv = append(kittyEnv, "KITTYMUX_RESUME=auto")
	}
	var out, errOut bytes.Buffer
	f := factorytest.Writing(b, &out, &errOut)
	all := map[string]string{"HOME": fx.home, "PATH": fx.binDir + ":" + os.Getenv("PATH")}
	for k, v := range env {
		all[k] = v
	}
	f.Getenv = func(k string) string { return all[k] }
	f.Paths = fx.paths(xdg)
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return nil, nil }

	var (
		t0       time.Time
		xvfb     time.Duration // the X server's start and kittytest's own, left out
		k        *kittytest.Real
		watching = make(chan restoreTimes, 1)
		failed   = make(chan string, 1)
	)
	o := restore.RestoreOptions{Name: "last", Wait: wait}.From(f)
	o.LookPath = func(name string) (string, error) {
		if name == "kitty" {
			return fx.kittyBin, nil
		}
		return f.LookPath(name)
	}
	o.StartKitty = func(kp, session string) error {
		hook := time.Now()
		k = kittytest.StartReal(b, kittytest.RealOptions{Kitty: kp, Session: session, Env: kittyEnv})
		xvfb = k.Launched.Sub(hook)
		go watch(k, auto, func(d time.Duration) time.Duration { return d - xvfb }, t0, watching, failed)
		return nil
	}
	t0 = time.Now()
	if err := restore.Restore(context.Background(), o); err != nil {
		b.Fatalf("sessions restore last: %v\n%s%s", err, &out, &errOut)
	}
	returned := time.Since(t0)
	if k == nil {
		b.Fatalf("sessions restore last started no kitty:\n%s%s", &out, &errOut)
	}
	defer func() {
		k.Stop()
		if fx.log != nil {
			fx.log.WaitExited(b, k.PID, 30*time.Second)
		}
	}()
	var m restoreTimes
	select {
	case m = <-watching:
	case why := <-failed:
		b.Fatalf("%s\nsessions restore last:\n%s%s", why, &out, &errOut)
	}
	if auto {
		m.report = returned - xvfb
		if n := strings.Count(out.String(), "resumed without asking"); n != fx.windows {
			b.Fatalf("the report says %d of %d windows resumed:\n%s%s", n, fx.windows, &out, &errOut)
		}
	}
	return m
}

// watch polls k (ls) and the fake agents' log until every agent of k has
// run, from t0; since turns a time since t0 into the figure. Unless auto,
// it types `a` in one window once every window shows its prompt. It sends
// the figures on done, or why it stopped on failed.
func (fx *restoreFixture) watch(k *kittytest.Real, auto bool, since func(time.Duration) time.Duration, t0 time.Time,
	done chan<- restoreTimes, failed chan<- string) {
	var m restoreTimes
	deadline := time.Now().Add(kittytest.Scaled(180 * time.Second))
	pid := strconv.Itoa(k.PID)
	for ; ; time.Sleep(pollEvery) {
		if time.Now().After(deadline) {
			failed <- fmt.Sprintf("no end after %v: %+v\n%s", time.Since(t0), m, k.Log())
			return
		}
		if !auto && m.prompts == 0 {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			ls, err := k.Client.LS(ctx)
			cancel()
			if err != nil {
				continue
			}
			now := time.Since(t0)
			ws := kitty.Windows(ls)
			if len(ws) != fx.windows || slices.ContainsFunc(ws, func(r kitty.WindowRef) bool {
				return !strings.HasPrefix(r.Window.Title, "claude ↻")
			}) {
				continue
			}
			m.prompts = since(now)
			ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
			err = k.Client.SendText(ctx, "id:"+strconv.Itoa(ws[0].Window.ID), "a")
			cancel()
			if err != nil {
				failed <- fmt.Sprintf("send a: %v", err)
				return
			}
			m.key = since(time.Since(t0))
			continue
		}
		now := time.Since(t0)
		n := 0
		for _, r := range agentRuns(fx.log) {
			if r.Env["KITTY_PID"] == pid && slices.Contains(r.Args, "--resume") {
				n++
			}
		}
		if n >= fx.windows {
			m.exec = since(now)
			done <- m
			return
		}
	}
}
