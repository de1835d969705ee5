package scanner

import (
	"os"
	"slices"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/live"
)

// Agents' hooks (`kittymux hook`) write the conversation id and the state
// straight into the journal, at the moment they change. Where a hook has
// written a record (HookAt set) it owns the id, the state, the runs and
// the working time: the scanner takes them from the journal and no longer
// reads them from kitty (titles) or the agent's records.

// hookWatch is what the journal looked like when the scanner last read
// the hooks' writes in it.
type hookWatch struct {
	mod  time.Time
	size int64
	// Of its log, where each change is appended.
	logMod  time.Time
	logSize int64
	// Of the spool, where hook events wait when the journal was busy.
	spoolMod  time.Time
	spoolSize int64
}

func (w hookWatch) same(o hookWatch) bool {
	return w.mod.Equal(o.mod) && w.size == o.size && w.logMod.Equal(o.logMod) && w.logSize == o.logSize &&
		w.spoolMod.Equal(o.spoolMod) && w.spoolSize == o.spoolSize
}

// readHooks takes over what hooks wrote since the last pass: into the
// sessions the scanner follows, and, for a record of a session it does not
// follow yet (the hook ran before the scanner saw the window), as a session
// of its own that the next scan matches to its window.
func (s *Scanner) readHooks(now time.Time) {
	if s.o.Journal == nil || s.o.Journal.Off {
		return
	}
	var seen hookWatch
	fi, err := os.Stat(s.o.Journal.Path)
	if err == nil {
		seen.mod, seen.size = fi.ModTime(), fi.Size()
	}
	if lg, lerr := os.Stat(s.o.Journal.LogPath()); lerr == nil {
		seen.logMod, seen.logSize = lg.ModTime(), lg.Size()
	}
	if sp, serr := os.Stat(s.o.Journal.SpoolPath()); serr == nil {
		seen.spoolMod, seen.spoolSize = sp.ModTime(), sp.Size()
	} else if err != nil {
		return
	}
	if seen.same(s.hooks) {
		return
	}
	s.hooks = seen
	f, err := s.o.Journal.Read()
	if err != nil {
		return
	}
	for _, r := range f.Records {
		if !r.Open || r.HookAt == nil {
			continue
		}
		if se, ok := s.sessions[r.Key]; ok {
			se.adopt(r, now)
			continue
		}
		if id := s.kittyOf(r); id != "" {
			s.sessions[r.Key] = &session{rec: r, kitty: id, accounted: *r.HookAt, lastWritten: r.LastSeen, unseen: true, hookOnly: true}
		}
	}
}

// kittyOf is the id of the followed kitty r ran in, or "". A hook without
// KITTY_LISTEN_ON knows its kitty by pid only.
func (s *Scanner) kittyOf(r journal.Record) string {
	for id, k := range s.kitties {
		if k.inst.PID == r.KittyPID && (r.KittySocket == "" || r.KittySocket == k.status.Socket) {
			return id
		}
	}
	return ""
}

// adopt takes a hook's newer writes over from r, the journal's copy.
func (se *session) adopt(r journal.Record, now time.Time) bool {
	if !se.rec.AdoptHook(r) {
		return false
	}
	// The hook accounted working time up to its event; the scanner goes on
	// from there.
	se.accounted = *se.rec.HookAt
	se.account(now)
	return true
}

// foldHook finds the hook's record of the agent the scanner now sees in
// aw under another key (the hook picked another process of the agent than
// the window's outermost one) and folds it into se: the record under the
// hook's key is removed from the journal at the next write.
func (s *Scanner) foldHook(se *session, aw live.AgentWindow, now time.Time) {
	var pids []int
	for _, p := range aw.Ref.Window.ForegroundProcesses {
		pids = append(pids, p.PID)
	}
	for key, other := range s.sessions {
		// A nested run's session (claude -p run by the window's agent) is
		// its own, never folded into the window's.
		if !other.hookOnly || other.rec.Nested || other == se || other.kitty != se.kitty || other.rec.WindowID != se.rec.WindowID ||
			other.rec.Agent != se.rec.Agent || !slices.Contains(pids, other.rec.PID) {
			continue
		}
		se.adopt(other.rec, now)
		se.rec.FirstSeen = other.rec.FirstSeen
		delete(s.sessions, key)
		s.dropped = append(s.dropped, key)
		se.dirty = true
	}
}

// keepHookOnly: a session known only from its hook, in a window that is
// still there, whose agent process lives, is not closed for not being
// recognised in kitty's ls (an agent the definitions do not know, or one
// not yet the window's foreground process).
func (se *session) keepHookOnly(windows map[int]bool) bool {
	return se.hookOnly && windows[se.rec.WindowID] && se.rec.PID > 0 && processAlive(se.rec.PID)
}

// mergeHooks, under the journal's lock, takes over what hooks wrote since
// the last read before the scanner's records replace the journal's, and
// drops the records folded into others.
func (s *Scanner) mergeHooks(f *journal.File, now time.Time) {
	for _, se := range s.sessions {
		if r := f.Find(se.rec.Key); r != nil && se.adopt(*r, now) {
			se.dirty = true
		}
	}
	for _, key := range s.dropped {
		f.Records = slices.DeleteFunc(f.Records, func(r journal.Record) bool { return r.Key == key && r.HookAt != nil })
	}
}
