//go:build linux

package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// lastRig is the ground of the crash journeys: real kitties 0.43 or newer
// ($KITTYMUX_KITTY) sharing one kittymux state with the scanner (short
// autosave settings), fake agents that record their argv, and kittymux run
// as if typed in a shell, inside one of the kitties or outside.
type lastRig struct {
	t        *testing.T
	kittyBin string
	binDir   string
	log      *kittytest.AgentLog
	home     string
	xdgState string
	p        paths.Paths
	env      map[string]string
	scanLog  *kittytest.Buffer

	mu      sync.Mutex
	kitties []*kittytest.Real
}

func newLastRig(t *testing.T, agents ...string) *lastRig {
	t.Helper()
	return newRig(t, kittytest.NeedKitty(t, kitty.VersionSaveAsSession), agents...)
}

// newRig is a lastRig on kittyBin ("": kitty on PATH, Debian's 0.26.5 in CI).
func newRig(t *testing.T, kittyBin string, agents ...string) *lastRig {
	t.Helper()
	r := &lastRig{t: t, kittyBin: kittyBin, scanLog: &kittytest.Buffer{}}
	r.binDir, r.log = kittytest.FakeAgents(t, agents...)
	r.home = t.TempDir()
	// Where kitty's windows (the restore prompts, the offer) find kittymux's
	// state: $XDG_STATE_HOME/kittymux, a real directory.
	r.xdgState = filepath.Join(r.home, "xdg-state")
	r.p = paths.Paths{StateDir: filepath.Join(r.xdgState, "kittymux"), ConfigDir: filepath.Join(r.home, "config", "kittymux")}
	r.env = map[string]string{
		"HOME": r.home, "PATH": r.binDir + ":" + os.Getenv("PATH"), "KITTYMUX_RESUME_BIN": resumeBin(t),
		autosave.EnvSettle: "1s", autosave.EnvAtMostEvery: "1s", autosave.EnvAtLeastEvery: "10s", autosave.EnvKeep: "3",
	}
	return r
}

// start starts a kitty the scanner finds.
func (r *lastRig) start() *kittytest.Real {
	r.t.Helper()
	k := kittytest.StartReal(r.t, kittytest.RealOptions{Kitty: r.kittyBin, Env: append(r.log.Env(), "XDG_STATE_HOME="+r.xdgState)})
	r.mu.Lock()
	r.kitties = append(r.kitties, k)
	r.mu.Unlock()
	return k
}

// discover finds the rig's kitties that run, as kitty.Discover would: the
// real one would also find the kitties of the other tests running beside.
func (r *lastRig) discover(context.Context) ([]kitty.Instance, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []kitty.Instance
	for _, k := range r.kitties {
		if k.Running() {
			out = append(out, kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version, Source: "kitty.conf listen_on"})
		}
	}
	return out, nil
}

func (r *lastRig) factory(out, errOut *bytes.Buffer, env map[string]string) *factory.Factory {
	f := factorytest.Writing(r.t, out, errOut)
	f.Getenv = func(k string) string { return env[k] }
	f.Paths = r.p
	return f
}

// scanner runs the scanner until the test ends; offers says whether it
// offers ended sessions to the kitties that start.
func (r *lastRig) scanner(offers bool) {
	r.t.Helper()
	env := map[string]string{}
	for k, v := range r.env {
		env[k] = v
	}
	if !offers {
		env[offer.EnvOffer] = "0"
	}
	f := factorytest.Writing(r.t, r.scanLog, r.scanLog)
	f.Getenv = func(k string) string { return env[k] }
	f.Paths = r.p
	f.Discover = r.discover
	// The offer runs kittymux in the kitty: testscript.Main put it on PATH.
	kittymux, err := exec.LookPath("kittymux")
	if err != nil {
		r.t.Fatalf("kittymux is not on PATH; testscript.Main puts it there: %v", err)
	}
	f.Executable = kittymux
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(ctx, cmdscanner.RunOptions{Interval: 200 * time.Millisecond, Rescan: time.Second,
			Signals: []os.Signal{}}.From(f))
	}()
	r.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			r.t.Errorf("scanner: %v", err)
		}
		if r.t.Failed() {
			r.t.Logf("scanner log:\n%s", r.scanLog)
		}
	})
}

