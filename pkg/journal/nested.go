package journal

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
)

// nested reports whether h came from an agent run inside the window's own
// agent (a tool of it ran `claude -p …` or another agent), not from the
// window's agent: only the window's agent, the outermost agent below kitty,
// may move the window's id. same is the open record of h's agent in the
// window whose process is one of h's ancestors, other one of another
// agent: a record's process above the agent that ran the hook makes it
// nested. With neither, the hook's own reading of its ancestors decides.
func nested(h HookRun, same, other *Record) bool {
	if len(h.Chain) == 0 {
		return false
	}
	if same != nil && same.PID > 0 {
		return !slices.Contains(h.Chain, same.PID)
	}
	if other != nil && other.PID > 0 && !slices.Contains(h.Chain, other.PID) {
		return true
	}
	return h.Nested
}

// recordNested records h as a session of its own, keyed by the outermost
// process of the nested agent, never as the window's: its id moves no
// window, no lease, no user var.
func (f *File) recordNested(h HookRun) string {
	pid := h.Chain[len(h.Chain)-1]
	key := Key(h.Socket, h.KittyPID, h.WindowID, pid)
	if f.Find(key) == nil {
		now := h.Event.At
		f.Upsert(Record{Key: key, Agent: h.Agent, Argv: []string{}, FirstSeen: now, LastSeen: now,
			State: agents.StateUnknown, StateSince: now, Open: true, KittyPID: h.KittyPID, KittySocket: h.Socket,
			WindowID: h.WindowID, PID: pid, Nested: true})
	}
	r := f.Find(key)
	r.ApplyHook(h.Event)
	return key
}

// HookOutcome is what AddHookRun did with one event.
type HookOutcome struct {
	Key string
	// Nested: the event came from a run nested in the window's agent and
	// was recorded as its own session.
	Nested bool
	// Queued: the journal was busy; the event waits in the spool.
	Queued bool
}

// AddHookRun is AddHook, saying also whether the event was nested.
func (j *Journal) AddHookRun(ctx context.Context, wait time.Duration, h HookRun) (HookOutcome, error) {
	var out HookOutcome
	lctx, cancel := context.WithTimeout(ctx, wait)
	_, err := j.UpdateContext(lctx, func(f *File) error {
		out.Key, out.Nested = f.recordHook(h)
		return nil
	})
	cancel()
	if !errors.Is(err, ErrBusy) {
		return out, err
	}
	if serr := j.spool(ctx, h); serr != nil {
		return HookOutcome{}, errors.Join(err, serr)
	}
	return HookOutcome{Queued: true, Nested: h.Nested}, nil
}
