// Package ended tells which kitties went away and what became of their
// sessions: whether a kitty still runs (Liveness), the saves read with it
// (Saved), `sessions restore last` picks the newest save of a kitty that no
// longer runs, `sessions saves` shows each kitty's state, and the
// journal's kitties that went away with conversations open. pkg/offer offers such a session in a kitty that
// starts, once.
//
// What became of a session (restored, dismissed, offered, put off) is kept
// in ended-sessions.json in the state directory, one entry per kitty key
// (the key an autosave's name carries), changed under ended-sessions.lock.
package ended

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

const (
	// keepMarks bounds the file: kitties beyond these, by their newest mark,
	// are forgotten (their saves are long pruned).
	keepMarks = 50
)

// Mark is what became of one kitty's session. Field names are stable.
// A kitty is its pid (its key) and its start: KittyStart is the start of
// the kitty the marks are about, and a kitty that later gets the pid (seen
// running with another start) starts with no mark.
type Mark struct {
	// KittyStart is the start (procid.Start) of the kitty of this key as
	// the scanner saw it run; "" when not known (a file from an earlier
	// kittymux): then a kitty seen with the pid is taken for a new one.
	KittyStart string `json:"kitty_start,omitempty"`
	// Restored is when its session was restored, and which save.
	Restored     time.Time `json:"restored,omitzero"`
	RestoredName string    `json:"restored_name,omitempty"`
	// Dismissed is when the offer was answered "dismiss".
	Dismissed time.Time `json:"dismissed,omitzero"`
	// Offered is when the scanner offered it, in the kitty OfferedTo (its
	// pid): the claim that makes the offer appear once.
	Offered   time.Time `json:"offered,omitzero"`
	OfferedTo int       `json:"offered_to,omitempty"`
	// Later is when the offer was answered "later".
	Later time.Time `json:"later,omitzero"`
}

func (m Mark) latest() time.Time {
	t := m.Restored
	for _, o := range []time.Time{m.Dismissed, m.Offered, m.Later} {
		if o.After(t) {
			t = o
		}
	}
	return t
}

// File is ended-sessions.json.
type File struct {
	Kitties map[string]Mark `json:"kitties"`
}

// Read reads the state; a missing file is an empty state. It writes
// nothing: commands that only read create no file.
func Read(p paths.Paths) (File, error) {
	st := File{Kitties: map[string]Mark{}}
	top, err := statefile.Open(p.StateDir)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	defer top.Close()
	return read(top)
}

func read(d *statefile.Dir) (File, error) {
	st := File{Kitties: map[string]Mark{}}
	data, err := d.ReadFile(paths.EndedName)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("read %s: %w", filepath.Join(d.Path(), paths.EndedName), err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		// A broken file is replaced at the next change: it only remembers
		// what was offered, never a session.
		return File{Kitties: map[string]Mark{}}, fmt.Errorf("read %s: %w", filepath.Join(d.Path(), paths.EndedName), err)
	}
	if st.Kitties == nil {
		st.Kitties = map[string]Mark{}
	}
	return st, nil
}

// Update changes the state under its lock: change gets the current state
// and returns whether to write it. Two processes updating at once see each
// other's changes, so a claim is taken by one of them.
func Update(p paths.Paths, change func(*File) bool) error {
	top, err := statefile.Make(p.StateDir)
	if err != nil {
		return err
	}
	defer top.Close()
	lf, err := top.OpenLock(paths.EndedLockName)
	if err != nil {
		return err
	}
	defer lf.Close()
	// Closing lf drops the lock.
	if err := statefile.Flock(context.Background(), lf, syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock %s: %w", filepath.Join(p.StateDir, paths.EndedLockName), err)
	}
	st, _ := read(top) // a broken file starts over
	if !change(&st) {
		return nil
	}
	st.bound()
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return top.WriteFile(paths.EndedName, append(data, '\n'))
}

func (st *File) bound() {
	if len(st.Kitties) <= keepMarks {
		return
	}
	keys := make([]string, 0, len(st.Kitties))
	for k := range st.Kitties {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return st.Kitties[keys[i]].latest().After(st.Kitties[keys[j]].latest()) })
	for _, k := range keys[keepMarks:] {
		delete(st.Kitties, k)
	}
}

// MarkRestored records that kitty key's session was restored from the save
// name at t.
func MarkRestored(p paths.Paths, key, name string, t time.Time) error {
	return Update(p, func(st *File) bool {
		m := st.Kitties[key]
		m.Restored, m.RestoredName = t, name
		st.Kitties[key] = m
		return true
	})
}

// MarkDismissed records that kitty key's session was dismissed at t.
func MarkDismissed(p paths.Paths, key string, t time.Time) error {
	return Update(p, func(st *File) bool {
		m := st.Kitties[key]
		m.Dismissed = t
		st.Kitties[key] = m
		return true
	})
}

// MarkLater records that the offer of kitty key's session was put off at t.
func MarkLater(p paths.Paths, key string, t time.Time) error {
	return Update(p, func(st *File) bool {
		m := st.Kitties[key]
		m.Later = t
		st.Kitties[key] = m
		return true
	})
}

// Claim takes the offer of kitty key's session, whose newest save (or
// end) was at newest, for the kitty pid to show: true when no kitty was
// offered it before and it was neither restored nor dismissed since. Marks
// older than newest are an earlier kitty's with that pid (markOf).
func Claim(p paths.Paths, key string, newest time.Time, pid int, t time.Time) (bool, error) {
	won := false
	err := Update(p, func(st *File) bool {
		m := markOf(*st, key, newest)
		if !m.Offered.IsZero() || !m.Restored.IsZero() || !m.Dismissed.IsZero() {
			return false
		}
		m.Offered, m.OfferedTo = t, pid
		st.Kitties[key] = m
		won = true
		return true
	})
	return won && err == nil, err
}

// Release gives back a claim whose offer could not be shown, so the next
// kitty that starts is offered the session.
func Release(p paths.Paths, key string, pid int) error {
	return Update(p, func(st *File) bool {
		m, ok := st.Kitties[key]
		if !ok || m.OfferedTo != pid {
			return false
		}
		m.Offered, m.OfferedTo = time.Time{}, 0
		st.Kitties[key] = m
		return true
	})
}

// Renew is called when a kitty with key's pid is seen running with start:
// the marks of key (and of its journal key) that are about another kitty
// (another start, or one not known) are dropped, and the start recorded,
// so that kitty's session, when it ends, is offered whatever became of the
// earlier one's. With start not known nothing changes: the pid alone is
// all there is.
func Renew(p paths.Paths, key, start string) error {
	if start == "" {
		return nil
	}
	keys := []string{key}
	if PIDOf(key) > 0 {
		keys = append(keys, JournalPrefix+key)
	}
	st, _ := Read(p)
	if !slices.ContainsFunc(keys, func(k string) bool { return stale(st, k, start) }) {
		return nil // nothing to change: no write
	}
	return Update(p, func(st *File) bool {
		changed := false
		for _, k := range keys {
			if stale(*st, k, start) {
				st.Kitties[k] = Mark{KittyStart: start}
				changed = true
			}
		}
		return changed
	})
}

// stale: key's entry is about a kitty other than the one that started at
// start, or holds marks about a kitty whose start is not known.
func stale(st File, key, start string) bool {
	m, ok := st.Kitties[key]
	return !ok && !strings.HasPrefix(key, JournalPrefix) || ok && m.KittyStart != start
}
