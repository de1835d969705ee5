//go:build linux

package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	agentscmd "github.com/kittymux/kittymux/pkg/cmd/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/restart"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// restartWorld is kittymux acting on one real kitty k as a command run in
// it would: the state directory of k's windows (where kittymux-resume finds
// the sealing key), the kittymux and kittymux-resume testscript puts on
// PATH.
type restartWorld struct {
	k   *kittytest.Real
	env map[string]string
	p   paths.Paths
}

func newRestartWorld(t *testing.T, k *kittytest.Real, env map[string]string) *restartWorld {
	t.Helper()
	if env == nil {
		env = map[string]string{}
	}
	env["KITTYMUX_RESUME_BIN"] = resumeBin(t)
	env["KITTYMUX_RESUME_INTERVAL"] = "200ms"
	env["KITTYMUX_PROBE_TIMEOUT"] = "60s" // a loaded machine answers --help slowly
	if env["PATH"] == "" {
		env["PATH"] = os.Getenv("PATH")
	}
	if env["HOME"] == "" {
		env["HOME"] = k.Home
	}
	return &restartWorld{k: k, env: env,
		p: paths.Paths{StateDir: filepath.Join(k.Dir, "state", "kittymux"), ConfigDir: filepath.Join(k.Dir, "config", "kittymux")}}
}

func (w *restartWorld) factory(t *testing.T, out, errOut *bytes.Buffer) *factory.Factory {
	t.Helper()
	self, err := exec.LookPath("kittymux")
	if err != nil {
		t.Fatalf("kittymux is not on PATH; testscript.Main puts it there: %v", err)
	}
	f := factorytest.Writing(t, out, errOut)
	f.Getenv = func(k string) string { return w.env[k] }
	f.Paths = w.p
	f.Executable = self
	f.To = w.k.Addr.String()
	return f
}

// kittymux runs kittymux in-process on the world's kitty.
func (w *restartWorld) kittymux(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := w.factory(t, &out, &errOut)
	code := root.Main(f, append([]string{"--to", w.k.Addr.String()}, args...))
	return code, out.String(), errOut.String()
}

// restart runs `agents restart --yes --json` with the bounds given and
// returns its windows by their window id.
func (w *restartWorld) restart(t *testing.T, bounds restart.Bounds, args ...string) (int, map[int]restart.Result, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := w.factory(t, &out, &errOut)
	cmd := agentscmd.NewCmdRestart(f, func(o *agentscmd.RestartOptions) error {
		o.Runner = func(r *restart.Runner) {
			if bounds != (restart.Bounds{}) {
				r.Bounds = bounds
			}
		}
		return agentscmd.Restart(t.Context(), o)
	})
	cmd.SetArgs(append([]string{"--yes", "--json"}, args...))
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	code := factory.Report(&errOut, cmd.Execute())
	var got struct{ Windows []restart.Result }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("agents restart: exit %d, %v\n%s\n%s", code, err, out.String(), errOut.String())
	}
	byID := map[int]restart.Result{}
	for _, r := range got.Windows {
		byID[r.WindowID] = r
	}
	return code, byID, out.String() + errOut.String()
}

// shape is what `ls` says of a kitty's layout: its tabs in order, each
// with its layout and layout state, its window groups in layout order
// (kitty 0.4x lists them; they are what the layout places) and each
// window's size and title. ls lists windows in the order they were made,
// not where they are: they are kept by id.
type shapeWindow struct {
	ID          int
	Lines, Cols int
	Title       string
}

type shapeGroup struct {
	ID      int   `json:"id"`
	Windows []int `json:"windows"`
}

type shapeTab struct {
	ID          int
	Title       string
	Layout      string
	LayoutState any
	Groups      []shapeGroup
	Windows     []shapeWindow
}

