package ended

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
)

func rec(key string, kittyPID int, agent, id string, last int, reason string) journal.Record {
	r := journal.Record{Key: key, Agent: agent, ID: id, KittyPID: kittyPID, KittySocket: "unix:/k", LastSeen: at(last)}
	if reason == "" {
		r.Open = true
		return r
	}
	closed := at(last + 1)
	r.ClosedAt, r.CloseReason = &closed, reason
	return r
}

// The journal's kitties that went away: only conversations that ended with
// their kitty, recently, and not running again; the last to go first.
func TestGoneKitties(t *testing.T) {
	f := &journal.File{Records: []journal.Record{
		rec("a", 100, "claude", "c1", 10, journal.ClosedKittyGone),
		rec("b", 100, "claude", "c2", 12, journal.ClosedWindow),    // closed by hand
		rec("c", 100, "claude", "c3", 11, journal.ClosedKittyGone), // runs again:
		rec("c'", 300, "claude", "c3", 40, ""),
		rec("d", 200, "codex", "", 30, journal.ClosedKittyGone),
		rec("e", 50, "gemini", "", -500, journal.ClosedKittyGone), // too long ago
	}}
	gs := GoneKitties(f, at(0))
	var got [][]string
	for _, g := range gs {
		keys := []string{g.Key}
		for _, r := range g.Records {
			keys = append(keys, r.Key)
		}
		got = append(got, keys)
	}
	if diff := cmp.Diff([][]string{{"journal-200", "d"}, {"journal-100", "a"}}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !gs[1].Ended.Equal(at(11)) {
		t.Errorf("kitty 100 ended %v", gs[1].Ended)
	}
	st := File{Kitties: map[string]Mark{"journal-200": {Dismissed: at(50)}}}
	if g := OfferableGone(gs, st); g == nil || g.Key != "journal-100" {
		t.Errorf("offerable: %+v", g)
	}
	st.Kitties["journal-100"] = Mark{Offered: at(50)}
	if g := OfferableGone(gs, st); g != nil {
		t.Errorf("offered twice: %+v", g)
	}
}