// run runs kittymux as if typed in a shell inside kitty k (nil: outside
// kitty) and returns its exit code and output.
func (r *lastRig) run(k *kittytest.Real, args ...string) (int, string, string) {
	r.t.Helper()
	env := map[string]string{}
	for key, v := range r.env {
		env[key] = v
	}
	if k != nil {
		env["KITTY_LISTEN_ON"], env["KITTY_PID"] = k.Addr.String(), strconv.Itoa(k.PID)
	}
	var out, errOut bytes.Buffer
	f := r.factory(&out, &errOut, env)
	code := root.Main(f, args)
	return code, out.String(), errOut.String()
}

// waitSave waits for an autosave of k whose content satisfies want and
// returns its name.
func (r *lastRig) waitSave(k *kittytest.Real, what string, want func(string) bool) string {
	r.t.Helper()
	store := autosave.Store{Paths: r.p}
	bound := kittytest.NewBound(r.t, "an autosave of kitty "+strconv.Itoa(k.PID)+" with "+what, 60*time.Second)
	for {
		names, _ := store.Names(strconv.Itoa(k.PID))
		for i := len(names) - 1; i >= 0; i-- {
			if b, err := os.ReadFile(r.p.Session(names[i])); err == nil && want(string(b)) {
				return names[i]
			}
		}
		if bound.Over() {
			r.t.Fatalf("%v (have %v); scanner log:\n%s", bound, names, r.scanLog)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// crash kills k with SIGKILL and waits until it and the agents in its
// windows are gone: on a busy machine an agent may outlive its kitty for a
// while (it goes on the hangup), and while it lives its conversation is
// rightly open elsewhere to a restore prompt.
func (r *lastRig) crash(k *kittytest.Real) {
	r.t.Helper()
	if err := syscall.Kill(k.PID, syscall.SIGKILL); err != nil {
		r.t.Fatal(err)
	}
	waitGone(r.t, k, 20*time.Second)
	r.log.WaitExited(r.t, k.PID, 20*time.Second)
}

// windowsIn counts k's windows by directory.
func windowsIn(k *kittytest.Real) map[string]int {
	n := map[string]int{}
	for _, w := range kitty.Windows(k.LS()) {
		n[w.Window.Cwd]++
	}
	return n
}

// plantEnded publishes a copy of the save name as the save of a kitty that
// ended an hour before it: an older session that ended.
func (r *lastRig) plantEnded(name string) string {
	r.t.Helper()
	data, err := os.ReadFile(r.p.Session(name))
	if err != nil {
		r.t.Fatal(err)
	}
	_, at, _ := autosave.ParseName(name)
	// Not a pid any process can have (above Linux's pid_max).
	old := autosave.Name("99999999", at.Add(-time.Hour))
	if _, err := published.Publish(r.p, old, data); err != nil {
		r.t.Fatal(err)
	}
	return old
}

// TestRealCrashRestoreLast is the journey on a real kitty: two
// agents in a kitty that is killed with SIGKILL; a new kitty, where the user
// opens a split and works past the settle time (so the scanner autosaves
// the new kitty too); `sessions restore last` typed in the new kitty brings
// back the crashed kitty's windows, not the new kitty's own, and Enter in
// each prompt resumes each agent in its own conversation. A third agent
// window, closed by hand just before the crash (after the last save), does
// not come back.
func TestRealCrashRestoreLast(t *testing.T) {
	t.Parallel()
	r := newLastRig(t, "claude")
	d := e2etest.WorkDirs(t, "api", "cli", "gone")
	api, cli, gone, work := d[0], d[1], d[2], filepath.Dir(d[0])
	// Ids no other test uses.
	const idAPI, idCLI, idGone = "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b61", "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b62", "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b68"
	// Settled long enough that the close below is not saved before the
	// crash, however busy the machine.
	r.env[autosave.EnvSettle] = kittytest.Scaled(3 * time.Second).String()
	r.scanner(false)
	k1 := r.start()
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idAPI}, Cwd: api})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idCLI}, Cwd: cli})
	byHand := k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idGone}, Cwd: gone})
	waitRuns(t, r.log, 3, 30*time.Second)
	crashed := r.waitSave(k1, "three agents", func(s string) bool {
		return strings.Contains(s, idAPI) && strings.Contains(s, idCLI) && strings.Contains(s, idGone)
	})
	if err := k1.Client.CloseWindow(t.Context(), "id:"+strconv.Itoa(byHand)); err != nil {
		t.Fatal(err)
	}
	bound := kittytest.NewBound(t, "the journal to say the window was closed", 20*time.Second)
	for !regexp.MustCompile(`"id":"` + idGone + `"[^\n]*"close_reason":"window-closed"`).MatchString(journalText(r.p.Journal())) {
		if bound.Over() {
			t.Fatalf("%v:\n%s", bound, journalText(r.p.Journal()))
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.crash(k1)
	if names, _ := (autosave.Store{Paths: r.p}).Names(strconv.Itoa(k1.PID)); names[len(names)-1] != crashed {
		t.Fatalf("a save after the close was written (%v): the close must be known from the journal alone", names)
	}

	k2 := r.start()
	k2.LaunchWith(kitty.LaunchOptions{Cwd: work})
	// Past the settle time: the new kitty has an autosave of its own, newer
	// than the crashed kitty's.
	own := r.waitSave(k2, "the split", func(s string) bool { return strings.Count(s, "\nlaunch ") == 2 })
	t.Logf("crashed kitty's save %s, new kitty's %s", crashed, own)

	code, out, errOut := r.run(nil, "sessions", "saves")
	if code != 0 || !lineMatch(out, crashed+"\t"+strconv.Itoa(k1.PID)+"\t", "\ttrue\t\tended: gone without a quit") ||
		!lineMatch(out, own+"\t", "\tfalse\t\trunning") {
		t.Errorf("saves: exit %d\n%s%s", code, out, errOut)
	}
	before := windowsIn(k2)
	code, out, errOut = r.run(k2, "sessions", "restore", "last", "--wait", "1s")
	// The window closed by hand is left out. On a busy machine a poll may
	// see its agent gone (on the hangup) before the window: then it is
	// known as an agent that exited before kitty ended, which is left out
	// the same.
	leftOut := "left out: claude 0c1e5a7b in " + gone + ": "
	if code != 0 || !strings.Contains(out, "restored "+crashed+" in "+k2.Addr.String()) ||
		!strings.Contains(out, leftOut+"its window was closed at ") && !lineMatch(out, "  "+leftOut+"the agent exited at ", ", before kitty ended") {
		t.Fatalf("restore last in the new kitty: exit %d\n%s%s", code, out, errOut)
	}
	got := answerPrompts(t, k2, r.log, []string{api, cli})
	want := map[string][]string{"api": {"claude", "--resume", idAPI}, "cli": {"claude", "--resume", idCLI}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
	after := windowsIn(k2)
	if after[api] != 1 || after[cli] != 1 || after[gone] != 0 || after[work] != before[work] || after[k2.Home] != before[k2.Home] || after[k1.Home] != 1 {
		t.Errorf("windows by directory before %v, after %v: want the crashed kitty's three (its shell, api, cli) added, not the one closed by hand, nothing of the new kitty's own", before, after)
	}
}

// TestRealTwoKittiesOneKilled: of two kitties, each with an agent, the one
// killed is what `restore last` brings back, typed in the other; the other's
// own windows are not duplicated. Typed again, restore last says the session
// was restored already, and when, and names the older one that ended.
func TestRealTwoKittiesOneKilled(t *testing.T) {
	t.Parallel()
	r := newLastRig(t, "claude")
	d := e2etest.WorkDirs(t, "api", "web")
	api, web := d[0], d[1]
	const idAPI, idWeb = "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b63", "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b64"
	r.scanner(false)
	ka := r.start()
	kb := r.start()
	ka.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idAPI}, Cwd: api})
	kb.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idWeb}, Cwd: web})
	waitRuns(t, r.log, 2, 30*time.Second)
	killed := r.waitSave(ka, "its agent", func(s string) bool { return strings.Contains(s, idAPI) })
	r.waitSave(kb, "its agent", func(s string) bool { return strings.Contains(s, idWeb) })
	// kb is saved after ka: the newest save of all is the running kitty's.
	kb.LaunchWith(kitty.LaunchOptions{Cwd: web})
	newest := r.waitSave(kb, "a second window", func(s string) bool { return strings.Count(s, "\nlaunch ") == 3 })
	r.crash(ka)
	older := r.plantEnded(killed)

	before := windowsIn(kb)
	code, out, errOut := r.run(kb, "sessions", "restore", "last", "--wait", "1s")
	if code != 0 || !strings.Contains(out, "restored "+killed+" in ") {
		t.Fatalf("restore last: exit %d (want %s, not %s)\n%s%s", code, killed, newest, out, errOut)
	}
	got := answerPrompts(t, kb, r.log, []string{api})
	if diff := cmp.Diff(map[string][]string{"api": {"claude", "--resume", idAPI}}, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
	after := windowsIn(kb)
	if after[web] != before[web] || after[api] != 1 {
		t.Errorf("windows by directory before %v, after %v: kb's own duplicated, or ka's missing", before, after)
	}

	// Again: restored already; the older session that ended is named.
	code, out, errOut = r.run(kb, "sessions", "restore", "last")
	if code != 1 || out != "" ||
		!strings.Contains(errOut, "kittymux: the session that ended last, "+killed+" (kitty "+strconv.Itoa(ka.PID)+", gone without a quit, last saved at ") ||
		!strings.Contains(errOut, "was restored already, at ") ||
		!strings.Contains(errOut, "\n  "+older+" (kitty 99999999, gone without a quit, last saved at ") {
		t.Errorf("restore last again: exit %d\n%s%s", code, out, errOut)
	}
	if n := windowsIn(kb); !maps.Equal(n, after) {
		t.Errorf("the second restore last changed kb's windows: %v, were %v", n, after)
	}
	code, out, _ = r.run(nil, "sessions", "saves")
	if code != 0 || !lineMatch(out, killed+"\t", "\tended: gone without a quit, restored at ", "") ||
		!lineMatch(out, "autosave-"+strconv.Itoa(kb.PID)+"-", "\trunning") || !lineMatch(out, older+"\t", "\tfalse\t\tended: gone without a quit") {
		t.Errorf("saves:\n%s", out)
	}
}

