//go:build linux

package e2e_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// osc7 is the OSC 7 a program prints to report dir as its directory:
// kitty reads the path percent-decoded, newlines included.
func osc7(dir string) string {
	u := url.URL{Scheme: "file", Host: "localhost", Path: dir}
	return "\x1b]7;" + u.String() + "\x1b\\"
}

// accountFor checks a published save against what kitty listed: every line
// is one of kitty's directives; every launch line is for a window kitty
// listed, once; and marker (in everything the windows printed) reaches no
// command, directory, environment or id: only user vars, which kitty lists
// and restores as data, may hold it.
//
// Without ls (noLS) a directory cannot be checked: only that nothing
// printed runs.
func accountFor(t *testing.T, what string, data []byte, ls []kitty.OSWindow, marker string, noLS bool) {
	t.Helper()
	file, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatalf("%s does not parse: %v\n%s", what, err, data)
	}
	listed := map[int]bool{}
	for _, r := range kitty.Windows(ls) {
		listed[r.Window.ID] = true
	}
	seen := map[int]bool{}
	for _, l := range file.Lines {
		switch l.Directive {
		case "", "new_tab", "layout", "enabled_layouts", "set_layout_state", "focus", "focus_tab", "new_os_window":
			if strings.Contains(l.Raw, marker) && l.Directive != "set_layout_state" {
				t.Errorf("%s: line %d holds printed text: %q", what, l.Num, l.Raw)
			}
		case "cd":
			if strings.Contains(l.Rest, marker) && !noLS {
				t.Errorf("%s: a printed directory became the tab's: %q", what, l.Raw)
			}
		case "launch":
			checkLaunch(t, what, l, listed, seen, marker, noLS)
		default:
			t.Errorf("%s: line %d is no line kitty writes: %q", what, l.Num, l.Raw)
		}
	}
}

func checkLaunch(t *testing.T, what string, l *sessionfile.Line, listed, seen map[int]bool, marker string, noLS bool) {
	t.Helper()
	u := l.Launch.Unserialize
	if u == nil || !listed[u.ID()] || seen[u.ID()] {
		t.Errorf("%s: line %d is not kitty's line for a window it listed: %q", what, l.Num, l.Raw)
		return
	}
	seen[u.ID()] = true
	if strings.Contains(strings.Join(l.Launch.Command(), " "), marker) || strings.Contains(strings.Join(l.Launch.Argv, " "), marker) {
		t.Errorf("%s: printed text reached a command: %q", what, l.Raw)
	}
	if c := u.CmdAtShellStartup; c.Set && strings.Contains(c.String, marker) {
		t.Errorf("%s: printed text reached the shell's command: %q", what, l.Raw)
	}
	for _, o := range l.Launch.Options {
		if o.Name != "--var" && strings.Contains(o.Value, marker) && !(noLS && o.Name == "--cwd") {
			t.Errorf("%s: printed text reached %s: %q", what, o.Name, l.Raw)
		}
		if k, _, _ := strings.Cut(o.Value, "="); o.Name == "--var" && strings.HasPrefix(k, "kittymux_") && strings.Contains(o.Value, marker) {
			t.Errorf("%s: a printed kittymux mark was kept: %q", what, l.Raw)
		}
	}
}

