package ended

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/paths"
)

// TestKittyPIDReused: kitty 101 (start S1) ended and its session was
// restored. A new kitty gets pid 101 (start S2), saves, and crashes. The
// next kitty to start is offered that session: "restored" was said of the
// first kitty with that pid, not of this one.
func TestKittyPIDReused(t *testing.T) {
	for name, first := range map[string]Mark{
		"start recorded":            {KittyStart: "S1", Restored: at(12), RestoredName: autosave.Name("101", at(10))},
		"an earlier file, no start": {Restored: at(12), RestoredName: autosave.Name("101", at(10))},
	} {
		t.Run(name, func(t *testing.T) {
			p := paths.Under(t.TempDir())
			writeState(t, p, File{Kitties: map[string]Mark{"101": first}})
			publish(t, p, autosave.Name("101", at(10)))
			clk := clock.NewFake(at(1))
			l := &launches{}
			starts := map[int]string{101: "S2", 303: "S3"}
			o := &Offerer{Paths: p, Launch: l.launch, Clock: clk, Alive: aliveSet("101"),
				Started: func(int) time.Time { return clk.Now() },
				StartOf: func(pid int) string { return starts[pid] },
			}
			ctx := context.Background()
			if first.KittyStart != "" {
				// The same scanner saw the first kitty 101, on the same
				// socket, until it was no longer young.
				starts[101] = "S1"
				o.Seen(ctx, instance(101, "/k-101"))
				o.Wait()
				clk.Set(at(5))
				o.Seen(ctx, instance(101, "/k-101"))
				o.Wait()
				starts[101] = "S2"
			}
			clk.Set(at(20))
			// The second kitty with pid 101 runs: the scanner sees it.
			o.Seen(ctx, instance(101, "/k-101"))
			o.Wait()
			st, _ := Read(p)
			if m := st.Kitties["101"]; m.KittyStart != "S2" || !m.Restored.IsZero() {
				t.Fatalf("after the new kitty 101 was seen: %+v; want its start and no mark", m)
			}
			// It saves, then crashes; kitty 303 starts.
			publish(t, p, autosave.Name("101", at(30)))
			clk.Set(at(40))
			o.Alive = aliveSet("303")
			if key, why := o.Consider(ctx, instance(303, "/k-303")); key != "101" {
				t.Fatalf("kitty 303 was offered %q (%s), want the session of the second kitty 101", key, why)
			}
		})
	}
}

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

func writeState(t *testing.T, p paths.Paths, st File) {
	t.Helper()
	if err := Update(p, func(f *File) bool { *f = st; return true }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.StateDir); err != nil {
		t.Fatal(err)
	}
}
