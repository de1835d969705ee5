package journal

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
)

// FromHook is the IDFrom and StateFrom of what an agent's hook reported.
const FromHook = "hook"

// HookEvent is what an agent's hook reported at one moment: the
// conversation it is in and, when the event says, its state.
type HookEvent struct {
	ID string `json:"id,omitempty"`
	// State is agents.StateWorking or agents.StateIdle, or "" when the event says
	// nothing of it (a session start after compaction).
	State string    `json:"state,omitempty"`
	Dir   string    `json:"dir,omitempty"`
	At    time.Time `json:"at"`
}

// HookRun is one event of an agent's hook and where the hook ran: what
// `kittymux hook` records (AddHook), and a line of the spool.
type HookRun struct {
	Agent    string `json:"agent"`
	Socket   string `json:"socket,omitempty"`
	KittyPID int    `json:"kitty_pid,omitempty"`
	WindowID int    `json:"window_id"`
	// AgentPID is the agent process the hook picked among its ancestors,
	// PIDs all of them: the scanner's record of the window is found by
	// any of them.
	AgentPID int   `json:"agent_pid,omitempty"`
	PIDs     []int `json:"pids,omitempty"`
	// Chain are the processes of the agent that ran the hook: the nearest
	// ancestor that is not a shell and those right above it that are not
	// either (node above codex's native binary), nearest first. Nested: a
	// process above them, past a shell, is an agent of the same name (a
	// tool of the window's agent ran `claude -p`). See nested.go.
	Chain  []int     `json:"chain,omitempty"`
	Nested bool      `json:"nested,omitempty"`
	Event  HookEvent `json:"event"`
}

// RecordHook applies h to the open record of its agent session, or starts
// one, and returns the record's key. The scanner's record of the window is
// found by the agent's pid among the hook's ancestors; without one the
// hook's own key is used, and the scanner folds it into its record when it
// sees the window.
func (f *File) RecordHook(h HookRun) string {
	key, _ := f.recordHook(h)
	return key
}

// recordHook is RecordHook, and whether the event came from a run nested
// in the window's agent (recorded as its own session).
func (f *File) recordHook(h HookRun) (string, bool) {
	prefix := h.Socket + "|" + strconv.Itoa(h.KittyPID) + "|" + strconv.Itoa(h.WindowID) + "|"
	var r, other *Record
	for i := range f.Records {
		c := &f.Records[i]
		if !c.Open || c.Nested || !strings.HasPrefix(c.Key, prefix) || !slices.Contains(h.PIDs, c.PID) {
			continue
		}
		if c.Agent == h.Agent {
			r = c
			break
		}
		other = c
	}
	if nested(h, r, other) {
		return f.recordNested(h), true
	}
	if r == nil {
		now := h.Event.At
		key := Key(h.Socket, h.KittyPID, h.WindowID, h.AgentPID)
		f.Upsert(Record{Key: key, Agent: h.Agent, Argv: []string{}, FirstSeen: now, LastSeen: now,
			State: agents.StateUnknown, StateSince: now, Open: true, KittyPID: h.KittyPID, KittySocket: h.Socket,
			WindowID: h.WindowID, PID: h.AgentPID})
		r = f.Find(key)
	}
	r.ApplyHook(h.Event)
	return r.Key, false
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
	if fromHook && r.State == agents.StateWorking && at.After(r.LastSeen) && !r.LastSeen.IsZero() {
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
			if fromHook && r.State == agents.StateWorking && (ev.State == agents.StateIdle || ev.State == agents.StateAttention) {
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