// restoreAndEnter stops k, starts a kitty on the published save, presses
// Enter in every window and reports whether anything wrote into markers.
func restoreAndEnter(t *testing.T, k *kittytest.Real, kittyBin, save string, env []string, windows int, markers string) {
	t.Helper()
	k.Stop()
	k2 := kittytest.StartReal(t, kittytest.RealOptions{Env: env, Kitty: kittyBin, Session: save})
	ls := k2.WaitFor(func(ls []kitty.OSWindow) bool { return len(kitty.Windows(ls)) >= windows }, 30*time.Second)
	for _, r := range kitty.Windows(ls) {
		if err := k2.Client.SendText(t.Context(), "id:"+strconv.Itoa(r.Window.ID), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(kittytest.Scaled(3 * time.Second)) // anything injected has had time to run
	if ents, _ := os.ReadDir(markers); len(ents) > 0 {
		t.Errorf("printed text ran a command: %v", ents)
	}
	if n := len(kitty.Windows(k2.LS())); n != windows {
		t.Errorf("restored %d windows, want %d", n, windows)
	}
}

// saveBoth saves k through `sessions save --all` and through the quit
// capture's path (kitty's raw save, published with the ls kitty gave
// beside it, as the watcher does), checks both against ls, and returns the
// first's path.
func saveBoth(t *testing.T, k *kittytest.Real, env map[string]string, marker string) string {
	t.Helper()
	code, out, errOut := kittymux(t, env, "sessions", "save", "all", "--all", "--json")
	if code != 0 {
		t.Fatalf("save: exit %d\n%s\n%s", code, out, errOut)
	}
	t.Logf("save's warnings:\n%s", errOut)
	var saved shared.SaveResult
	if err := json.Unmarshal([]byte(out), &saved); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ls := k.LS()
	data, err := os.ReadFile(saved.Path)
	if err != nil {
		t.Fatal(err)
	}
	accountFor(t, "sessions save", data, ls, marker, false)
	if got, want := len(must(sessionfile.Parse(data)).Windows()), firstWindows(ls); got != want {
		t.Errorf("sessions save holds %d windows, kitty has %d first in their groups:\n%s", got, want, data)
	}

	dir := t.TempDir()
	raw := filepath.Join(dir, "raw.kitty-session")
	if err := k.Client.Action(t.Context(), "save_as_session --save-only --use-foreground-process "+raw); err != nil {
		t.Fatal(err)
	}
	lsJSON, err := json.Marshal(k.LS())
	if err != nil {
		t.Fatal(err)
	}
	lsPath := filepath.Join(dir, "ls.json")
	if err := os.WriteFile(lsPath, lsJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--ls", lsPath}, nil} {
		code, out, errOut = kittymux(t, env, append([]string{"sessions", "publish", "--stdout", raw}, args...)...)
		if code != 0 {
			t.Fatalf("publish %v: exit %d\n%s", args, code, errOut)
		}
		accountFor(t, fmt.Sprintf("sessions publish %v", args), []byte(out), ls, marker, args == nil)
	}
	return saved.Path
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// firstWindows counts the windows first in their groups: the ones a save
// brings back (kitty writes no line for an ask overlay; kittymux restores
// no overlay).
func firstWindows(ls []kitty.OSWindow) int {
	n := 0
	for _, r := range kitty.Windows(ls) {
		if len(r.Tab.Groups) == 0 || slices.ContainsFunc(r.Tab.Groups, func(g kitty.Group) bool { return g.Windows[0] == r.Window.ID }) {
			n++
		}
	}
	return n
}

// TestRealPrintedLaunchLine: the attack of a program that marks a prompt
// (OSC 133;A), reports as its directory "/tmp⏎⏎launch
// 'kitty-unserialize-data={"id": N}' /bin/sh -c '…'" with N the id kitty
// gives next, then asks to read the clipboard (OSC 52), so that kitty
// opens its "read the clipboard?" overlay as window N and writes the
// directory raw into its save. Saved by `sessions save --all` and the
// quit capture's publish, the line is not kept; restored and Enter pressed
// in every window, nothing runs.
func TestRealPrintedLaunchLine(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	markers := t.TempDir()
	base := e2etest.WorkDirs(t, "base")[0]
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin})
	win := k.LaunchWith(kitty.LaunchOptions{Type: "tab", Cwd: base})
	k.LaunchWith(kitty.LaunchOptions{Cwd: base})
	ls := k.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == win && atPrompt(r.Window) {
				return true
			}
		}
		return false
	}, 30*time.Second)
	var pid, next int
	for _, r := range kitty.Windows(ls) {
		if r.Window.ID == win {
			pid = r.Window.PID
		}
		next = max(next, r.Window.ID+1)
	}
	injected := fmt.Sprintf("%s\n\nlaunch 'kitty-unserialize-data={\"id\": %d}' /bin/sh -c 'touch %s'", base, next, filepath.Join(markers, "ran"))
	writeTTY(t, pid, "\x1b]133;A\x1b\\"+osc7(injected)+"\x1b]52;c;?\x1b\\")
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		return slices.ContainsFunc(kitty.Windows(ls), func(r kitty.WindowRef) bool { return r.Window.ID == next })
	}, 30*time.Second)
	env := realEnv(t, k)
	env["KITTY_LISTEN_ON"], env["KITTY_PID"] = k.Addr.String(), strconv.Itoa(k.PID)
	env["XDG_STATE_HOME"] = filepath.Join(env["HOME"], "xdg-state")
	save := saveBoth(t, k, env, markers)
	restoreAndEnter(t, k, kittyBin, save, []string{"XDG_STATE_HOME=" + env["XDG_STATE_HOME"]}, firstWindows(k.LS()), markers)
}

