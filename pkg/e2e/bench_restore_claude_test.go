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

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessionfile"
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
					func() { add("kitty-alone", fx.kittyAlone()) },
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
	// The save, kitty alone on its layout (plain), the restores: as with
	// the fake agents, claude's directory on PATH, no agent log.
	*restoreFixture
	claude string
	resume string
	direct string            // the save with each window running claude --resume ID
	env    []string          // claude's environment besides HOME (the stand-in)
	ids    map[string]string // directory → conversation id
}

func newClaudeFixture(b *testing.B, kittyBin, claude, resume string, windows, tabs int) *claudeFixture {
	b.Helper()
	stub := modelstub.Start(b)
	home := b.TempDir()
	fx := &claudeFixture{claude: claude, resume: resume, ids: map[string]string{},
		restoreFixture: &restoreFixture{b: b, kittyBin: kittyBin, binDir: filepath.Dir(claude), windows: windows, home: home,
			stateTpl: filepath.Join(home, "xdg-state"), plain: filepath.Join(home, "plain.kitty-session")}}
	b.Cleanup(func() { kittytest.EndLeftovers(fx.home) })
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

	k := kittytest.StartReal(b, kittytest.RealOptions{Kitty: kittyBin, Env: fx.kittyEnv(fx.stateTpl)})
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
	if err := os.WriteFile(fx.plain, withoutCommands(b, data), 0o644); err != nil {
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
		Env: fx.kittyEnv(filepath.Join(b.TempDir(), "xdg-state"))})
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
		fx.markReady(k, kitty.Windows(ls), ready)
	}
	return time.Since(k.Launched)
}

// markReady marks in ready each window of ws whose claude, on the window's
// own conversation, takes input (its screen).
func (fx *claudeFixture) markReady(k *kittytest.Real, ws []kitty.WindowRef, ready map[int]bool) {
	for _, r := range ws {
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

// showsAny reports whether a screen shows any of texts.
func showsAny(texts []string) func(string) bool {
	return func(s string) bool {
		return slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(s, t) })
	}
}

// kittyEnv is a kitty's environment here: claude's HOME and the
// stand-in, and kittymux's state.
func (fx *claudeFixture) kittyEnv(xdgState string) []string {
	return append([]string{"HOME=" + fx.home, "XDG_STATE_HOME=" + xdgState}, fx.env...)
}

// restore runs `sessions restore last` outside kitty on a fresh copy of
// the saved state, resume.interval 0. auto: the prompts run without asking
// (KITTYMUX_RESUME=auto); else `a` is typed in one window once every prompt
// is drawn.
func (fx *claudeFixture) restore(auto bool) restoreTimes {
	return fx.restoreWith(auto, 0, 120*time.Second, fx.kittyEnv, fx.watchClaude)
}

// watchClaude polls k until every window's claude takes input, from t0: it
// types `a` once every prompt is drawn (unless auto), notes when every
// window's foreground process is claude on the window's own conversation,
// then when every claude's screen takes input.
func (fx *claudeFixture) watchClaude(k *kittytest.Real, auto bool, since func(time.Duration) time.Duration, t0 time.Time,
	done chan<- restoreTimes, failed chan<- string) {
	var m restoreTimes
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
		fx.markReady(k, ws, ready)
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
