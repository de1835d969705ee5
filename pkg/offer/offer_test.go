package ended

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/clock"
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
	st, _ := Read(p)
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
	st, _ = Read(p)
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

// The marks: restored, dismissed and later are kept; a claim is taken once
// and given back only by its holder; the file is 0600 and bounded.
func TestState(t *testing.T) {
	p := paths.Under(t.TempDir())
	if st, err := Read(p); err != nil || len(st.Kitties) != 0 {
		t.Fatalf("missing state: %v %v", st, err)
	}
	if _, err := os.Stat(p.StateDir); err == nil {
		t.Errorf("reading created the state directory")
	}
	if won, err := Claim(p, "101", time.Time{}, 7, at(1)); !won || err != nil {
		t.Fatalf("claim: %v %v", won, err)
	}
	if won, _ := Claim(p, "101", time.Time{}, 8, at(2)); won {
		t.Errorf("claimed twice")
	}
	if err := Release(p, "101", 8); err != nil {
		t.Fatal(err)
	}
	if st, _ := Read(p); st.Kitties["101"].OfferedTo != 7 {
		t.Errorf("released by another kitty: %+v", st.Kitties["101"])
	}
	if err := MarkRestored(p, "202", "autosave-202-x", at(3)); err != nil {
		t.Fatal(err)
	}
	if won, _ := Claim(p, "202", time.Time{}, 7, at(4)); won {
		t.Errorf("a restored session was claimed")
	}
	MarkDismissed(p, "303", at(5))
	MarkLater(p, "404", at(6))
	st, _ := Read(p)
	if m := st.Kitties["202"]; !m.Restored.Equal(at(3)) || m.RestoredName != "autosave-202-x" {
		t.Errorf("restored: %+v", m)
	}
	if !st.Kitties["303"].Dismissed.Equal(at(5)) || !st.Kitties["404"].Later.Equal(at(6)) {
		t.Errorf("dismissed, later: %+v", st.Kitties)
	}
	fi, err := os.Stat(filepath.Join(p.StateDir, paths.EndedName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state file: %v %v", fi, err)
	}
	for i := range keepMarks + 10 {
		MarkLater(p, "k"+strconv.Itoa(i), at(100+i))
	}
	if st, _ := Read(p); len(st.Kitties) != keepMarks || st.Kitties["k"+strconv.Itoa(keepMarks+9)].Later.IsZero() {
		t.Errorf("bounded to %d: %d kept", keepMarks, len(st.Kitties))
	}
	// A broken file is read as empty and replaced by the next change.
	os.WriteFile(filepath.Join(p.StateDir, paths.EndedName), []byte("{"), 0o600)
	if _, err := Read(p); err == nil {
		t.Errorf("a broken file read without an error")
	}
	if err := MarkLater(p, "101", at(9)); err != nil {
		t.Fatal(err)
	}
	if st, err := Read(p); err != nil || len(st.Kitties) != 1 {
		t.Errorf("after a broken file: %v %v", st, err)
	}
}

// A kitty is alive when discovery found it or its pid is a kitty: this
// test's own pid is no kitty.
func TestLiveness(t *testing.T) {
	alive := Liveness([]kitty.Instance{instance(4242, "/k-4242"), instance(0, "/k-nopid")})
	if !alive("4242") || !alive(autosave.KittyKey(instance(0, "/k-nopid"))) {
		t.Errorf("a discovered kitty is not alive")
	}
	if alive(strconv.Itoa(os.Getpid())) || alive("99999999") || alive("autosave-quit") {
		t.Errorf("a process that is no kitty is alive")
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
