//go:build linux

package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealIDAfterTheSave: a fake claude starts with no id, is autosaved,
// and only then does its hook report its conversation; kitty is killed;
// `sessions restore last` in a new kitty brings the conversation back
// exactly. Either the id arriving was saved (a change worth saving, once
// settled), or, where the autosave floor kept that save from happening
// before the crash, the restore prompt found the id in the journal's
// record of that very agent process and says it learned it after the save.
func TestRealIDAfterTheSave(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		floor string // autosave at most this often
		id    string
		saved bool // the id arrives in an autosave before the crash
	}{
		{name: "saved", floor: "1s", id: "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b69", saved: true},
		{name: "from the journal", floor: "1h", id: "0c1e5a7b-2d3f-4e6a-8b9c-1d2e3f4a5b6a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			idAfterTheSave(t, c.floor, c.id, c.saved)
		})
	}
}

func idAfterTheSave(t *testing.T, floor, id string, saved bool) {
	r := newLastRig(t, "claude")
	api := e2etest.WorkDirs(t, "api")[0]
	r.env[autosave.EnvAtMostEvery] = floor
	r.env[autosave.EnvAtLeastEvery] = "2h"
	r.scanner(false)
	kittymux, err := exec.LookPath("kittymux")
	if err != nil {
		t.Fatal(err)
	}
	k1 := r.start()
	k1.LaunchWith(kitty.LaunchOptions{Args: []string{filepath.Join(r.binDir, "claude")}, Cwd: api,
		Env: []string{"FAKEAGENT_HOOK=" + kittymux, "FAKEAGENT_HOOK_ID=" + id, "FAKEAGENT_HOOK_LATE=1"}})
	agent := waitRuns(t, r.log, 1, 30*time.Second)[0]
	var seen string
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the last autosave seen:\n%s\njournal:\n%s", seen, journalText(r.p.Journal()))
		}
	})
	first := r.waitSave(k1, "the agent, its conversation not known yet", func(s string) bool {
		seen = s
		return strings.Contains(s, "--origin") && !strings.Contains(s, "--resume "+id)
	})
	// The hook reports the conversation now.
	if err := syscall.Kill(agent.PID, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	bound := kittytest.NewBound(t, "the hook's id in the journal", 30*time.Second)
	for !strings.Contains(journalText(r.p.Journal()), `"id":"`+id+`","id_from":"hook"`) {
		if bound.Over() {
			t.Fatalf("%v:\n%s\n%s", bound, journalText(r.p.Journal()), r.scanLog)
		}
		time.Sleep(50 * time.Millisecond)
	}
	newest := first
	if saved {
		newest = r.waitSave(k1, "the hook's id", func(s string) bool { return strings.Contains(s, "--resume "+id) })
	}
	r.crash(k1)
	names, _ := (autosave.Store{Paths: r.p}).Names(strconv.Itoa(k1.PID))
	if len(names) == 0 || names[len(names)-1] != newest {
		t.Fatalf("saves %v, want the newest %s", names, newest)
	}
	// (The save holds the id as the window's environment, FAKEAGENT_HOOK_ID.)
	if b, _ := os.ReadFile(r.p.Session(newest)); strings.Contains(string(b), "--resume "+id) != saved {
		t.Fatalf("the newest save names the id: %v, want %v:\n%s", !saved, saved, b)
	}

	k2 := r.start()
	code, out, errOut := r.run(k2, "sessions", "restore", "last", "--wait", "1s")
	if code != 0 || !strings.Contains(out, "restored "+newest+" in ") {
		t.Fatalf("restore last: exit %d\n%s%s", code, out, errOut)
	}
	var win int
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, w := range kitty.Windows(ls) {
			if w.Window.Cwd == api {
				win = w.Window.ID
			}
		}
		return win != 0
	}, 30*time.Second)
	text := joinLines(k2.WaitForText("id:"+strconv.Itoa(win), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second))
	if learned := strings.Contains(text, "resume 0c1e5a7b (learned after the save)?"); learned == saved ||
		!saved && !strings.Contains(text, "its hook reported it") {
		t.Errorf("the prompt (the id saved: %v):\n%s", saved, text)
	}
	got := answerPrompts(t, k2, r.log, []string{api})
	if diff := cmp.Diff(map[string][]string{"api": {"claude", "--resume", id}}, got); diff != "" {
		t.Errorf("exec'd after Enter (-want +got):\n%s", diff)
	}
}

// joinLines joins the screen's lines, which kitty wraps at its width.
func joinLines(s string) string { return strings.ReplaceAll(s, "\n", "") }
