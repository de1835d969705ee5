package scanner

import (
	"slices"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/remote"
)

// IDFromHost is the IDFrom of a remote record: the id is the host's
// hook's word, checked only there.
const IDFromHost = "the host's hook"

// scanRemote follows the windows of one kitty whose ssh process (read from
// the OS) reaches a host whose hook reported an agent: each is a session
// of that agent there, recorded in the remote journal with the ssh command
// as seen and the host's hint. What runs on the host is text from there:
// such a record never vouches for anything run here.
func (s *Scanner) scanRemote(k *kittyState, ls []kitty.OSWindow, now time.Time) {
	if s.o.RemoteJournal == nil || s.o.ReadProc == nil {
		return
	}
	seens := remote.Hinted(ls, s.o.ReadProc)
	if len(seens) == 0 {
		return
	}
	tabs := map[int]string{}
	for _, ref := range kitty.Windows(ls) {
		tabs[ref.Window.ID] = tabName(ref.Tab)
	}
	names := s.o.Set.Names()
	for _, seen := range seens {
		h := seen.Hint
		host := seen.SSH.Host()
		if !seen.HasHint() || host == "" || !slices.Contains(names, h.Agent) {
			continue
		}
		key := journal.Key(k.status.Socket, k.inst.PID, seen.WindowID, seen.PID)
		se, _ := s.follow(k, key, h.Agent, seen.WindowID, seen.PID, seen.Start, "its ssh exited; its window stayed open", now)
		se.seen, se.unseen = true, false
		r := &se.rec
		set := func(dst *string, v string) {
			if *dst != v {
				*dst, se.dirty = v, true
			}
		}
		if h.ID != r.ID {
			if r.ID != "" {
				r.PreviousIDs = append(r.PreviousIDs, r.ID)
			}
			r.ID, se.dirty = h.ID, true
		}
		set(&r.Agent, h.Agent)
		set(&r.IDFrom, IDFromHost)
		set(&r.Dir, h.Dir)
		set(&r.Host, host)
		set(&r.ReportedBy, h.Host)
		set(&r.TabTitle, tabs[seen.WindowID])
		if !slices.Equal(r.Argv, seen.SSH.Argv) {
			r.Argv, r.Exe, se.dirty = slices.Clone(seen.SSH.Argv), []string{seen.SSH.Argv[0]}, true
		}
		se.account(now)
		if now.Sub(se.lastWritten) >= s.o.Heartbeat {
			se.dirty = true
		}
	}
}

// flushRemote writes the remote sessions that changed, and those closed,
// to the remote journal.
func (s *Scanner) flushRemote(dirty []*session) error {
	j := s.o.RemoteJournal
	if j == nil || j.Off {
		return nil
	}
	var recs []journal.Record
	for _, r := range s.closed {
		if r.Host != "" {
			recs = append(recs, r)
		}
	}
	for _, se := range dirty {
		if se.rec.Host != "" {
			recs = append(recs, se.rec)
		}
	}
	if len(recs) == 0 {
		return nil
	}
	_, err := j.Update(func(f *journal.File) error {
		for _, r := range recs {
			f.Upsert(r)
		}
		return nil
	})
	return err
}
