package offer

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
)

func publish(t *testing.T, p paths.Paths, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := published.Publish(p, n, []byte("new_tab\nlaunch\n")); err != nil {
			t.Fatal(err)
		}
	}
}

func instance(pid int, sock string) kitty.Instance {
	a, _ := kitty.ParseAddress("unix:" + sock)
	return kitty.Instance{Addr: a, Socket: a.String(), PID: pid, Version: kitty.Version{Major: 0, Minor: 48, Patch: 2}}
}

type launches struct {
	mu   sync.Mutex
	got  []string
	fail error
}

func (l *launches) launch(_ context.Context, in kitty.Instance, key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fail != nil {
		return l.fail
	}
	l.got = append(l.got, autosave.KittyKey(in)+"<-"+key)
	return nil
}

// A kitty that starts is offered the session of the kitty that ended, once:
// a second kitty gets nothing, nor does the same kitty seen again; a failed
// launch leaves it for the next kitty; off means off.
func TestOffererConsider(t *testing.T) {
	p := paths.Under(t.TempDir())
	now := at(60)
	clk := clock.NewFake(now)
	publish(t, p, autosave.Name("101", at(10)), autosave.Name("202", at(20)), autosave.Name("303", at(50)))
	l := &launches{}
	off := ""
	o := &Offerer{Paths: p, Launch: l.launch, Alive: aliveSet("202", "303", "404", "505"), Clock: clk,
		Started: func(pid int) time.Time {
			return map[int]time.Time{303: at(59), 404: at(59), 505: at(59), 606: at(1)}[pid]
		},
		Off: func() string { return off }}
	ctx := context.Background()

	// 303 started after 101 ended: 101 is offered there, not 202 (running).
	if key, why := o.Consider(ctx, instance(303, "/k-303")); key != "101" {
		t.Fatalf("offered %q (%s), want 101", key, why)
	}
	// 404 starts at the same time: the offer is 303's.
	if key, why := o.Consider(ctx, instance(404, "/k-404")); key != "" || why != "" {
		t.Errorf("a second kitty was offered %q (%s)", key, why)
	}
	st, _ := ended.Read(p)
	if m := st.Kitties["101"]; m.OfferedTo != 303 || !m.Offered.Equal(now) {
		t.Errorf("claim: %+v", m)
	}
	// A kitty that ran long before the scanner saw it is not one that starts.
	publish(t, p, autosave.Name("707", at(5)))
	if key, _ := o.Consider(ctx, instance(606, "/k-606")); key != "" {
		t.Errorf("an old kitty was offered %q", key)
	}
	// A launch that fails gives the claim back.
	l.fail = errors.New("no such window")
	if key, why := o.Consider(ctx, instance(505, "/k-505")); key != "" || why == "" {
		t.Errorf("failed launch: %q %q", key, why)
	}
	st, _ = ended.Read(p)
	if m := st.Kitties["707"]; !m.Offered.IsZero() {
		t.Errorf("the claim of a failed offer was kept: %+v", m)
	}
	l.fail = nil
	off = "KITTYMUX_OFFER=0"
	if key, why := o.Consider(ctx, instance(505, "/k-505")); key != "" || why == "" {
		t.Errorf("off: %q %q", key, why)
	}
	off = ""
	// An old kitty cannot load a saved session.
	old := instance(505, "/k-505")
	old.Version = kitty.Version{Major: 0, Minor: 26, Patch: 5}
	if key, _ := o.Consider(ctx, old); key != "" {
		t.Errorf("kitty 0.26.5 was offered %q", key)
	}
	if key, _ := o.Consider(ctx, instance(505, "/k-505")); key != "707" {
		t.Errorf("the next kitty was offered %q, want 707", key)
	}
	// Utility kitties never.
	panel := instance(404, "/k-panel")
	panel.Utility = "panel"
	if key, why := o.Consider(ctx, panel); key != "" || why != "" {
		t.Errorf("panel: %q %q", key, why)
	}
	if len(l.got) != 2 || l.got[0] != "303<-101" || l.got[1] != "505<-707" {
		t.Errorf("launched %v", l.got)
	}

	// Seen considers a young kitty in the background, again at each poll
	// until it is offered a session: 404 was offered nothing so far, and
	// 303 ended now.
	o.Seen(ctx, instance(404, "/k-404"))
	o.Wait()
	o.Alive = aliveSet()
	for range 3 {
		o.Seen(ctx, instance(404, "/k-404"))
		o.Wait()
	}
	if len(l.got) != 3 || l.got[2] != "404<-303" {
		t.Errorf("after Seen: %v", l.got)
	}
	// Past NewKittyAge a kitty is not considered any more.
	publish(t, p, autosave.Name("909", at(7)))
	first := now
	clk.Set(first.Add(NewKittyAge + time.Second))
	o.Seen(ctx, instance(505, "/k-505"))
	o.Wait()
	if len(l.got) != 3 {
		t.Errorf("an old kitty was offered: %v", l.got)
	}
}

