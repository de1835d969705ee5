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
	"github.com/kittymux/kittymux/pkg/kitty/kittytest"
	"github.com/kittymux/kittymux/pkg/kitty/kittytest/modelstub"
	"github.com/kittymux/kittymux/pkg/restart"
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
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	dirs := e2etest.WorkDirs(t, "api", "web", "lab")
	agentEnv := stub.ClaudeHome(t, home, dirs...)
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Env: append([]string{"HOME=" + home}, agentEnv...)})

	ready := func(id int) {
		t.Helper()
		k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(s, "? for shortcuts") }, 90*time.Second)
	}
	typeLine := func(id int, text string) {
		t.Helper()
		if err := k.Client.SendText(t.Context(), winMatch(id), text); err != nil {
			t.Fatal(err)
		}
		k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(flatText(s), text) }, 30*time.Second)
		if err := k.Client.SendText(t.Context(), winMatch(id), "\r"); err != nil {
			t.Fatal(err)
		}
	}
	answered := func(id int, text string) {
		t.Helper()
		k.WaitForText(winMatch(id), func(s string) bool { return strings.Contains(flatText(s), "stub reply to: "+text) }, 60*time.Second)
	}
	var ids []int
	for _, d := range dirs {
		ids = append(ids, shellWindow(t, k, d, nil, "claude"))
	}
	api, web, lab := ids[0], ids[1], ids[2]
	for _, id := range ids {
		ready(id)
	}
	words := map[int]string{api: "APPLE", web: "BANANA"}
	for _, id := range []int{api, web} {
		typeLine(id, "Remember the word "+words[id])
		answered(id, "Remember the word "+words[id])
	}
	typeLine(lab, "Answer SLOWLY please")
	waitClaudeBusy(t, home, dirs[2])
	before := shapeOf(t, k)

	w := newRestartWorld(t, k, map[string]string{"HOME": home})
	code, got, out := w.restart(t, restart.Bounds{})
	t.Logf("agents restart:\n%s", out)
	if code != 0 {
		t.Errorf("exit %d\n%s", code, out)
	}
	type row struct{ Outcome, How, Why string }
	rows := map[int]row{}
	for id, r := range got {
		how := r.How
		if i := strings.Index(how, ", the restore prompt"); i > 0 {
			how = how[:i]
		}
		rows[id] = row{r.Outcome, how, r.Why}
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
		r := got[id]
		if r.NewPID == 0 || r.NewPID == r.OldPID || r.ID == "" {
			t.Errorf("window %d: %+v", id, r)
		}
		// claude removes its record on a clean exit.
		if _, err := os.Stat(filepath.Join(home, ".claude", "sessions", strconv.Itoa(r.OldPID)+".json")); !os.IsNotExist(err) {
			t.Errorf("window %d: claude's record of pid %d is still there (%v): it did not exit cleanly", id, r.OldPID, err)
		}
	}

	// Each is back in its own conversation: its next request carries its
	// own word, not the other's.
	for _, id := range []int{api, web} {
		ready(id)
		q := "Which word did I ask you to remember? ASK" + strconv.Itoa(id)
		typeLine(id, q)
		reqs := stub.WaitCarrying(t, q, 60*time.Second)
		for _, r := range reqs {
			for other, word := range words {
				if carries := r.Carries(word); carries != (other == id) {
					t.Errorf("window %d: its request carries %s: %v, want %v\n%s", id, word, carries, other == id, stub.Summary())
				}
			}
		}
		answered(id, q)
	}

	// The layout is as it was (titles aside: claude's own, which a new
	// turn changes).
	sameLayout(t, k, before)
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
