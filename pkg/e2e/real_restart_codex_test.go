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
	"github.com/kittymux/kittymux/pkg/kitty/kittytest"
	"github.com/kittymux/kittymux/pkg/kitty/kittytest/modelstub"
	"github.com/kittymux/kittymux/pkg/restart"
)

// TestRealAgentsRestartCodex: the real codex in two windows of a real
// kitty, each holding a conversation with the model stand-in, run in
// process (`--no-daemon`: its own process holds its conversation's file,
// which gives the exact id). `agents restart` ends each with /quit and
// resumes it in its own window: the next request of each carries its own
// earlier turn and not the other's, and ls shows the same layout.
func TestRealAgentsRestartCodex(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	e2etest.NeedCLI(t, "codex")
	onBothKitties(t, testRestartCodex)
}

// codexReady is what codex 0.171.0 shows under its composer once it takes
// input: the model and its reasoning effort.
const codexReady = "gpt-5-stub default"

func testRestartCodex(t *testing.T, kittyBin string) {
	stub := modelstub.Start(t)
	// Not under /tmp: codex refuses to make its helper links in a
	// temporary directory and says so on screen.
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	dirs := e2etest.WorkDirs(t, "api", "web")
	agentEnv := stub.CodexHome(t, home, dirs...)
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Env: append([]string{"HOME=" + home}, agentEnv...)})

	ready := func(id int) {
		t.Helper()
		k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(s, codexReady) }, 90*time.Second)
	}
	typeLine := func(id int, text string) {
		t.Helper()
		if err := k.Client.SendText(t.Context(), winMatch(id), text); err != nil {
			t.Fatal(err)
		}
		k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(flatText(s), text) }, 30*time.Second)
		if err := k.Client.SendText(t.Context(), winMatch(id), "\x1b[13u"); err != nil {
			t.Fatal(err)
		}
	}
	var ids []int
	for _, d := range dirs {
		ids = append(ids, shellWindow(t, k, d, nil, "codex --no-daemon"))
	}
	for _, id := range ids {
		ready(id)
	}
	words := map[int]string{ids[0]: "APPLE", ids[1]: "BANANA"}
	for _, id := range ids {
		typeLine(id, "Remember the word "+words[id])
		stub.WaitCarrying(t, words[id], 60*time.Second)
		k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(flatText(s), "stub reply to") }, 60*time.Second)
	}
	before := shapeOf(t, k)

	w := newRestartWorld(t, k, map[string]string{"HOME": home})
	code, got, out := w.restart(t, restart.Bounds{})
	t.Logf("agents restart:\n%s", out)
	if code != 0 {
		t.Errorf("exit %d\n%s", code, out)
	}
	for _, id := range ids {
		r := got[id]
		if r.Outcome != restart.Restarted || !strings.HasPrefix(r.How, "ended with typed /quit") || r.NewPID == 0 || r.ID == "" {
			t.Fatalf("window %d: %+v", id, r)
		}
	}
	for _, id := range ids {
		ready(id)
		q := "Which word did I ask you to remember? ASK" + strconv.Itoa(id)
		typeLine(id, q)
		for _, r := range stub.WaitCarrying(t, q, 60*time.Second) {
			for other, word := range words {
				if carries := r.Carries(word); carries != (other == id) {
					t.Errorf("window %d: its request carries %s: %v, want %v\n%s", id, word, carries, other == id, stub.Summary())
				}
			}
		}
	}
	sameLayout(t, k, before)
}
