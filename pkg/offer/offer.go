// Package offer offers, in a kitty that starts, the session of a kitty of
// this user that ended without being restored or dismissed (pkg/ended says
// which): the Offerer the scanner tells of each kitty, whether the offer is
// on, what the offer shows (a summary of the save, drawn to the window's
// width), and which agent windows of a save do not come back, as
// `sessions restore last` leaves them out too.
package offer

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/logs"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/published"
)

// NewKittyAge is how long after its start a kitty still counts as one that
// starts: a scanner that starts (again) while kitties run offers nothing in
// those. Until then each poll considers it again: the scanner may see the
// kitty that crashed go only after it saw the new one.
const NewKittyAge = 2 * time.Minute

// besideSlack: a kitty that started while the ended one still ran, seen
// by a poll more than this after its start, was opened beside it, not
// after it ended, and is not offered its session. The slack covers a quit
// and a reopen at once: the old kitty answering a last poll while the new
// one starts.
const besideSlack = 10 * time.Second

// Offerer offers, in a kitty that starts, the session of a kitty of this
// user that ended without its session being restored or dismissed: once
// per ended session (a claim in the state file), never in two kitties,
// never for a kitty still running. The scanner tells it of each kitty it
// polls (Seen); Launch opens the offer in that kitty.
type Offerer struct {
	Paths paths.Paths
	// Off says why offers are off, "" when on (OfferOff).
	Off func() string
	// Launch opens `kittymux sessions offer KEY` in the kitty in.
	Launch func(ctx context.Context, in kitty.Instance, key string) error
	// Alive tells whether a kitty runs; default: ended.Liveness(nil).
	Alive ended.Alive
	// Started is when the kitty of a pid started; default: Started.
	Started func(pid int) time.Time
	// StartOf is a kitty's start as a token (procid.Start, the default):
	// with its pid, what tells a kitty from one that later got its pid.
	StartOf func(pid int) string
	Clock   clock.Clock // nil: the system's
	Logf    logs.Logf

	mu   sync.Mutex
	seen map[string]*young
	// alive is when a poll last saw each kitty (its autosave key).
	alive map[string]time.Time
	wg    sync.WaitGroup
}

// young is a kitty that may still be offered a session.
type young struct {
	first time.Time // when the scanner first saw it
	busy  bool      // being considered
	done  bool      // offered one, or too old
}

// Seen is called for each kitty each poll sees. While the kitty is young
// (NewKittyAge) and was offered nothing, the offer is considered again, in
// the background, so kitty's start and the scanner's poll never wait for
// it.
func (o *Offerer) Seen(ctx context.Context, in kitty.Instance) {
	start := o.startOf(in.PID)
	id := in.Addr.String() + "|" + autosave.KittyKey(in) + "|" + start
	now := o.now()
	o.mu.Lock()
	if o.seen == nil {
		o.seen, o.alive = map[string]*young{}, map[string]time.Time{}
	}
	o.alive[autosave.KittyKey(in)] = now
	y := o.seen[id]
	if y == nil {
		y = &young{first: now}
		o.seen[id] = y
	}
	if y.done || y.busy {
		o.mu.Unlock()
		return
	}
	if now.Sub(y.first) > NewKittyAge {
		y.done = true
		o.mu.Unlock()
		return
	}
	y.busy = true
	o.mu.Unlock()
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		if in.PID > 0 {
			// A kitty with this pid ran before: what became of its session
			// is not this kitty's.
			if err := ended.Renew(o.Paths, autosave.KittyKey(in), start); err != nil {
				o.Logf.Printf("record kitty %d's start: %v", in.PID, err)
			}
		}
		key, why := o.Consider(ctx, in)
		o.mu.Lock()
		y.busy, y.done = false, key != "" || why == errOld || why == errBeside
		o.mu.Unlock()
		switch {
		case key != "":
			o.Logf.Printf("offered kitty %s's session in %s", key, in)
		case why != "" && why != errOld && why != errBeside:
			o.Logf.Printf("no offer in %s: %s", in, why)
		}
	}()
}

