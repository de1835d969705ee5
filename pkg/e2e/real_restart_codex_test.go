//go:build linux

package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/restart"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
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
	r := newCLIRig(t, kittyBin, stub, (*modelstub.Server).CodexHome, "api", "web")
	r.ready, r.enter = func(s string) bool { return strings.Contains(s, codexReady) }, "\x1b[13u"
	ids := r.start("codex --no-daemon")
	words := map[int]string{ids[0]: "APPLE", ids[1]: "BANANA"}
	for _, id := range ids {
		r.typeLine(id, "Remember the word "+words[id])
		stub.WaitCarrying(t, words[id], 60*time.Second)
		r.k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(flatText(s), "stub reply to") }, 60*time.Second)
	}
	before := shapeOf(t, r.k)

	got, _ := r.restart()
	for _, id := range ids {
		res := got[id]
		if res.Outcome != restart.Restarted || !strings.HasPrefix(res.How, "ended with typed /quit") || res.NewPID == 0 || res.ID == "" {
			t.Fatalf("window %d: %+v", id, res)
		}
	}
	for _, id := range ids {
		r.askOwnWord(id, words)
	}
	sameLayout(t, r.k, before)
}