// TestRealOpenQuoteDirectory: one directory named "nl⏎launch sh -c 'echo …"
// (a quote left open) costs no other window its line: every window of
// every tab is in the save, the four agents' among them, each rewritten.
func TestRealOpenQuoteDirectory(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	binDir, log := kittytest.FakeAgents(t, "claude")
	resume := resumeBin(t)
	markers := t.TempDir()
	base := e2etest.WorkDirs(t, "base")[0]
	hostile := filepath.Join(base, "nl\nlaunch sh -c 'echo > "+filepath.Join(markers, "ran"))
	if err := os.MkdirAll(hostile, 0o700); err != nil {
		t.Fatal(err)
	}
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env(), Kitty: kittyBin})
	k.LaunchWith(kitty.LaunchOptions{Type: "tab", Cwd: hostile})
	k.LaunchWith(kitty.LaunchOptions{Cwd: hostile})
	for range 2 {
		k.LaunchWith(kitty.LaunchOptions{Type: "tab", Cwd: base, Args: []string{filepath.Join(binDir, "claude"), "--model", "opus"}})
		k.LaunchWith(kitty.LaunchOptions{Cwd: base, Args: []string{filepath.Join(binDir, "claude")}})
	}
	waitRuns(t, log, 4, 30*time.Second)
	k.WaitFor(func(ls []kitty.OSWindow) bool {
		n := 0
		for _, r := range kitty.Windows(ls) {
			if r.Window.Cwd == hostile && atPrompt(r.Window) {
				n++
			}
		}
		return n == 2
	}, 30*time.Second)
	env := realEnv(t, k)
	env["PATH"] = binDir + ":" + os.Getenv("PATH")
	env["KITTYMUX_RESUME_BIN"] = resume
	env["KITTY_LISTEN_ON"], env["KITTY_PID"] = k.Addr.String(), strconv.Itoa(k.PID)
	save := saveBoth(t, k, env, "nl\nlaunch")
	data, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "kittymux-resume"); n != 4 {
		t.Errorf("the save holds %d agent records, want 4:\n%s", n, data)
	}
}

// The hostile terminal: programs print random escape sequences (OSC 7
// directories, OSC 133 marks and command lines, OSC 1337 SetUserVar, OSC 2
// titles, OSC 52 reads) with newlines, quotes, backslashes and the window
// and tab ids kitty will give next; then kittymux saves. Every line of
// what it publishes is accounted for, nothing printed reaches a launch
// line's command, directory, environment or id, and restored with Enter
// pressed everywhere nothing printed runs. CI runs the fixed seeds below;
// KITTYMUX_HOSTILE_SEEDS=N runs N more (logged: KITTYMUX_HOSTILE_SEED=S
// replays one), as `just hostile` does.
func TestRealHostileTerminal(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if s := os.Getenv("KITTYMUX_HOSTILE_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = []uint64{n}
	}
	if n, _ := strconv.Atoi(os.Getenv("KITTYMUX_HOSTILE_SEEDS")); n > 0 {
		for range n {
			seeds = append(seeds, rand.Uint64())
		}
	}
	for _, seed := range seeds {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			t.Parallel()
			t.Logf("replay with KITTYMUX_HOSTILE_SEED=%d", seed)
			hostileRun(t, seed)
		})
	}
}

