//go:build linux

package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/restart"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// TestRealAgentsRestartClaude: the real claude in three windows of a real
// kitty, talking to the model stand-in. Two hold a conversation each and
// are idle; the third is working (the stand-in holds its answer). `agents
// restart` restarts the two, each in its own window and conversation (the
// next request of each carries its own earlier turn and not the other's),
// skips the working one, and ls shows the same layout before and after.
func TestRealAgentsRestartClaude(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	e2etest.NeedCLI(t, "claude")
	onBothKitties(t, testRestartClaude)
}

func testRestartClaude(t *testing.T, kittyBin string) {
	stub := modelstub.Start(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // runs before the stand-in closes
	stub.Reply = func(r modelstub.Request) string {
		if strings.Contains(r.LastText(), "SLOWLY") {
			<-release // the agent works until the test ends
		}
		return "Noted. " + modelstub.Marker(r)
	}
	r := newCLIRig(t, kittyBin, stub, (*modelstub.Server).ClaudeHome, "api", "web", "lab")
	r.ready, r.enter = e2etest.Claude.Ready, "\r"
	answered := func(id int, text string) {
		t.Helper()
		r.k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(flatText(s), "stub reply to: "+text) }, 60*time.Second)
	}
	ids := r.start("claude")
	api, web, lab := ids[0], ids[1], ids[2]
	words := map[int]string{api: "APPLE", web: "BANANA"}
	for _, id := range []int{api, web} {
		r.typeLine(id, "Remember the word "+words[id])
		answered(id, "Remember the word "+words[id])
	}
	r.typeLine(lab, "Answer SLOWLY please")
	waitClaudeBusy(t, r.home, r.dirs[2])
	before := shapeOf(t, r.k)

	got, out := r.restart()
	type row struct{ Outcome, How, Why string }
	rows := map[int]row{}
	for id, res := range got {
		how := res.How
		if i := strings.Index(how, ", the restore prompt"); i > 0 {
			how = how[:i]
		}
		rows[id] = row{res.Outcome, how, res.Why}
	}
	want := map[int]row{
		api: {restart.Restarted, "ended with SIGINT", ""},
		web: {restart.Restarted, "ended with SIGINT", ""},
		lab: {restart.Skipped, "", "the agent is working (--all restarts it anyway)"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Fatalf("agents restart (-want +got):\n%s\n%s", diff, out)
	}
	for _, id := range []int{api, web} {
		res := got[id]
		if res.NewPID == 0 || res.NewPID == res.OldPID || res.ID == "" {
			t.Errorf("window %d: %+v", id, res)
		}
		// claude removes its record on a clean exit.
		if _, err := os.Stat(filepath.Join(r.home, ".claude", "sessions", strconv.Itoa(res.OldPID)+".json")); !os.IsNotExist(err) {
			t.Errorf("window %d: claude's record of pid %d is still there (%v): it did not exit cleanly", id, res.OldPID, err)
		}
	}

	// Each is back in its own conversation: its next request carries its
	// own word, not the other's.
	for _, id := range []int{api, web} {
		answered(id, r.askOwnWord(id, words))
	}

	// The layout is as it was (titles aside: claude's own, which a new
	// turn changes).
	sameLayout(t, r.k, before)
}

// waitClaudeBusy waits until claude's record in home says the claude in dir
// works.
func waitClaudeBusy(t *testing.T, home, dir string) {
	t.Helper()
	bound := kittytest.NewBound(t, "claude in "+dir+" to say it is busy", 60*time.Second)
	for !bound.Over() {
		names, _ := filepath.Glob(filepath.Join(home, ".claude", "sessions", "*.json"))
		for _, n := range names {
			var s struct{ Cwd, Status string }
			if b, err := os.ReadFile(n); err == nil && json.Unmarshal(b, &s) == nil && s.Cwd == dir && s.Status == "busy" {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal(bound)
}
