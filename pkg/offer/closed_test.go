package offer

import (
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// An agent window closed by hand before its kitty ended does not come
// back; one that ended with kitty does, and so does every plain window.
func TestWithoutClosed(t *testing.T) {
	data := []byte(`new_tab
layout splits
set_layout_state {"pairs": {"one": 1, "two": {"one": 2, "two": 3}}}
cd /w/api
launch 'kitty-unserialize-data={"id": 1}' /bin/kittymux-resume --agent claude --mode exact --id aaaa1111-0000 -- claude --resume aaaa1111-0000
launch 'kitty-unserialize-data={"id": 2}' /bin/kittymux-resume --agent claude --mode exact --id bbbb2222-0000 -- claude --resume bbbb2222-0000
launch 'kitty-unserialize-data={"id": 3}'
launch 'kitty-unserialize-data={"id": 4}' /bin/kittymux-resume --agent codex --mode latest -- codex resume --last
focus
`)
	byHand := rec("a", 100, "claude", "aaaa1111-0000", 10, journal.ClosedWindow)
	byHand.WindowID = 1
	withKitty := rec("b", 100, "claude", "bbbb2222-0000", 10, journal.ClosedKittyGone)
	withKitty.WindowID = 2
	exited := rec("d", 100, "codex", "", 10, journal.ClosedWindow)
	exited.WindowID, exited.CloseDetail = 4, "the agent exited; its window stayed open"
	// The same window id in another kitty says nothing of this one.
	other := rec("o", 200, "claude", "bbbb2222-0000", 20, journal.ClosedWindow)
	other.WindowID = 2
	// Window 4 ran codex again later, still open when kitty went: it comes back.
	again := rec("d2", 100, "codex", "", 30, journal.ClosedKittyGone)
	again.WindowID = 4
	jf := &journal.File{Records: []journal.Record{byHand, withKitty, exited, other}}

	out, left, err := WithoutClosed(data, jf, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 2 || left[0].Agent.ID != "aaaa1111-0000" || left[0].Why != "its window was closed" ||
		left[1].Agent.Agent != "codex" || left[1].Why != "the agent exited" || left[0].Agent.Dir != "/w/api" {
		t.Errorf("left out %+v", left)
	}
	f, err := sessionfile.Parse(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := len(f.Launches()); n != 2 || strings.Contains(string(out), "aaaa1111") || !strings.Contains(string(out), "bbbb2222") ||
		!strings.Contains(string(out), "set_layout_state") {
		t.Errorf("kept:\n%s", out)
	}

	jf.Records = append(jf.Records, again)
	if _, left, _ := WithoutClosed(data, jf, 100); len(left) != 1 {
		t.Errorf("with window 4 running codex again: left out %+v", left)
	}
	// Nothing known of the kitty: the save as it is.
	if got, left, err := WithoutClosed(data, jf, 300); err != nil || left != nil || string(got) != string(data) {
		t.Errorf("another kitty: %v %v", left, err)
	}
}