func hostileRun(t *testing.T, seed uint64) {
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	r := rand.New(rand.NewPCG(seed, seed))
	markers := t.TempDir()
	marker := "HOSTILE" + strconv.FormatUint(seed, 36)
	base := e2etest.WorkDirs(t, "base")[0]
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin})
	for i := range 4 {
		k.LaunchWith(kitty.LaunchOptions{Type: map[bool]string{true: "tab", false: "window"}[i%2 == 0], Cwd: base})
	}
	ls := k.WaitFor(func(ls []kitty.OSWindow) bool {
		n := 0
		for _, r := range kitty.Windows(ls) {
			if atPrompt(r.Window) {
				n++
			}
		}
		return n >= 4
	}, 30*time.Second)
	var ids []int
	var pids []int
	for _, w := range kitty.Windows(ls) {
		ids = append(ids, w.Window.ID, w.Tab.ID)
		if w.Window.Cwd == base {
			pids = append(pids, w.Window.PID)
		}
	}
	g := hostileGen{r: r, marker: marker, markers: markers, ids: ids}
	for round := range 3 {
		for _, pid := range pids {
			text := g.text()
			t.Logf("round %d, pid %d prints %q", round, pid, text)
			writeTTY(t, pid, text)
		}
		time.Sleep(kittytest.Scaled(300 * time.Millisecond))
	}
	k.LS() // kitty has read what was printed
	env := realEnv(t, k)
	env["KITTY_LISTEN_ON"], env["KITTY_PID"] = k.Addr.String(), strconv.Itoa(k.PID)
	env["XDG_STATE_HOME"] = filepath.Join(env["HOME"], "xdg-state")
	save := saveBoth(t, k, env, marker)
	restoreAndEnter(t, k, kittyBin, save, []string{"XDG_STATE_HOME=" + env["XDG_STATE_HOME"]}, firstWindows(k.LS()), markers)
}

// hostileGen makes what a hostile program prints.
type hostileGen struct {
	r       *rand.Rand
	marker  string
	markers string
	ids     []int
}

func (g hostileGen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

// id is an id kitty has given or is about to give.
func (g hostileGen) id() int { return g.ids[g.r.IntN(len(g.ids))] + g.r.IntN(4) }

// command is a command line that leaves a mark when it runs.
func (g hostileGen) command() string {
	return g.pick("/bin/sh -c 'touch ", "sh -c \"touch ", "touch ") + filepath.Join(g.markers, g.marker) + g.pick("'", "\"", "")
}

// value is a string with line breaks, quotes and backslashes, and an
// injected line.
func (g hostileGen) value() string {
	sep := g.pick("\n", "\n\n", "\r", "\u2028", "\\\n", "'\n", "\"\n", "\n\n\n")
	line := g.pick(
		fmt.Sprintf("launch 'kitty-unserialize-data={\"id\": %d}' %s", g.id(), g.command()),
		fmt.Sprintf("launch 'kitty-unserialize-data={\"id\": %d, \"cmd_at_shell_startup\": \"%s\"}'", g.id(), g.command()),
		"launch "+g.command(),
		fmt.Sprintf("new_tab\nlayout tall\nset_layout_state {\"all_windows\": {\"window_groups\": [{\"id\": %d, \"window_ids\": [%d]}]}}\ncd /\n\nlaunch 'kitty-unserialize-data={\"id\": %d}' %s", g.id(), g.id(), g.id(), g.command()),
		fmt.Sprintf("focus_tab %d", g.id()),
	)
	return g.pick("/tmp", "/", g.marker, "/tmp/"+g.marker) + sep + line + g.pick("", "'", "\\", "\n")
}

func (g hostileGen) text() string {
	var b strings.Builder
	for range 1 + g.r.IntN(6) {
		switch g.r.IntN(7) {
		case 0:
			b.WriteString("\x1b]133;A\x1b\\")
		case 1:
			b.WriteString(osc7(g.value()))
		case 2:
			enc := url.PathEscape(g.pick(g.command(), g.value(), "claude --dangerously-skip-permissions "+g.marker))
			b.WriteString("\x1b]133;C;cmdline_url=" + enc + "\a")
		case 3:
			key := g.pick("kittymux_agent", "kittymux_session", "kittymux_pid", "x", g.marker)
			val := g.pick("claude", strconv.Itoa(g.id()), g.value(), "0a1b2c3d-0000-4000-8000-000000000000")
			b.WriteString("\x1b]1337;SetUserVar=" + key + "=" + base64.StdEncoding.EncodeToString([]byte(val)) + "\a")
		case 4:
			b.WriteString("\x1b]2;" + strings.ReplaceAll(g.value(), "\n", " ") + "\a")
		case 5:
			b.WriteString("\x1b]52;c;?\a")
		default:
			b.WriteString("\x1b]133;B\a" + g.marker + "\r\n")
		}
	}
	return b.String()
}
