//go:build linux

package conversations_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

var rolloutID = regexp.MustCompile(`rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$`)

// TestRealCodexDaemonHoldsThread: plain codex 0.171.0 runs its thread in
// its shared app-server daemon; its TUI killed (as when kitty dies), the
// daemon still holds the thread. codex run apart from the daemon
// (--no-daemon, how kittymux's exact codex records run) then does not
// open it: it shows "This conversation is open in another app" and waits.
// The lookup finds the daemon holding the thread for such a run, and the
// attach it offers (`codex resume <id>`, through the daemon) opens the
// thread: the next request carries the earlier turn. For a run through
// the daemon nothing is held.
func TestRealCodexDaemonHoldsThread(t *testing.T) {
	t.Parallel()
	codex, home, work, env, stub := agentstest.AtStandIn(t, "codex", "web", (*modelstub.Server).CodexHome)
	env = append(append(modelstub.Isolated(os.Environ()), env...), "TERM=xterm-256color")
	t.Cleanup(func() { kittytest.EndLeftovers(home) }) // the daemon outlives every TUI
	tui := func(args []string, o kittytest.PTYOptions) kittytest.PTYRun {
		o.Path, o.Args, o.Env, o.Dir = codex, args, env, work
		if o.Timeout == 0 {
			o.Timeout = 60 * time.Second
		}
		return kittytest.RunPTY(t, o)
	}
	tui([]string{"remember OAK"}, kittytest.PTYOptions{Done: func() bool { return len(stub.Carrying("OAK")) > 0 }})
	files, _ := filepath.Glob(filepath.Join(home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("rollouts after one thread: %q", files)
	}
	id := rolloutID.FindStringSubmatch(files[0])[1]

	set := agentstest.Shipped(t)
	getenv := getenvOf(map[string]string{"HOME": home})
	apart := []string{"codex", "resume", id, "--no-daemon"}
	var c conversations.Conversation
	for deadline := time.Now().Add(30 * time.Second); c.Held == nil && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		c = conversations.FindRun(set, "codex", id, conversations.Run{Argv: apart, Dir: work, Getenv: getenv})
	}
	if c.Held == nil {
		t.Fatalf("TUI gone, daemon running: %+v, want the thread held by codex's daemon", c)
	}
	cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(c.Held.PID) + "/cmdline")
	if !strings.Contains(string(cmdline), "app-server\x00") || !slices.Equal(c.Held.Attach, []string{"resume", id}) ||
		c.Held.Dir != work {
		t.Errorf("held: %+v by %q, want codex's app-server daemon, attached with resume %s, in %s", c.Held, cmdline, id, work)
	}
	through := conversations.FindRun(set, "codex", id, conversations.Run{Argv: []string{"codex", "resume", id}, Dir: work, Getenv: getenv})
	if !through.Found || through.Held != nil {
		t.Errorf("a resume through the daemon: %+v, want found and nothing held", through)
	}

	refused := tui(append(slices.Clone(apart), "what was it? PINE"), kittytest.PTYOptions{WaitFor: "another app",
		Done: func() bool { return true }})
	if !strings.Contains(flatScreen(refused.Out), "This conversation is open in another app") || len(stub.Carrying("PINE")) > 0 {
		t.Fatalf("codex --no-daemon resume of a thread the daemon holds: want it to wait on the other app\n%s", flatScreen(refused.Out))
	}
	tui(append(append([]string{}, c.Held.Attach...), "what was it? BIRCH"),
		kittytest.PTYOptions{Done: func() bool { return len(stub.Carrying("BIRCH")) > 0 }})
	// The user's turn, not codex's own title request beside it (which
	// quotes the new message alone).
	if !slices.ContainsFunc(stub.Carrying("BIRCH"), func(r modelstub.Request) bool {
		return strings.Contains(r.LastText(), "BIRCH") && r.Carries("OAK")
	}) {
		t.Errorf("the attached turn does not carry the earlier one\n%s", stub.Summary())
	}
}

var screenCodes = regexp.MustCompile("\x1b\\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)")

// flatScreen is a terminal's output as words: escape codes and runs of
// blanks become one space.
func flatScreen(s string) string {
	return strings.Join(strings.Fields(screenCodes.ReplaceAllString(s, " ")), " ")
}
