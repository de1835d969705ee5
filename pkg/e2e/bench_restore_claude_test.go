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
	"sync"
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
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// envBenchClaude is the size of BenchmarkRealRestoreClaude, WINDOWSxTABS
// (default 10x3).
const envBenchClaude = "KITTYMUX_BENCH_RESTORE_CLAUDE"

// claudeReady are what claude's TUI shows once it takes input (2.1.197;
// the newest, in auto mode).
var claudeReady = []string{"? for shortcuts", "⏵⏵ auto mode on"}

// BenchmarkRealRestoreClaude is BenchmarkRealRestore with the real claude
// CLI (on PATH) in every window, each holding a real conversation with the
// model stand-in: N conversations are made (`claude -p --session-id ID`),
// a kitty runs `claude --resume ID` in each window, `sessions save` saves
// it, and from a copy of that state `sessions restore last` runs outside
// kitty, beside kitty alone on the same layout with shells. From the
// command's start (the X server's start left out):
//
//   - prompts: every restore prompt drawn;
//   - all-exec: after one `a`, every window's foreground process is claude
//     on its own conversation (kitty's ls: --resume and the window's id);
//   - ready: every claude's TUI taking input (its screen), the agents back
//     at work;
//   - report: with KITTYMUX_RESUME=auto, `restore --wait`'s report
//     complete, every window resumed.
//
// Beside kitty alone with shells, a second floor: kitty on the same save
// with each window running claude --resume ID at once (what the prompts
// exec), to every claude taking input: what bringing the claudes back
// costs without kittymux.
//
// Timings are reported, never asserted; what each window ran is checked.
func BenchmarkRealRestoreClaude(b *testing.B) {
	if os.Getenv(envBenchRestore) == "" {
		b.Skipf("takes minutes: set %s=1 to run it (just bench-restore)", envBenchRestore)
	}
	kittyBin := kittytest.NeedKitty(b, kitty.VersionSaveAsSession)
	claude, err := exec.LookPath("claude")
	if err != nil {
		b.Fatalf("no claude on PATH (npm install @anthropic-ai/claude-code): %v", err)
	}
	runs := 3
	if s := os.Getenv(envBenchRuns); s != "" {
		if runs, err = strconv.Atoi(s); err != nil || runs < 1 {
			b.Fatalf("%s=%q: want a count", envBenchRuns, s)
		}
	}
	sizes, err := parseSizes(cmp.Or(os.Getenv(envBenchClaude), "10x3"))
	if err != nil {
		b.Fatal(err)
	}
	resume := buildResume(b)
	var samples []benchSample
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("windows=%d/tabs=%d", sz.windows, sz.tabs), func(b *testing.B) {
			fx := newClaudeFixture(b, kittyBin, claude, resume, sz.windows, sz.tabs)
			got := map[string][]time.Duration{}
			run := 0
			add := func(side string, d time.Duration) {
				got[side] = append(got[side], d)
				samples = append(samples, benchSample{sz.windows, sz.tabs, run, "claude-" + strings.TrimPrefix(side, "claude-"), d})
			}
			for i := range runs {
				run = i + 1
				steps := []func(){
					func() { add("kitty-alone", fx.alone.kittyAlone()) },
					func() { add("claude-directly", fx.claudesDirectly()) },
					func() {
						m := fx.restore(false)
						add("prompts", m.prompts)
						add("all-exec", m.exec)
						add("key-to-exec", m.exec-m.key)
						add("ready", m.ready)
					},
					func() {
						m := fx.restore(true)
						add("report", m.report)
						add("auto-ready", m.ready)
					},
				}
				if i%2 == 1 {
					slices.Reverse(steps)
				}
				for _, step := range steps {
					step()
				}
			}
			for _, side := range []string{"kitty-alone", "claude-directly", "prompts", "all-exec", "key-to-exec", "ready", "report", "auto-ready"} {
				b.ReportMetric(ms(median(got[side])), side+"-ms")
			}
			paired := map[string]float64{}
			for _, side := range []string{"prompts", "all-exec", "ready", "report"} {
				var rs []float64
				for i, d := range got[side] {
					rs = append(rs, float64(d)/float64(got["kitty-alone"][i]))
				}
				paired[side] = median(rs)
				b.ReportMetric(paired[side], side+"/kitty-alone")
			}
			// Agents back at work over kitty resuming each claude at once.
			for _, side := range []string{"ready", "auto-ready"} {
				var rs []float64
				for i, d := range got[side] {
					rs = append(rs, float64(d)/float64(got["claude-directly"][i]))
				}
				paired[side+"/direct"] = median(rs)
				b.ReportMetric(paired[side+"/direct"], side+"/claude-directly")
			}
			fmt.Printf("restore of %d real claudes over %d tabs, %d runs, medians: kitty alone %.0f ms; prompts %.0f ms (%.2f× paired); "+
				"every claude exec'd after one `a` %.0f ms (%.2f×; %.0f ms after the key); every claude taking input %.0f ms (%.2f×); "+
				"report (auto) %.0f ms (%.2f×), every claude taking input %.0f ms; "+
				"kitty resuming each claude at once, every claude taking input %.0f ms: after `a` %.2f×, auto %.2f× of it\n",
				sz.windows, sz.tabs, runs, ms(median(got["kitty-alone"])), ms(median(got["prompts"])), paired["prompts"],
				ms(median(got["all-exec"])), paired["all-exec"], ms(median(got["key-to-exec"])),
				ms(median(got["ready"])), paired["ready"], ms(median(got["report"])), paired["report"], ms(median(got["auto-ready"])),
				ms(median(got["claude-directly"])), paired["ready/direct"], paired["auto-ready/direct"])
		})
	}
	if out := os.Getenv(envBenchOut); out != "" && !b.Failed() {
		var buf bytes.Buffer
		buf.WriteString("windows\ttabs\trun\tside\tms\n")
		for _, s := range samples {
			fmt.Fprintf(&buf, "%d\t%d\t%d\t%s\t%.1f\n", s.windows, s.tabs, s.run, s.side, ms(s.d))
		}
		name := strings.TrimSuffix(out, ".tsv") + "-claude.tsv"
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// claudeFixture is one size's save of real claudes: the state directory as
// `sessions save` left it, claude's HOME with the conversations, the
// stand-in they talk to.
type claudeFixture struct {
	b        *testing.B
	kittyBin string
	claude   string
	resume   string
	home     string
	direct   string // the save with each window running claude --resume ID
	stateTpl string
	env      []string          // claude's environment besides HOME (the stand-in)
	ids      map[string]string // directory → conversation id
	windows  int
	alone    *restoreFixture // kitty alone on the same layout
}

func newClaudeFixture(b *testing.B, kittyBin, claude, resume string, windows, tabs int) *claudeFixture {
	b.Helper()
	stub := modelstub.Start(b)
	fx := &claudeFixture{b: b, kittyBin: kittyBin, claude: claude, resume: resume, windows: windows, home: b.TempDir(), ids: map[string]string{}}
	b.Cleanup(func() { kittytest.EndLeftovers(fx.home) })
	fx.stateTpl = filepath.Join(fx.home, "xdg-state")
	type conv struct{ dir, id, word string }
	var convs []conv
	var dirs []string
	for i := range windows {
		dir := filepath.Join(fx.home, "work", fmt.Sprintf("t%02d-w%02d", i*tabs/windows, i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		id := fmt.Sprintf("c1a0de00-0000-4000-8000-%012d", i)
		convs = append(convs, conv{dir, id, fmt.Sprintf("WORD%02dX", i)})
		dirs = append(dirs, dir)
		fx.ids[dir] = id
	}
	fx.env = stub.ClaudeHome(b, fx.home, dirs...)
	// Each conversation made by claude itself, two at a time.
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	errs := make([]string, len(convs))
	for i, c := range convs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			cmd := exec.Command(claude, "-p", "--session-id", c.id, "Remember the word "+c.word)
			cmd.Dir = c.dir
			cmd.Env = append(modelstub.Isolated(os.Environ()), append([]string{"HOME=" + fx.home}, fx.env...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("claude -p in %s: %v\n%s", c.dir, err, out)
			}
		})
	}
	wg.Wait()
	for i, c := range convs {
		if errs[i] != "" {
			b.Fatal(errs[i])
		}
		if len(stub.Carrying(c.word)) == 0 {
			b.Fatalf("claude -p never told the stand-in %s:\n%s", c.word, stub.Summary())
		}
	}

	k := kittytest.StartReal(b, kittytest.RealOptions{Kitty: kittyBin, Env: fx.kittyEnv(fx.stateTpl, nil)})
	first := kitty.Windows(k.LS())[0].Window.ID
	var ids []int
	for i, c := range convs {
		o := kitty.LaunchOptions{Args: []string{claude, "--resume", c.id}, Cwd: c.dir}
		if i > 0 && i*tabs/windows != (i-1)*tabs/windows {
			o.Type = "tab"
		}
		ids = append(ids, k.LaunchWith(o))
	}
	for _, id := range ids {
		k.WaitForText("id:"+strconv.Itoa(id), showsAny(claudeReady), 180*time.Second)
	}
	if err := k.Client.CloseWindow(b.Context(), "id:"+strconv.Itoa(first)); err != nil {
		b.Fatal(err)
	}
	p := fx.paths(fx.stateTpl)
	code, out, errOut := fx.kittymux(p, map[string]string{
		"KITTY_LISTEN_ON": k.Addr.String(), "KITTY_PID": strconv.Itoa(k.PID), "KITTYMUX_RESUME_BIN": resume,
	}, "sessions", "save", "bench")
	if code != 0 {
		b.Fatalf("sessions save: exit %d\n%s%s", code, out, errOut)
	}
	k.Stop()
	data, err := os.ReadFile(p.Session("bench"))
	if err != nil {
		b.Fatal(err)
	}
	if n := bytes.Count(data, []byte(filepath.Base(resume))); n < windows {
		b.Fatalf("the save runs the restore prompt in %d windows, want %d:\n%s", n, windows, data)
	}
	fx.alone = &restoreFixture{b: b, kittyBin: kittyBin, windows: windows, home: fx.home,
		plain: filepath.Join(fx.home, "plain.kitty-session")}
	if err := os.WriteFile(fx.alone.plain, withoutCommands(b, data), 0o644); err != nil {
		b.Fatal(err)
	}
	fx.direct = filepath.Join(fx.home, "direct.kitty-session")
	if err := os.WriteFile(fx.direct, fx.resumingDirectly(data), 0o644); err != nil {
		b.Fatal(err)
	}
	return fx
}

// resumingDirectly is the saved session with each window running what its
// prompt execs, claude --resume ID, at once: kitty alone bringing the
// claudes back, without kittymux.
func (fx *claudeFixture) resumingDirectly(data []byte) []byte {
	b := fx.b
	f, err := sessionfile.Parse(withoutCommands(b, data))
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range f.Windows() {
		id := fx.ids[w.Cwd]
		if id == "" {
			b.Fatalf("the save has a window in %q, no directory of the fixture:\n%s", w.Cwd, data)
		}
		if err := w.Line.Launch.SetArgv([]string{fx.claude, "--resume", id}); err != nil {
			b.Fatal(err)
		}
	}
	out, err := f.Encode()
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// claudesDirectly starts kitty on the session that resumes each claude
// at once and returns the time from kitty's exec to every claude taking
// input, on its own conversation.
func (fx *claudeFixture) claudesDirectly() time.Duration {
	b := fx.b
	b.Helper()
	k := kittytest.StartReal(b, kittytest.RealOptions{Kitty: fx.kittyBin, Session: fx.direct,
		Env: fx.kittyEnv(filepath.Join(b.TempDir(), "xdg-state"), nil)})
	defer k.Stop()
	deadline := time.Now().Add(kittytest.Scaled(300 * time.Second))
	ready := map[int]bool{}
	for ; len(ready) < fx.windows; time.Sleep(pollEvery) {
		if time.Now().After(deadline) {
			b.Fatalf("claude directly: %d of %d windows taking input after %v:\n%s", len(ready), fx.windows, time.Since(k.Launched), k.Log())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ls, err := k.Client.LS(ctx)
		cancel()
		if err != nil {
			continue
		}
		for _, r := range kitty.Windows(ls) {
			if ready[r.Window.ID] || !fx.resumed(r.Window) {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			s, err := k.Client.GetText(ctx, "id:"+strconv.Itoa(r.Window.ID), "screen")
			cancel()
			if err == nil && showsAny(claudeReady)(s) {
				ready[r.Window.ID] = true
			}
		}
	}
	return time.Since(k.Launched)
}

// showsAny reports whether a screen shows any of texts.
func showsAny(texts []string) func(string) bool {
	return func(s string) bool {
		return slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(s, t) })
	}
}

// kittyEnv is the restored kitty's environment: claude's HOME and the
// stand-in, kittymux's state, and extra.
func (fx *claudeFixture) kittyEnv(xdgState string, extra []string) []string {
	env := append([]string{"HOME=" + fx.home, "XDG_STATE_HOME=" + xdgState}, fx.env...)
	return append(env, extra...)
}

func (fx *claudeFixture) paths(xdgState string) paths.Paths {
	return paths.Paths{StateDir: filepath.Join(xdgState, "kittymux"), ConfigDir: filepath.Join(fx.home, "config", "kittymux")}
}

// kittymux runs kittymux in-process as typed in a shell with claude's HOME.
func (fx *claudeFixture) kittymux(p paths.Paths, env map[string]string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	f := factorytest.Writing(fx.b, &out, &errOut)
	all := map[string]string{"HOME": fx.home, "PATH": os.Getenv("PATH")}
	for k, v := range env {
		all[k] = v
	}
	f.Getenv = func(k string) string { return all[k] }
	f.Paths = p
	code := root.Main(f, args)
	return code, out.String(), errOut.String()
}

// claudeTimes are one restore's figures, from the command's start.
type claudeTimes struct {
	prompts, key, exec, ready, report time.Duration
}

// restore runs `sessions restore last` outside kitty on a fresh copy of
// the saved state, resume.interval 0. auto: the prompts run without asking
// (KITTYMUX_RESUME=auto); else `a` is typed in one window once every prompt
// is drawn.
func (fx *claudeFixture) restore(auto bool) claudeTimes {
	b := fx.b
	b.Helper()
	xdg := filepath.Join(b.TempDir(), "xdg-state")
	if out, err := exec.Command("cp", "-a", fx.stateTpl, xdg).CombinedOutput(); err != nil {
		b.Fatalf("copy the state: %v\n%s", err, out)
	}
	env := map[string]string{stagger.EnvInterval: "0s"}
	extra := []string{stagger.EnvInterval + "=0s"}
	if auto {
		env["KITTYMUX_RESUME"] = "auto"
		extra = append(extra, "KITTYMUX_RESUME=auto")
	}
	var out, errOut bytes.Buffer
	f := factorytest.Writing(b, &out, &errOut)
	all := map[string]string{"HOME": fx.home, "PATH": os.Getenv("PATH")}
	for k, v := range env {
		all[k] = v
	}
	f.Getenv = func(k string) string { return all[k] }
	f.Paths = fx.paths(xdg)
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return nil, nil }

	var (
		t0       time.Time
		xvfb     time.Duration
		k        *kittytest.Real
		watching = make(chan claudeTimes, 1)
		failed   = make(chan string, 1)
	)
	o := restore.RestoreOptions{Name: "last", Wait: 120 * time.Second}.From(f)
	o.LookPath = func(name string) (string, error) {
		if name == "kitty" {
			return fx.kittyBin, nil
		}
		return f.LookPath(name)
	}
	o.StartKitty = func(kp, session string) error {
		hook := time.Now()
		k = kittytest.StartReal(b, kittytest.RealOptions{Kitty: kp, Session: session, Env: fx.kittyEnv(xdg, extra)})
		xvfb = k.Launched.Sub(hook)
		go fx.watch(k, auto, func(d time.Duration) time.Duration { return d - xvfb }, t0, watching, failed)
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
	defer k.Stop()
	var m claudeTimes
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

// watch polls k until every window's claude takes input, from t0: it
// types `a` once every prompt is drawn (unless auto), notes when every
// window's foreground process is claude on the window's own conversation,
// then when every claude's screen takes input.
func (fx *claudeFixture) watch(k *kittytest.Real, auto bool, since func(time.Duration) time.Duration, t0 time.Time,
	done chan<- claudeTimes, failed chan<- string) {
	var m claudeTimes
	deadline := time.Now().Add(kittytest.Scaled(300 * time.Second))
	ready := map[int]bool{}
	for ; ; time.Sleep(pollEvery) {
		if time.Now().After(deadline) {
			failed <- fmt.Sprintf("no end after %v: %+v\n%s", time.Since(t0), m, k.Log())
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ls, err := k.Client.LS(ctx)
		cancel()
		if err != nil {
			continue
		}
		now := time.Since(t0)
		ws := kitty.Windows(ls)
		if len(ws) != fx.windows {
			continue
		}
		if !auto && m.prompts == 0 {
			if slices.ContainsFunc(ws, func(r kitty.WindowRef) bool { return !strings.HasPrefix(r.Window.Title, "claude ↻") }) {
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
		if m.exec == 0 {
			if stray := slices.IndexFunc(ws, func(r kitty.WindowRef) bool { return fx.ids[r.Window.Cwd] == "" }); stray >= 0 {
				failed <- fmt.Sprintf("window %d in %s, no directory of the save", ws[stray].Window.ID, ws[stray].Window.Cwd)
				return
			}
			if slices.ContainsFunc(ws, func(r kitty.WindowRef) bool { return !fx.resumed(r.Window) }) {
				continue
			}
			m.exec = since(now)
		}
		for _, r := range ws {
			if ready[r.Window.ID] {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			s, err := k.Client.GetText(ctx, "id:"+strconv.Itoa(r.Window.ID), "screen")
			cancel()
			if err == nil && showsAny(claudeReady)(s) {
				ready[r.Window.ID] = true
			}
		}
		if len(ready) == fx.windows {
			m.ready = since(time.Since(t0))
			done <- m
			return
		}
	}
}

// resumed reports whether w's foreground process is claude on w's own
// conversation.
func (fx *claudeFixture) resumed(w *kitty.Window) bool {
	fg := w.ForegroundProcesses
	return len(fg) > 0 && slices.Contains(fg[0].Cmdline, "--resume") && slices.Contains(fg[0].Cmdline, fx.ids[w.Cwd])
}
