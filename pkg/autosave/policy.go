// Package autosave saves each kitty's layout when it changed and then
// settled, through the one save path (package save), and never lets a
// failed, empty or closing save replace the last good one.
//
// Policy decides when, on an injected clock, and holds no files; Store keeps
// the saves on disk; Autosaver joins the two to the scanner's polls.
package autosave

import (
	"errors"
	"fmt"
	"time"
)

// Settings are the times that decide when a kitty is saved.
type Settings struct {
	// Settle: the layout must stay the same this long after a change.
	Settle time.Duration
	// AtMostEvery: at most one save of a kitty this often (failed ones
	// count: a kitty that fails is not asked again at once).
	AtMostEvery time.Duration
	// AtLeastEvery: while anything changed since the last good save, one
	// is taken at least this often, settled or not.
	AtLeastEvery time.Duration
	// Keep is how many saves of each kitty are kept.
	Keep int
}

// Defaults (the README's "Autosave").
var Defaults = Settings{Settle: 20 * time.Second, AtMostEvery: time.Minute, AtLeastEvery: 15 * time.Minute, Keep: 5}

// Layout is what a poll saw of one kitty, as far as a save is concerned.
type Layout struct {
	// Key changes when the set of windows, their directories or their
	// agents and ids change; titles and agent states do not count.
	Key string
	// Windows is how many windows the kitty has.
	Windows int
}

// Outcome is how one save went.
type Outcome struct {
	// Layout is the layout the save was started for.
	Layout Layout
	// Windows is how many windows the saved file holds.
	Windows int
	Err     error
}

// Verdict is what becomes of a finished save.
type Verdict int

const (
	// Discard: failed or empty; the last good save stays.
	Discard Verdict = iota
	// Keep: publish it as the newest good save.
	Keep
	// Hold: it has fewer windows than the last good save, which is what a
	// kitty that is closing saves. It is kept only once a later poll finds
	// the kitty still there with the same windows (Observe returns true);
	// if the kitty goes away instead, it is dropped (Gone).
	Hold
)

func (v Verdict) String() string {
	return [...]string{"discard", "keep", "hold"}[v]
}

// ErrEmpty: the save held no windows.
var ErrEmpty = errors.New("the save holds no windows")

// Policy decides when one kitty is saved. It does no I/O and reads no
// clock: every method is given the time.
type Policy struct {
	S Settings

	current   Layout    // as last observed
	observed  bool      // current is set
	changedAt time.Time // when current was first seen
	// dirtySince is when the layout first differed from the last good
	// save; zero while it does not.
	dirtySince  time.Time
	good        Layout // of the last good save
	hasGood     bool
	lastAttempt time.Time
	inFlight    bool
	held        *held
}

type held struct {
	outcome  Outcome
	finished time.Time
}

// NewPolicy returns a Policy with s, defaults filling what s leaves zero.
func NewPolicy(s Settings) *Policy {
	return &Policy{S: s.withDefaults()}
}

func (s Settings) withDefaults() Settings {
	if s.Settle <= 0 {
		s.Settle = Defaults.Settle
	}
	if s.AtMostEvery <= 0 {
		s.AtMostEvery = Defaults.AtMostEvery
	}
	if s.AtLeastEvery <= 0 {
		s.AtLeastEvery = Defaults.AtLeastEvery
	}
	if s.Keep <= 0 {
		s.Keep = Defaults.Keep
	}
	return s
}

// Observe takes the layout a poll started at now saw. It returns true when
// a held save is now confirmed: the caller publishes it (and calls Kept).
func (p *Policy) Observe(now time.Time, l Layout) (commit bool) {
	if !p.observed || l.Key != p.current.Key {
		p.current, p.observed, p.changedAt = l, true, now
	}
	p.current.Windows = l.Windows
	if !p.hasGood || l.Key != p.good.Key {
		if p.dirtySince.IsZero() {
			p.dirtySince = now
		}
	} else {
		p.dirtySince = time.Time{}
	}
	if h := p.held; h != nil && now.After(h.finished) {
		p.held = nil
		// The kitty answered after the save, its windows as they were when
		// the save started: not a kitty closing, but windows the user
		// closed. (Counts are not compared: ls also shows windows a save
		// leaves out, such as a kitten's overlay.)
		if l.Key == h.outcome.Layout.Key {
			p.kept(h.outcome)
			return true
		}
	}
	return false
}

// Due reports whether a save should start now.
func (p *Policy) Due(now time.Time) bool {
	switch {
	case !p.observed || p.inFlight || p.held != nil:
		return false
	case p.hasGood && p.current.Key == p.good.Key:
		return false // nothing changed since the last good save
	case !p.lastAttempt.IsZero() && now.Sub(p.lastAttempt) < p.S.AtMostEvery:
		return false
	case now.Sub(p.changedAt) >= p.S.Settle:
		return true
	case !p.dirtySince.IsZero() && now.Sub(p.dirtySince) >= p.S.AtLeastEvery:
		return true // never settles: saved anyway, so no change waits longer
	}
	return false
}

// Started records that a save of the current layout started at now and
// returns that layout, for the Outcome.
func (p *Policy) Started(now time.Time) Layout {
	p.inFlight, p.lastAttempt = true, now
	return p.current
}

// Finished takes a save's outcome and says what becomes of it. Keep is
// final; after Hold the caller waits for Observe or Gone.
func (p *Policy) Finished(now time.Time, o Outcome) (Verdict, string) {
	p.inFlight = false
	switch {
	case o.Err != nil:
		return Discard, fmt.Sprintf("the save failed: %v", o.Err)
	case o.Windows == 0:
		return Discard, ErrEmpty.Error()
	case p.hasGood && o.Windows < p.good.Windows:
		p.held = &held{outcome: o, finished: now}
		return Hold, fmt.Sprintf("%d windows where the last good save has %d: kept once the kitty is seen still running", o.Windows, p.good.Windows)
	}
	p.kept(o)
	return Keep, ""
}

// kept makes o the last good save.
func (p *Policy) kept(o Outcome) {
	p.good, p.hasGood = Layout{Key: o.Layout.Key, Windows: o.Windows}, true
	p.dirtySince = time.Time{}
	if p.current.Key != p.good.Key {
		// Changed while saving: that change waits from when it was seen.
		p.dirtySince = p.changedAt
	}
}

// Gone is called when the kitty went away; it reports whether a held save
// was dropped (the kitty was closing when it saved).
func (p *Policy) Gone() (dropped bool) {
	dropped = p.held != nil
	p.held = nil
	return dropped
}

// Prune returns which of a kitty's saves to remove so that the newest keep
// remain. names must sort oldest first (Store's names do).
func Prune(names []string, keep int) []string {
	if keep <= 0 || len(names) <= keep {
		return nil
	}
	return names[:len(names)-keep]
}
