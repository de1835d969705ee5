//go:build linux

package e2e_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/procid"
)

// TestRealOfferKittyPIDReused: the state says the session of kitty P (an
// earlier kitty with that pid and another start) was restored. A kitty
// that now runs with pid P is seen by the scanner, crashes, and the next
// kitty that starts is offered its session: "restored" was said of the
// earlier kitty, not of this one.
func TestRealOfferKittyPIDReused(t *testing.T) {
	t.Parallel()
	r := newLastRig(t, "claude")
	k1 := r.start()
	key := strconv.Itoa(k1.PID)
	earlier := time.Now().Add(-time.Hour)
	if err := ended.Update(r.p, func(st *ended.File) bool {
		st.Kitties[key] = ended.Mark{KittyStart: "the start of an earlier kitty " + key,
			Restored: earlier, RestoredName: autosave.Name(key, earlier.Add(-time.Minute))}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	r.scanner(true)
	r.waitSave(k1, "its shell", func(s string) bool { return strings.Contains(s, "\nlaunch ") })
	st, err := ended.Read(r.p)
	if m := st.Kitties[key]; err != nil || m.KittyStart != procid.Start(k1.PID) || !m.Restored.IsZero() {
		t.Errorf("after the scanner saw kitty %s: %+v, %v; want its own start and no mark", key, m, err)
	}
	r.crash(k1)

	k2 := r.start()
	o, _ := waitOffer(t, 30*time.Second, k2)
	// The offer names the session by what it held and how it ended.
	o.k.WaitForText("id:"+strconv.Itoa(o.id), func(s string) bool { return strings.Contains(s, "ended unexpectedly") }, 30*time.Second)
}
