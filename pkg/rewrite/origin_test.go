package rewrite_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/rewrite"
)

// TestRewriteOrigin: a sealed record names the journal's record of the
// window's agent process (its origin), so the prompt can find the id the
// agent reported after the save: the conversation when the save knew none,
// the one the agent went to when it left the saved one (/clear). An
// unsealed one may not carry it: the prompt trusts it only under a seal.
func TestRewriteOrigin(t *testing.T) {
	set := shipped(t)
	raw := []byte("new_tab\ncd /srv\n\n" +
		`launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": ["claude", "--resume", "` + w4ID + `"]}'` + "\n" +
		`launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["gemini"]}'` + "\n" +
		`launch 'kitty-unserialize-data={"id": 3, "cmd_at_shell_startup": ["claude"]}'` + "\n")
	var ws []live.AgentWindow
	for id, argv := range map[int][]string{1: {"claude", "--resume", w4ID}, 2: {"gemini"}, 3: {"claude"}} {
		c, ok := recognize.Argv(set, argv)
		if !ok {
			t.Fatal(argv)
		}
		w := live.AgentWindow{ID: id, Cwd: "/srv", Cmd: c, Seen: []string{"/opt/" + c.Agent},
			Origin: "2026-12-01T09:00:00Z|unix:/tmp/kitty-7|7|" + string(rune('0'+id)) + "|42"}
		if id == 3 {
			w.Unverified = "its process could not be read"
		}
		ws = append(ws, w)
	}
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, Live: ws})
	if err != nil {
		t.Fatal(err)
	}
	recs := records(t, res.Data)
	if err := recs[2].Verify(testKey); err != nil {
		t.Errorf("window 2: %v", err)
	}
	got := map[int]string{}
	modes := map[int]string{}
	for id, r := range recs {
		got[id], modes[id] = r.Origin, string(r.Mode)
	}
	want := map[int]string{1: "2026-12-01T09:00:00Z|unix:/tmp/kitty-7|7|1|42", 2: "2026-12-01T09:00:00Z|unix:/tmp/kitty-7|7|2|42", 3: ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("origins (-want +got), modes %v:\n%s", modes, diff)
	}
	if modes[1] != "exact" || modes[2] == "exact" || modes[3] == "exact" || recs[3].Seal != "" {
		t.Errorf("modes %v, window 3 sealed %v", modes, recs[3].Seal != "")
	}
}
