//go:build linux

package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/restart"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// cliRig is a real agent CLI in windows of a real kitty, talking to the
// model stand-in, for `agents restart`: claude's and codex's restart
// tests.
type cliRig struct {
	t     *testing.T
	k     *kittytest.Real
	stub  *modelstub.Server
	home  string // the agent's HOME, kitty's too
	dirs  []string
	ready func(screen string) bool // whether the TUI shows it takes input
	enter string                   // what submits a typed line
}

// newCLIRig prepares a HOME for the CLI with prepare (the stand-in's
// ClaudeHome, CodexHome) trusting a directory of each name, and starts
// kittyBin in it.
func newCLIRig(t *testing.T, kittyBin string, stub *modelstub.Server,
	prepare func(*modelstub.Server, testing.TB, string, ...string) []string, names ...string) *cliRig {
	t.Helper()
	// Not under /tmp: codex refuses to make its helper links in a
	// temporary directory and says so on screen.
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	// Run after kitty is stopped, before the TempDir goes: an agent
	// still writing its files as it exits would fail the removal.
	t.Cleanup(func() { kittytest.EndLeftovers(home) })
	dirs := e2etest.WorkDirs(t, names...)
	agentEnv := prepare(stub, t, home, dirs...)
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Env: append([]string{"HOME=" + home}, agentEnv...)})
	return &cliRig{t: t, k: k, stub: stub, home: home, dirs: dirs}
}

// start types line (the CLI) into a shell in each directory and waits for
// each TUI; it returns the windows in the order of the directories.
func (r *cliRig) start(line string) []int {
	r.t.Helper()
	var ids []int
	for _, d := range r.dirs {
		ids = append(ids, shellWindow(r.t, r.k, d, nil, line))
	}
	for _, id := range ids {
		r.waitReady(id)
	}
	return ids
}

func (r *cliRig) waitReady(id int) {
	r.t.Helper()
	r.k.WaitForText(winMatch(id), r.ready, 90*time.Second)
}

// typeLine types text into window id, waits until it shows, and submits it.
func (r *cliRig) typeLine(id int, text string) {
	r.t.Helper()
	if err := r.k.Client.SendText(r.t.Context(), winMatch(id), text); err != nil {
		r.t.Fatal(err)
	}
	r.k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(flatText(s), text) }, 30*time.Second)
	if err := r.k.Client.SendText(r.t.Context(), winMatch(id), r.enter); err != nil {
		r.t.Fatal(err)
	}
}

// restart runs `agents restart` on the rig's kitty and returns its results
// by window.
func (r *cliRig) restart() (map[int]restart.Result, string) {
	r.t.Helper()
	w := newRestartWorld(r.t, r.k, map[string]string{"HOME": r.home})
	code, got, out := w.restart(r.t, restart.Bounds{})
	r.t.Logf("agents restart:\n%s", out)
	if code != 0 {
		r.t.Errorf("exit %d\n%s", code, out)
	}
	return got, out
}

// askOwnWord asks window id, restarted, which word it was told: the
// requests carrying the question carry its own word of words (by window)
// and no other's. It returns the question.
func (r *cliRig) askOwnWord(id int, words map[int]string) string {
	r.t.Helper()
	r.waitReady(id)
	q := "Which word did I ask you to remember? ASK" + strconv.Itoa(id)
	r.typeLine(id, q)
	for _, req := range r.stub.WaitCarrying(r.t, q, 60*time.Second) {
		for other, word := range words {
			if carries := req.Carries(word); carries != (other == id) {
				r.t.Errorf("window %d: its request carries %s: %v, want %v\n%s", id, word, carries, other == id, r.stub.Summary())
			}
		}
	}
	return q
}
