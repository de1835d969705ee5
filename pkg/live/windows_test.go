package live_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

func load(t testing.TB, fixture string) (*agents.Set, []kitty.OSWindow) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	var ls []kitty.OSWindow
	if err := json.Unmarshal(kittytest.Fixture(t, fixture), &ls); err != nil {
		t.Fatal(err)
	}
	return set, ls
}

// noProc reads no process, as on an OS without /proc: kitty's ls is all
// there is.
func noProc(int) (recognize.Proc, bool) { return recognize.Proc{}, false }

// TestAgentWindows reads the windows from kitty's ls alone (no process can
// be read): each is Unverified, and user vars give no id.
func TestAgentWindows(t *testing.T) {
	set, ls := load(t, "0.48.2/ls.json")
	// A program in window 5 set user vars naming a conversation, with
	// its claude's pid: a hint only the journal can confirm.
	ls[0].Tabs[1].Windows[1].UserVars = map[string]string{"kittymux_agent": "claude",
		"kittymux_session": "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f", "kittymux_pid": "25422"}
	type row struct {
		ID      int
		Agent   string
		Cwd     string
		Flags   []string
		ID2     string
		KnownID string
		PID     int
	}
	var got []row
	for _, w := range live.AgentWindowsFrom(set, ls, noProc) {
		got = append(got, row{w.ID, w.Cmd.Agent, w.Cwd, w.Cmd.Flags, w.Cmd.ID, w.KnownID, w.PID})
		if w.Unverified == "" || w.Seen != nil {
			t.Errorf("window %d: read from kitty's ls alone, yet verified (%q) or seen %q", w.ID, w.Unverified, w.Seen)
		}
	}
	want := []row{
		{1, "claude", "/home/u/code/api", []string{"--model", "opus", "--dangerously-skip-permissions"}, "", "", 25378},
		{2, "codex", "/home/u/code/api", nil, "0199a213-81c0-7800-8aa1-bbab2a035a53", "", 25379},
		{4, "claude", "/home/u/code/web", []string{"--model", "sonnet"}, "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "", 25409},
		{5, "claude", "/home/u/code/web", nil, "", "", 25422},
		{6, "opencode", "/home/u/code/web", []string{"-m", "anthropic/claude"}, "", "", 25438},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAgentWindowsOldKitty(t *testing.T) {
	set, ls := load(t, "0.26.5-ls.json")
	ws := live.AgentWindowsFrom(set, ls, noProc)
	if len(ws) != 2 || ws[0].Cmd.Agent != "claude" || ws[1].Cmd.Agent != "codex" {
		t.Fatalf("got %+v", ws)
	}
}

// BenchmarkAgentWindows is the recognition part of a scanner poll.
func BenchmarkAgentWindows(b *testing.B) {
	set, ls := load(b, "0.48.2/ls.json")
	b.ReportAllocs()
	for b.Loop() {
		if len(live.AgentWindowsFrom(set, ls, noProc)) != 5 {
			b.Fatal("wrong count")
		}
	}
}