// A kitty opened beside the one that ended, while the scanner still saw
// that one run, is not offered its session: the kitty opened after the
// crash is. The check stands back for a quit and a reopen at once.
func TestOfferGoesToTheKittyOpenedAfter(t *testing.T) {
	p := paths.Under(t.TempDir())
	publish(t, p, autosave.Name("111", at(10)))
	start := at(20)
	clk := clock.NewFake(start)
	l := &launches{}
	o := &Offerer{Paths: p, Launch: l.launch, Alive: aliveSet("111"), Clock: clk,
		Started: func(pid int) time.Time {
			return map[int]time.Time{222: start.Add(-time.Minute), 333: start.Add(5 * time.Second)}[pid]
		}}
	ctx := context.Background()
	// The scanner polls 111 and 222 side by side, then 111 crashes.
	o.Seen(ctx, instance(111, "/k-111"))
	o.Seen(ctx, instance(222, "/k-222"))
	o.Wait()
	o.Alive = aliveSet("222")
	clk.Set(start.Add(time.Minute))
	if key, why := o.Consider(ctx, instance(222, "/k-222")); key != "" || why != errBeside {
		t.Errorf("the kitty opened beside the crashed one: offered %q (%q)", key, why)
	}
	o.Seen(ctx, instance(222, "/k-222"))
	o.Wait()
	// 333 started 5 s before the last poll that saw 111: a quit and a
	// reopen at once. It is offered 111's session.
	if key, why := o.Consider(ctx, instance(333, "/k-333")); key != "111" {
		t.Errorf("the kitty opened right after: offered %q (%q), want 111", key, why)
	}
	if len(l.got) != 1 || l.got[0] != "333<-111" {
		t.Errorf("launched %v", l.got)
	}
}

// TestKittyPIDReused: kitty 101 (start S1) ended and its session was
// restored. A new kitty gets pid 101 (start S2), saves, and crashes. The
// next kitty to start is offered that session: "restored" was said of the
// first kitty with that pid, not of this one.
func TestKittyPIDReused(t *testing.T) {
	for name, first := range map[string]ended.Mark{
		"start recorded":            {KittyStart: "S1", Restored: at(12), RestoredName: autosave.Name("101", at(10))},
		"an earlier file, no start": {Restored: at(12), RestoredName: autosave.Name("101", at(10))},
	} {
		t.Run(name, func(t *testing.T) {
			p := paths.Under(t.TempDir())
			writeState(t, p, ended.File{Kitties: map[string]ended.Mark{"101": first}})
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
			st, _ := ended.Read(p)
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

// A kitty too old to load a save is offered the journal's conversations of
// the kitty that went away, once.
func TestOffererJournal(t *testing.T) {
	p := paths.Under(t.TempDir())
	j := journal.New(p.Journal(), false)
	if _, err := j.Update(func(f *journal.File) error {
		f.Records = []journal.Record{rec("a", 100, "claude", "c1", 50, journal.ClosedKittyGone)}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	l := &launches{}
	o := &Offerer{Paths: p, Launch: l.launch, Alive: aliveSet(), Clock: clock.NewFake(at(60)),
		Started: func(int) time.Time { return at(59) }}
	old := func(pid int) kitty.Instance {
		in := instance(pid, "/k-old")
		in.Version = kitty.Version{Major: 0, Minor: 26, Patch: 5}
		return in
	}
	if key, why := o.Consider(context.Background(), old(7)); key != "journal-100" {
		t.Fatalf("offered %q (%s)", key, why)
	}
	if key, _ := o.Consider(context.Background(), old(8)); key != "" {
		t.Errorf("offered twice: %q", key)
	}
	// A kitty that saves is offered autosaves, not the journal.
	if key, _ := o.Consider(context.Background(), instance(9, "/k-new")); key != "" {
		t.Errorf("kitty 0.48.2 was offered %q", key)
	}
}
