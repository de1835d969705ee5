package ended

import (
	"sort"
	"strconv"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/published"
)

// Save is one published session, with the kitty it is of when it is an
// autosave.
type Save struct {
	Name string
	Path string
	// Kitty is the key of the kitty an autosave is of (its pid); "" for a
	// save made by name.
	Kitty string
	At    time.Time
	// Quit: the quit watcher saved it at a confirmed quit.
	Quit bool
}

// legacyQuit is the name the quit watcher used before its saves named
// their kitty: the kitty it came from is not known, only that it quit.
const legacyQuit = published.AutosavePrefix + "quit"

// Saves reads the kitty and time of each published session.
func Saves(all []published.Info) []Save {
	out := make([]Save, 0, len(all))
	for _, in := range all {
		s := Save{Name: in.Name, Path: in.Path, At: in.Modified}
		if key, at, ok := autosave.ParseName(in.Name); ok {
			s.Kitty, s.At, s.Quit = key, at, autosave.IsQuit(in.Name)
		} else if in.Name == legacyQuit {
			s.Kitty, s.Quit = legacyQuit, true
		}
		out = append(out, s)
	}
	return out
}

// State of a kitty's newest save. Values are stable: `saves --json`
// prints them.
type State string

const (
	Running   State = "running"   // the kitty still runs
	This      State = "this"      // the kitty the command runs in
	Ended     State = "ended"     // gone, its session neither restored nor dismissed
	Restored  State = "restored"  // gone, its session restored since
	Dismissed State = "dismissed" // gone, its offer dismissed
)

// Kitty is one kitty that has autosaves, by its newest save.
type Kitty struct {
	Key    string
	Newest Save
	State  State
	// Quit: it ended at a confirmed quit (its newest save is the quit
	// watcher's); otherwise an ended kitty went away unexpectedly.
	Quit bool
	Mark Mark
}

// QuitShutdown is how long a kitty may take to go after its quit watcher
// saved it: a save of that kitty taken in that time (the scanner's, as its
// windows closed) is never newer than the quit's. A later one is of
// another kitty that got the same pid.
const QuitShutdown = time.Minute

// Alive tells whether the kitty of a key runs.
type Alive func(key string) bool

// Kitties groups the autosaves by kitty, newest save first, and says what
// state each kitty is in. self is the key of the kitty the command runs in
// ("" outside kitty).
func Kitties(saves []Save, alive Alive, self string, st File) []Kitty {
	newest, quit := map[string]Save{}, map[string]Save{}
	for _, s := range saves {
		if s.Kitty == "" {
			continue
		}
		if n, ok := newest[s.Kitty]; !ok || s.At.After(n.At) || (s.At.Equal(n.At) && s.Quit && !n.Quit) {
			newest[s.Kitty] = s
		}
		if q, ok := quit[s.Kitty]; s.Quit && (!ok || s.At.After(q.At)) {
			quit[s.Kitty] = s
		}
	}
	for key, q := range quit {
		// A save the scanner took while the kitty went, after the quit
		// watcher's, holds what was left of it as its windows closed.
		if n := newest[key]; !n.Quit && !n.At.After(q.At.Add(QuitShutdown)) {
			newest[key] = q
		}
	}
	out := make([]Kitty, 0, len(newest))
	for key, s := range newest {
		k := Kitty{Key: key, Newest: s, Quit: s.Quit, Mark: markOf(st, key, s.At)}
		switch {
		case self != "" && key == self:
			k.State = This
		case key != legacyQuit && alive(key):
			k.State = Running
		case !k.Mark.Restored.IsZero():
			k.State = Restored
		case !k.Mark.Dismissed.IsZero():
			k.State = Dismissed
		default:
			k.State = Ended
		}
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Newest.At.Equal(out[j].Newest.At) {
			return out[i].Newest.At.After(out[j].Newest.At)
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// markOf is key's mark when it can be about a kitty whose newest save (or
// end) was at newest: every mark is made after its kitty ended, so a mark
// older than that is about an earlier kitty that had the same pid.
func markOf(st File, key string, newest time.Time) Mark {
	m := st.Kitties[key]
	if latest := m.latest(); !latest.IsZero() && latest.Before(newest) {
		return Mark{KittyStart: m.KittyStart}
	}
	return m
}

// Choice is what `restore last` finds.
type Choice struct {
	// Pick is the save to restore: the newest save of the kitty that ended
	// last, when its session is still to restore.
	Pick *Save
	// Done is the kitty that ended last when its session was restored or
	// dismissed already: it is not "last" again.
	Done *Kitty
	// Others are the older kitties that ended and were not restored,
	// newest first: what could be restored instead.
	Others []Kitty
	// Running are the kitties with saves that still run (this one
	// included).
	Running []Kitty
}

// Last picks what `restore last` restores from the kitties (Kitties) and
// every save: the newest save of the kitty that ended last; with no
// autosave at all, the newest save made by name (as before kitties were
// told apart).
func Last(ks []Kitty, saves []Save) Choice {
	var c Choice
	var gone []Kitty
	for _, k := range ks {
		switch k.State {
		case Running, This:
			c.Running = append(c.Running, k)
		default:
			gone = append(gone, k)
		}
	}
	if len(gone) > 0 {
		first := gone[0]
		if first.State == Ended {
			s := first.Newest
			c.Pick = &s
		} else {
			c.Done = &first
		}
		for _, k := range gone[1:] {
			if k.State != Restored {
				c.Others = append(c.Others, k)
			}
		}
		return c
	}
	if len(ks) > 0 {
		return c
	}
	var best *Save
	for i := range saves {
		if best == nil || saves[i].At.After(best.At) {
			best = &saves[i]
		}
	}
	c.Pick = best
	return c
}

// Offerable is the session to offer a kitty that starts: the newest that
// ended and was neither restored, dismissed, offered nor put off.
func Offerable(ks []Kitty) *Kitty {
	for i := range ks {
		k := ks[i]
		if k.State == Ended && k.Mark.Offered.IsZero() && k.Mark.Later.IsZero() {
			return &k
		}
	}
	return nil
}

// PIDOf is the pid a kitty key names, 0 when it names none (a socket's
// hash, the old quit save).
func PIDOf(key string) int {
	pid, err := strconv.Atoi(key)
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
