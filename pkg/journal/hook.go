package journal

import "time"

// FromHook is the IDFrom and StateFrom of what an agent's hook reported.
const FromHook = "hook"

// HookEvent is what an agent's hook reported at one moment: the
// conversation it is in and, when the event says, its state.
type HookEvent struct {
	ID string
	// State is StateWorking or StateIdle, or "" when the event says
	// nothing of it (a session start after compaction).
	State string
	Dir   string
	At    time.Time
}

// ApplyHook brings r up to date with a hook's event. Working time is
// accounted up to the event from LastSeen (whoever wrote the record last,
// hook or scanner, accounted up to then), and a run ends when working
// turns to idle, as the scanner counts them. Both only from a state a hook
// reported: the first event of a session the scanner judged by its title
// replaces that guess, and counts nothing.
func (r *Record) ApplyHook(ev HookEvent) {
	at := ev.At
	fromHook := r.StateFrom == FromHook
	if fromHook && r.State == StateWorking && at.After(r.LastSeen) && !r.LastSeen.IsZero() {
		r.WorkingSeconds += at.Sub(r.LastSeen).Seconds()
	}
	if at.After(r.LastSeen) {
		r.LastSeen = at
	}
	if ev.ID != "" && ev.ID != r.ID {
		if r.ID != "" {
			r.PreviousIDs = append(r.PreviousIDs, r.ID)
		}
		r.ID = ev.ID
	}
	if ev.ID != "" {
		r.IDFrom = FromHook
	}
	if r.Dir == "" {
		r.Dir = ev.Dir
	}
	if ev.State != "" {
		if ev.State != r.State {
			if fromHook && r.State == StateWorking && (ev.State == StateIdle || ev.State == StateAttention) {
				r.RunsFinished++
			}
			r.State = ev.State
			r.StateSince = at
		}
		r.StateFrom = FromHook
	}
	r.HookAt = &at
}

// AdoptHook takes over into r what a hook wrote into from, the journal's
// copy of the same session, when that is newer than what r has: the id, the
// state and the counts. It reports whether it took anything; the caller
// then accounts working time from *r.HookAt on.
func (r *Record) AdoptHook(from Record) bool {
	if from.HookAt == nil || r.HookAt != nil && !from.HookAt.After(*r.HookAt) {
		return false
	}
	r.ID, r.IDFrom, r.PreviousIDs = from.ID, from.IDFrom, from.PreviousIDs
	r.State, r.StateFrom, r.StateSince = from.State, from.StateFrom, from.StateSince
	r.RunsFinished, r.WorkingSeconds = from.RunsFinished, from.WorkingSeconds
	at := *from.HookAt
	r.HookAt = &at
	if r.Dir == "" {
		r.Dir = from.Dir
	}
	return true
}