func shapeOf(t *testing.T, k *kittytest.Real) []shapeTab {
	t.Helper()
	raw, err := k.Client.LSRaw(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var ls []struct {
		Tabs []struct {
			ID          int          `json:"id"`
			Title       string       `json:"title"`
			Layout      string       `json:"layout"`
			LayoutState any          `json:"layout_state"`
			Groups      []shapeGroup `json:"groups"`
			Windows     []struct {
				ID      int    `json:"id"`
				Lines   int    `json:"lines"`
				Columns int    `json:"columns"`
				Title   string `json:"title"`
			} `json:"windows"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal(raw, &ls); err != nil {
		t.Fatal(err)
	}
	var out []shapeTab
	for _, o := range ls {
		for _, tab := range o.Tabs {
			st := shapeTab{ID: tab.ID, Title: tab.Title, Layout: tab.Layout, LayoutState: tab.LayoutState, Groups: tab.Groups}
			for _, w := range tab.Windows {
				st.Windows = append(st.Windows, shapeWindow{ID: w.ID, Lines: w.Lines, Cols: w.Columns, Title: w.Title})
			}
			out = append(out, st)
		}
	}
	return out
}

// renumbered is shape with window ids changed as moved says (an agent
// started without a shell comes back in a new window in its place), its
// windows in id order.
func renumbered(s []shapeTab, moved map[int]int) []shapeTab {
	out := slices.Clone(s)
	for i := range out {
		out[i].Windows = slices.Clone(out[i].Windows)
		for j, w := range out[i].Windows {
			if n, ok := moved[w.ID]; ok {
				out[i].Windows[j].ID = n
			}
		}
		slices.SortFunc(out[i].Windows, func(a, b shapeWindow) int { return a.ID - b.ID })
		out[i].LayoutState = layoutState(out[i].LayoutState, moved)
		out[i].Groups = slices.Clone(out[i].Groups)
		for j, g := range out[i].Groups {
			g.Windows = slices.Clone(g.Windows)
			for k, id := range g.Windows {
				if n, ok := moved[id]; ok {
					g.Windows[k] = n
				}
			}
			out[i].Groups[j] = g
		}
	}
	return out
}

// layoutState is a tab's layout state with window ids changed as moved
// says and without the history of which window was active, which is focus,
// not layout (launching a window next to another records a visit there).
func layoutState(v any, moved map[int]int) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			switch k {
			case "active_group_history":
			case "window_ids":
				ids, _ := e.([]any)
				var renum []any
				for _, id := range ids {
					if f, ok := id.(float64); ok {
						if n, ok := moved[int(f)]; ok {
							id = float64(n)
						}
					}
					renum = append(renum, id)
				}
				out[k] = renum
			default:
				out[k] = layoutState(e, moved)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = layoutState(e, moved)
		}
		return out
	}
	return v
}

// shellWindow opens a shell in dir with env and types line into it once
// the shell shows its prompt.
func shellWindow(t *testing.T, k *kittytest.Real, dir string, env []string, line string) int {
	t.Helper()
	id := k.LaunchWith(kitty.LaunchOptions{Cwd: dir, Env: env})
	k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(s, "$") || strings.Contains(s, "#") }, 30*time.Second)
	if err := k.Client.SendText(t.Context(), winMatch(id), line+"\r"); err != nil {
		t.Fatal(err)
	}
	return id
}

func winMatch(id int) string { return "id:" + strconv.Itoa(id) }

// onBothKitties runs test on kitty on PATH and on kitty 0.43 (NeedKitty's),
// at once.
func onBothKitties(t *testing.T, test func(t *testing.T, kittyBin string)) {
	for _, tc := range []struct {
		name string
		need kitty.Version
	}{{name: "kitty on PATH"}, {name: "kitty 0.43", need: kitty.VersionSaveAsSession}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var bin string
			if !tc.need.IsZero() {
				bin = kittytest.NeedKitty(t, tc.need)
			}
			test(t, bin)
		})
	}
}

// sameLayout reports where k's layout differs from before, titles aside:
// the agents' own, which a new turn changes.
func sameLayout(t *testing.T, k *kittytest.Real, before []shapeTab) {
	t.Helper()
	after := shapeOf(t, k)
	for i := range after {
		for j := range after[i].Windows {
			after[i].Windows[j].Title = ""
		}
		after[i].Title = ""
	}
	for i := range before {
		for j := range before[i].Windows {
			before[i].Windows[j].Title = ""
		}
		before[i].Title = ""
	}
	if diff := cmp.Diff(renumbered(before, nil), renumbered(after, nil)); diff != "" {
		t.Errorf("layout (-before +after):\n%s", diff)
	}
}

// flatText joins a screen's lines: a long line a TUI wrapped reads whole.
func flatText(s string) string { return strings.Join(strings.Fields(s), " ") }

// runsOf returns the fake agents' runs (not their --help probes) with the
// args given.
func runsOf(log *kittytest.AgentLog, name string, args ...string) []kittytest.AgentRecord {
	var out []kittytest.AgentRecord
	for _, r := range log.Records() {
		if r.Name == name && slices.Equal(r.Args, args) {
			out = append(out, r)
		}
	}
	return out
}

// TestRealAgentsRestartFakes: `agents restart` on fake agents in a real
// kitty, each way of ending an agent: claude's SIGINT, codex's typed /quit,
// an agent that ignores its clean way (SIGTERM after it), an agent started
// without a shell (an overlay takes its place); a window without an exact
// id and a working agent are left alone. Every restarted agent runs again
// in its own window on its own conversation, and ls shows the same layout.
func TestRealAgentsRestartFakes(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	onBothKitties(t, testRestartFakes)
}

func testRestartFakes(t *testing.T, kittyBin string) {
	binDir, log := kittytest.FakeAgents(t, "claude", "codex")
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin,
		Env: append(log.Env(), "FAKEAGENT_TITLE=fake agent", "FAKEAGENT_QUIT=/quit")})
	dirs := e2etest.WorkDirs(t, "api", "web", "cli", "docs", "ops", "lab")
	const (
		u1 = "21a00001-1111-4111-8111-111111111111"
		u2 = "21a00002-2222-4222-8222-222222222222"
		u3 = "21a00003-3333-4333-8333-333333333333"
		u4 = "21a00004-4444-4444-8444-444444444444"
		u6 = "21a00006-6666-4666-8666-666666666666"
	)
	claude := filepath.Join(binDir, "claude")
	sigint := shellWindow(t, k, dirs[0], nil, "claude --resume "+u1)
	quit := shellWindow(t, k, dirs[1], nil, "codex resume "+u2)
	direct := k.LaunchWith(kitty.LaunchOptions{Args: []string{claude, "--resume", u3}, Cwd: dirs[2], Env: []string{"FAKEAGENT_PLACE=direct"}})
	stubborn := shellWindow(t, k, dirs[3], []string{"FAKEAGENT_IGNORE=INT"}, "claude --resume "+u4)
	noID := shellWindow(t, k, dirs[4], nil, "codex")
	working := shellWindow(t, k, dirs[5], []string{"FAKEAGENT_TITLE=\u2802 busy"}, "claude --resume "+u6)
	log.WaitFor(t, 6, 30*time.Second)
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, ref := range kitty.Windows(ls) {
			if ref.Window.ID != 1 && !strings.Contains(ref.Window.Title, "fake agent") && !strings.Contains(ref.Window.Title, "busy") {
				return false
			}
		}
		return true
	}, 30*time.Second)
	before := shapeOf(t, k)

	env := map[string]string{"PATH": binDir + ":" + os.Getenv("PATH")} // the probes read the fakes' --help
	w := newRestartWorld(t, k, env)
	runs := len(log.Records())
	// Without a terminal to ask, it wants --yes; --dry-run says what it
	// would do and does nothing.
	if code, out, errOut := w.kittymux(t, "agents", "restart"); code != 2 || !strings.Contains(errOut, "--yes") {
		t.Errorf("agents restart with no terminal: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := w.kittymux(t, "agents", "restart", "--dry-run")
	if code != 0 {
		t.Errorf("--dry-run: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("agents restart --dry-run:\n%s", out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range []string{
		fmt.Sprintf("would restart window %d claude pid", sigint),
		fmt.Sprintf("would restart window %d codex pid", quit),
		fmt.Sprintf("skipped window %d codex %s: no exact conversation id", noID, dirs[4]),
		fmt.Sprintf("skipped window %d claude %s: the agent is working", working, dirs[5]),
	} {
		if !slices.ContainsFunc(lines, func(line string) bool { return strings.HasPrefix(flatText(line), l) }) {
			t.Errorf("--dry-run: no line %q in\n%s", l, out)
		}
	}
	if len(lines) != 10 || !strings.Contains(out, "SIGINT, then the restore prompt in an overlay") ||
		!strings.Contains(out, "typed /quit, then the restore prompt typed into bash") {
		t.Errorf("--dry-run:\n%s", out)
	}
	// --match: kitty's own match expressions (0.30 and newer; id:N on
	// older kitty too).
	if code, out, errOut := w.kittymux(t, "agents", "restart", "--dry-run", "--match", winMatch(quit)); code != 0 ||
		!strings.HasPrefix(flatText(out), fmt.Sprintf("would restart window %d codex", quit)) || strings.Count(out, "\n") != 2 {
		t.Errorf("--match %s: exit %d\n%s%s", winMatch(quit), code, out, errOut)
	}
	if code, out, errOut := w.kittymux(t, "agents", "restart", "--dry-run", "--match", "id:999"); code != 0 || out != "" {
		t.Errorf("--match id:999: exit %d\n%s%s", code, out, errOut)
	}
	if n := len(log.Records()); n != runs {
		t.Errorf("--dry-run started %d agents", n-runs)
	}

	code, got, out := w.restart(t, restart.Bounds{Clean: 3 * time.Second, Term: 3 * time.Second, Kill: 3 * time.Second, Start: 30 * time.Second})
	if code != 0 {
		t.Errorf("exit %d\n%s", code, out)
	}
	type row struct{ Outcome, How, Why string }
	rows := map[int]row{}
	for id, r := range got {
		why := r.Why
		if i := strings.Index(why, ":"); i > 0 {
			why = why[:i]
		}
		how := r.How
		if i := strings.Index(how, ", the restore prompt"); i > 0 {
			how = how[:i]
		}
		rows[id] = row{r.Outcome, how, why}
	}
	want := map[int]row{
		sigint:   {restart.Restarted, "ended with SIGINT", ""},
		quit:     {restart.Restarted, "ended with typed /quit", ""},
		direct:   {restart.Restarted, "ended with SIGINT", ""},
		stubborn: {restart.Restarted, "did not end with SIGINT: ended with SIGTERM", ""},
		noID:     {restart.Skipped, "", "no exact conversation id"},
		working:  {restart.Skipped, "", "the agent is working (--all restarts it anyway)"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("agents restart (-want +got):\n%s\n%s", diff, out)
	}

	// Each restarted agent runs again on its own conversation, in its own
	// window, as a new process; under a shell, the shell's child again.
	for _, c := range []struct {
		window int
		name   string
		args   []string
	}{
		{sigint, "claude", []string{"--resume", u1}},
		{quit, "codex", []string{"resume", u2}},
		{direct, "claude", []string{"--resume", u3}},
		{stubborn, "claude", []string{"--resume", u4}},
	} {
		// The new process is seen running before it has logged its start
		// (at load 16 in CI): its log line is waited for, bounded.
		runs := runsOf(log, c.name, c.args...)
		for deadline := time.Now().Add(kittytest.Scaled(10 * time.Second)); len(runs) < 2 && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
			runs = runsOf(log, c.name, c.args...)
		}
		if len(runs) != 2 {
			t.Errorf("window %d: %d runs of %s %q, want 2 (before and after)", c.window, len(runs), c.name, c.args)
			continue
		}
		old, now := runs[0], runs[1]
		r := got[c.window]
		if r.OldPID != old.PID || r.NewPID != now.PID || r.ID != c.args[len(c.args)-1] {
			t.Errorf("window %d: result pids %d → %d id %s; runs %d → %d", c.window, r.OldPID, r.NewPID, r.ID, old.PID, now.PID)
		}
		wantWin := strconv.Itoa(c.window)
		if c.window == direct {
			wantWin = strconv.Itoa(r.NewWindowID)
			if now.Env["FAKEAGENT_PLACE"] != "direct" {
				t.Errorf("the direct agent lost its window's environment: %v", now.Env)
			}
		} else if now.PPID != old.PPID {
			t.Errorf("window %d: the new agent's parent is %d, want the shell %d", c.window, now.PPID, old.PPID)
		}
		if now.Env["KITTY_WINDOW_ID"] != wantWin || now.Cwd != old.Cwd {
			t.Errorf("window %d: the new agent runs in window %s in %s, want %s in %s", c.window, now.Env["KITTY_WINDOW_ID"], now.Cwd, wantWin, old.Cwd)
		}
	}
	if n := len(runsOf(log, "claude", "--resume", u6)); n != 1 {
		t.Errorf("the working agent ran %d times, want once", n)
	}

	// The layout is as it was: the same tabs and windows in the same order
	// and sizes, the direct agent's window replaced in its place.
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		return !slices.ContainsFunc(kitty.Windows(ls), func(r kitty.WindowRef) bool { return r.Window.ID == direct })
	}, 10*time.Second)
	wantShape := renumbered(before, map[int]int{direct: got[direct].NewWindowID})
	if diff := cmp.Diff(wantShape, renumbered(shapeOf(t, k), nil)); diff != "" {
		t.Errorf("layout (-before +after):\n%s", diff)
	}
}