// TestRealOfferOnStart: a kitty with two agents is killed; two kitties
// start at about the same time: the offer appears in one of them, once, and
// the other shows nothing. Enter there restores the killed kitty's session
// into it, and each agent resumes its own conversation. Then the kitty that
// showed nothing is killed too; the next kitty that starts is offered its
// session, `n` dismisses it, and a kitty started after that is offered
// nothing.
func TestRealOfferOnStart(t *testing.T) {
	t.Parallel()
	r := newLastRig(t, "claude")
	d := e2etest.WorkDirs(t, "api", "cli")
	api, cli := d[0], d[1]
	const idAPI, idCLI = "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b65", "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b66"
	r.scanner(true)
	k1 := r.start()
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idAPI}, Cwd: api})
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idCLI}, Cwd: cli})
	waitRuns(t, r.log, 2, 30*time.Second)
	crashed := r.waitSave(k1, "both agents", func(s string) bool { return strings.Contains(s, idAPI) && strings.Contains(s, idCLI) })
	r.crash(k1)

	k2, k3 := r.start(), r.start()
	offerIn, other := waitOffer(t, 30*time.Second, k2, k3)
	text := offerIn.k.WaitForText("id:"+strconv.Itoa(offerIn.id), func(s string) bool { return strings.Contains(s, "Enter restore it here") }, 30*time.Second)
	// The offer wraps at words to the window: its words, one space apart.
	words := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"2 agents in ", ", ended unexpectedly ", " windows: claude 0c1e5a7b in ",
		filepath.Base(api) + ", claude 0c1e5a7b in ", "Enter restore it here n dismiss l later"} {
		if !strings.Contains(words, want) {
			t.Errorf("the offer lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(words, crashed) {
		t.Errorf("the offer shows the save's file name %s:\n%s", crashed, text)
	}
	freshTab := tabOf(offerIn.k.LS(), offerIn.id)
	if err := offerIn.k.Client.SendText(t.Context(), "id:"+strconv.Itoa(offerIn.id), "\r"); err != nil {
		t.Fatal(err)
	}
	got := answerPrompts(t, offerIn.k, r.log, []string{api, cli})
	want := map[string][]string{"api": {"claude", "--resume", idAPI}, "cli": {"claude", "--resume", idCLI}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
	offerIn.k.WaitForText("id:"+strconv.Itoa(offerIn.id), func(s string) bool { return strings.Contains(s, "press Enter to close") }, 30*time.Second)
	if err := offerIn.k.Client.SendText(t.Context(), "id:"+strconv.Itoa(offerIn.id), "\r"); err != nil {
		t.Fatal(err)
	}
	offerIn.k.WaitFor(func(ls []kitty.OSWindow) bool { return offerWindow(ls) == 0 }, 20*time.Second)
	// The tab kitty opened as it started, where nothing was done, went with
	// the offer: the restored tabs are what is left.
	if ls := offerIn.k.LS(); freshTab == 0 || tabOf(ls, 0) == 0 || tabExists(ls, freshTab) {
		t.Errorf("the fresh tab %d the offer ran over is still there, or nothing is left:\n%+v", freshTab, ls)
	}
	if id := offerWindow(other.LS()); id != 0 {
		t.Errorf("the other kitty shows an offer too (window %d)", id)
	}

	// The other kitty ends; the next kitty is offered its session; n.
	r.waitSave(other, "its shell", func(s string) bool { return strings.Contains(s, "\nlaunch ") })
	r.crash(other)
	k4 := r.start()
	o4, _ := waitOffer(t, 30*time.Second, k4)
	o4.k.WaitForText("id:"+strconv.Itoa(o4.id), func(s string) bool { return strings.Contains(s, "Enter restore it here") }, 30*time.Second)
	if err := k4.Client.SendText(t.Context(), "id:"+strconv.Itoa(o4.id), "n"); err != nil {
		t.Fatal(err)
	}
	k4.WaitFor(func(ls []kitty.OSWindow) bool { return offerWindow(ls) == 0 }, 20*time.Second)
	st, err := ended.Read(r.p)
	if err != nil || st.Kitties[strconv.Itoa(other.PID)].Dismissed.IsZero() || st.Kitties[strconv.Itoa(k1.PID)].Restored.IsZero() {
		t.Errorf("state after n: %+v %v", st, err)
	}

	// Dismissed, restored: a kitty that starts now is offered nothing. Once
	// it is autosaved the scanner has seen it.
	k5 := r.start()
	r.waitSave(k5, "its shell", func(s string) bool { return strings.Contains(s, "\nlaunch ") })
	// An offer that would come has come by then.
	deadline := time.Now().Add(kittytest.Scaled(3 * time.Second))
	for time.Now().Before(deadline) {
		if id := offerWindow(k5.LS()); id != 0 {
			t.Fatalf("a dismissed session was offered again (window %d)", id)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// tabOf is the id of the tab holding window id (0: the first tab), 0 if
// none.
func tabOf(ls []kitty.OSWindow, id int) int {
	for _, w := range kitty.Windows(ls) {
		if id == 0 || w.Window.ID == id {
			return w.Tab.ID
		}
	}
	return 0
}

func tabExists(ls []kitty.OSWindow, id int) bool {
	for _, ow := range ls {
		for _, t := range ow.Tabs {
			if t.ID == id {
				return true
			}
		}
	}
	return false
}

type offerAt struct {
	k  *kittytest.Real
	id int
}

// offerWindow is the id of the offer's window, 0 if none.
func offerWindow(ls []kitty.OSWindow) int {
	for _, w := range kitty.Windows(ls) {
		if strings.HasPrefix(w.Window.Title, "kittymux: restore") {
			return w.Window.ID
		}
	}
	return 0
}

// waitOffer waits for the offer in one of ks and returns where, and the
// first of the others.
func waitOffer(t *testing.T, timeout time.Duration, ks ...*kittytest.Real) (offerAt, *kittytest.Real) {
	t.Helper()
	bound := kittytest.NewBound(t, "the offer in one of "+strconv.Itoa(len(ks))+" kitties", timeout)
	for {
		for i, k := range ks {
			if id := offerWindow(k.LS()); id != 0 {
				var other *kittytest.Real
				if len(ks) > 1 {
					other = ks[(i+1)%len(ks)]
				}
				return offerAt{k: k, id: id}, other
			}
		}
		if bound.Over() {
			t.Fatal(bound)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lineMatch says whether a line of out matches the pattern: quoted, then
// .* where the pattern has "…".
func lineMatch(out string, parts ...string) bool {
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`(?m)^` + strings.Join(parts, `.*`) + `$`).MatchString(out)
}

// TestRealOfferOldKitty: on kitty 0.26.5 (kitty on PATH), which cannot
// save, a kitty with an agent is killed; the next kitty that starts offers
// the journal's conversations of the kitty that went away, and Enter opens
// them there, a tab each, where the prompt resumes the agent exactly.
func TestRealOfferOldKitty(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	r := newRig(t, "", "claude")
	d := e2etest.WorkDirs(t, "api")
	api := d[0]
	const idAPI = "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b67"
	r.scanner(true)
	k1 := r.start()
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude"), "--resume", idAPI}, Cwd: api})
	waitRuns(t, r.log, 1, 30*time.Second)
	// The scanner has it in the journal.
	bound := kittytest.NewBound(t, "a record of claude "+idAPI+" in the journal", 30*time.Second)
	for !strings.Contains(journalText(r.p.Journal()), idAPI) {
		if bound.Over() {
			t.Fatalf("%v:\n%s", bound, r.scanLog)
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.crash(k1)
	bound = kittytest.NewBound(t, "the journal to say kitty went away", 30*time.Second)
	for !strings.Contains(journalText(r.p.Journal()), `"close_reason":"kitty-gone"`) {
		if bound.Over() {
			t.Fatalf("%v:\n%s\n%s", bound, journalText(r.p.Journal()), r.scanLog)
		}
		time.Sleep(100 * time.Millisecond)
	}

	k2 := r.start()
	o, _ := waitOffer(t, 30*time.Second, k2)
	text := k2.WaitForText("id:"+strconv.Itoa(o.id), func(s string) bool { return strings.Contains(s, "Enter open them here") }, 30*time.Second)
	words := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"1 conversation, ended unexpectedly ", "claude 0c1e5a7b in ", filepath.Base(api) + ", last active "} {
		if !strings.Contains(words, want) {
			t.Errorf("the offer lacks %q:\n%s", want, text)
		}
	}
	if err := k2.Client.SendText(t.Context(), "id:"+strconv.Itoa(o.id), "\r"); err != nil {
		t.Fatal(err)
	}
	got := answerPrompts(t, k2, r.log, []string{api})
	if diff := cmp.Diff(map[string][]string{"api": {"claude", "--resume", idAPI}}, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
	st, err := ended.Read(r.p)
	if err != nil || st.Kitties[ended.JournalPrefix+strconv.Itoa(k1.PID)].Restored.IsZero() {
		t.Errorf("not marked restored: %+v %v", st, err)
	}
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// journalText is the journal at path as a reader has it (its log applied),
// a record a line as in the file, for a test to look for a record's
// fields with a regular expression; what went wrong, when it cannot be
// read.
func journalText(path string) string {
	f, err := journal.New(path, false).Read()
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, r := range f.Records {
		line, _ := json.Marshal(r)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}
