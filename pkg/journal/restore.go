package journal

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/kittymux/kittymux/pkg/spool"
)

// MaxRestores bounds the restore outcomes kept (besides MaxAge).
const MaxRestores = 200

// Outcomes of a restore prompt.
const (
	OutcomeResumed      = "resumed"
	OutcomeNew          = "new"
	OutcomeShell        = "shell"
	OutcomeAgentMissing = "agent-missing"
	// OutcomeFailed: the command was chosen but could not be run.
	OutcomeFailed = "failed"
	// OutcomeAttached: the conversation runs in the agent's background
	// service, and the window attached to it there.
	OutcomeAttached = "attached"
)

// Restore is what the restore prompt did in one restored window. Field
// names are stable.
type Restore struct {
	At      time.Time `json:"at"`
	Agent   string    `json:"agent"`
	Mode    string    `json:"mode"`
	ID      string    `json:"id,omitempty"`
	Dir     string    `json:"dir,omitempty"`
	Tab     string    `json:"tab,omitempty"`
	Outcome string    `json:"outcome"`
	// Why says what led to a shell or a failure.
	Why string `json:"why,omitempty"`
	// Asked: the user answered; otherwise the prompt ran without asking.
	Asked bool `json:"asked"`
	// Where it ran: kitty's KITTY_PID and KITTY_WINDOW_ID.
	KittyPID int `json:"kitty_pid,omitempty"`
	WindowID int `json:"window_id,omitempty"`
	// PID is the prompt's process, which the agent it execs keeps.
	PID int `json:"pid,omitempty"`
}

// AddRestore records a restore prompt's outcome in the journal, under its
// lock.
func (j *Journal) AddRestore(r Restore) error {
	_, err := j.Update(func(f *File) error {
		f.Restores = append(f.Restores, r)
		return nil
	})
	return err
}

// QueueRestore records a restore prompt's outcome without waiting on the
// journal: a line appended to its queue (QueuePath, pkg/spool), no fsync,
// no file created but the queue's first. The prompt execs the agent right
// after, and the journal's lock may be held by a scanner mid-write, its
// fsyncs included: tens of milliseconds in every restored window. The
// queue's own lock is held by others only to read it or drop what the
// journal took, never across a journal write. Read (and so RestoresSince)
// shows queued outcomes at once; the next Update of the journal, by
// anyone, moves them in. A crash of the machine may lose one: it is a
// report, not a record to resume from.
func (j *Journal) QueueRestore(r Restore) error {
	if j.Off {
		return ErrOff
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), spool.Wait)
	defer cancel()
	return j.restoreQueue().Append(ctx, line)
}

// mergeRestores adds to have the outcomes of add it does not hold yet (a
// fold interrupted before its queue files were removed queues them again),
// oldest first.
func mergeRestores(have, add []Restore) []Restore {
	if len(add) == 0 {
		return have
	}
	for _, r := range add {
		if !slices.ContainsFunc(have, func(h Restore) bool { return sameRestore(h, r) }) {
			have = append(have, r)
		}
	}
	slices.SortStableFunc(have, func(a, b Restore) int { return a.At.Compare(b.At) })
	return have
}

func sameRestore(a, b Restore) bool {
	a.At, b.At = a.At.UTC(), b.At.UTC()
	return a == b
}

// RestoresSince returns the outcomes recorded at or after t, oldest first:
// those in the journal and those queued (QueueRestore).
func (j *Journal) RestoresSince(t time.Time) ([]Restore, error) {
	if j.Off {
		return nil, ErrOff
	}
	f, err := j.Read()
	if err != nil {
		return nil, err
	}
	return f.RestoresSince(t), nil
}

// RestoresSince are the restore outcomes of f recorded at t or later.
func (f *File) RestoresSince(t time.Time) []Restore {
	var out []Restore
	for _, r := range f.Restores { // with the queued ones (Read)
		if !r.At.Before(t) {
			out = append(out, r)
		}
	}
	return out
}