// errOld: the kitty did not just start. errBeside: it started while the
// kitty whose session is to offer still ran.
const (
	errOld    = "it did not just start"
	errBeside = "it was opened while the kitty that ended still ran"
)

// besideIt reports whether a kitty started at started was opened while the
// kitty of key still ran, as this offerer's polls saw it.
func (o *Offerer) besideIt(key string, started time.Time) bool {
	o.mu.Lock()
	last, ok := o.alive[strings.TrimPrefix(key, ended.JournalPrefix)]
	o.mu.Unlock()
	return ok && !started.IsZero() && last.Sub(started) > besideSlack
}

func (o *Offerer) now() time.Time { return clock.Or(o.Clock).Now() }

func (o *Offerer) startOf(pid int) string {
	switch {
	case pid <= 0:
		return ""
	case o.StartOf != nil:
		return o.StartOf(pid)
	}
	return procid.Start(pid)
}

// Wait waits for the offers under way.
func (o *Offerer) Wait() { o.wg.Wait() }

// Consider offers in the kitty in the session of the kitty that ended last,
// if there is one to offer; it returns the key of the kitty whose session
// was offered, or why none was (empty when there was simply nothing).
func (o *Offerer) Consider(ctx context.Context, in kitty.Instance) (key, why string) {
	if in.Utility != "" {
		return "", ""
	}
	if o.Off != nil {
		if off := o.Off(); off != "" {
			return "", "offers are off (" + off + ")"
		}
	}
	now := o.now()
	startedAt := procid.Started
	if o.Started != nil {
		startedAt = o.Started
	}
	var started time.Time
	if in.PID > 0 {
		started = startedAt(in.PID)
	}
	if !started.IsZero() && now.Sub(started) > NewKittyAge {
		return "", errOld
	}
	st, _ := ended.Read(o.Paths)
	alive := o.Alive
	if alive == nil {
		alive = ended.Liveness(nil)
	}
	var offer string
	var newest time.Time // the offered kitty's newest save, or when it went
	if !in.Version.IsZero() && !in.Version.AtLeast(kitty.VersionSaveAsSession) {
		// Too old to load a save: the journal's conversations, as
		// `sessions recover` brings them back.
		jf, err := journal.New(o.Paths.Journal(), false).Read()
		if err != nil {
			return "", err.Error()
		}
		var gone []ended.GoneKitty
		for _, g := range ended.GoneKitties(jf, now.Add(-ended.RecoverSince)) {
			if g.PID == 0 || !alive(strconv.Itoa(g.PID)) {
				gone = append(gone, g)
			}
		}
		if g := ended.OfferableGone(gone, st); g != nil {
			offer, newest = g.Key, g.Ended
		}
	} else {
		all, err := published.List(o.Paths)
		if err != nil {
			return "", err.Error()
		}
		if k := ended.Offerable(ended.Kitties(ended.Saves(all), alive, autosave.KittyKey(in), st)); k != nil {
			offer, newest = k.Key, k.Newest.At
		}
	}
	if offer == "" {
		return "", ""
	}
	if o.besideIt(offer, started) {
		return "", errBeside
	}
	k := &ended.Kitty{Key: offer}
	won, err := ended.Claim(o.Paths, k.Key, newest, in.PID, now)
	if err != nil {
		return "", err.Error()
	}
	if !won {
		return "", "kitty " + k.Key + "'s session is offered elsewhere"
	}
	if err := o.Launch(ctx, in, k.Key); err != nil {
		// Not shown: the next kitty that starts gets it.
		if rerr := ended.Release(o.Paths, k.Key, in.PID); rerr != nil {
			o.Logf.Printf("release the offer of kitty %s: %v", k.Key, rerr)
		}
		return "", "open the offer: " + err.Error()
	}
	return k.Key, ""
}
