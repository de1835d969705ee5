package ended

import (
	"testing"
)

// TestMarkOlderThanTheSave: a mark made before a kitty's newest save is an
// earlier kitty's with the same pid (every mark is made once its kitty
// ended): the session is offered, even when no scanner saw the new kitty.
func TestMarkOlderThanTheSave(t *testing.T) {
	st := File{Kitties: map[string]Mark{"101": {Restored: at(12), Dismissed: at(13)}}}
	ks := Kitties([]Save{auto("101", 10), auto("101", 30)}, aliveSet(), "", st)
	if len(ks) != 1 || ks[0].State != Ended || Offerable(ks) == nil {
		t.Fatalf("kitties %+v; want 101 ended, to offer", ks)
	}
	ks = Kitties([]Save{auto("101", 10)}, aliveSet(), "", st)
	if len(ks) != 1 || ks[0].State != Restored {
		t.Fatalf("kitties %+v; want 101 restored", ks)
	}
}
