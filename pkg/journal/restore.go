package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
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

// QueuePath is where the restore prompts' outcomes wait for the journal.
func (j *Journal) QueuePath() string { return j.Path + ".restores" }

// QueueRestore records a restore prompt's outcome without waiting on the
// journal: a line appended to the queue (QueuePath), no fsync, no file
// created but the queue's first. The prompt execs the agent right after,
// and the journal's lock may be held by a scanner mid-write, its fsyncs
// included: tens of milliseconds in every restored window. The queue's own
// lock is held by others only to read it or drop what the journal took,
// never across a journal write. Read (and so RestoresSince) shows queued
// outcomes at once; the next Update of the journal, by anyone, moves them
// in. A crash of the machine may lose one: it is a report, not a record to
// resume from.
func (j *Journal) QueueRestore(r Restore) error {
	if j.Off {
		return ErrOff
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	dir, err := statefile.Make(filepath.Dir(j.Path))
	if err != nil {
		return fmt.Errorf("journal directory: %w", err)
	}
	defer dir.Close()
	f, err := dir.OpenInPlace(filepath.Base(j.QueuePath()), os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return fmt.Errorf("queue restore outcome: %w", err)
	}
	defer f.Close()
	if err := lockQueue(f, syscall.LOCK_EX); err != nil {
		return fmt.Errorf("queue restore outcome: %w", err)
	}
	if fi, err := f.Stat(); err != nil || fi.Size() > MaxSpool {
		return fmt.Errorf("queue restore outcome: %s is full or unreadable (%v)", j.QueuePath(), err)
	}
	// One write of a whole line: a reader under the lock never sees part
	// of one, and a write cut short leaves a line the readers pass over.
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("queue restore outcome: %w", err)
	}
	return nil
}

// lockQueue takes the queue's lock, waiting at most spoolWait: its holders
// keep it for one read or write of a small file.
func lockQueue(f *os.File, how int) error {
	ctx, cancel := context.WithTimeout(context.Background(), spoolWait)
	defer cancel()
	return statefile.Flock(ctx, f, how)
}

// readQueue reads the queue as it stands: the outcomes waiting and how
// many bytes of it they are. A queue not locked in time is read all the
// same (at worst its last line is cut short, and passed over).
func (j *Journal) readQueue() ([]Restore, int) {
	f, err := userfile.Open(j.QueuePath())
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	_ = lockQueue(f, syscall.LOCK_SH)
	data, err := userfile.ReadOpen(f, 2*MaxSpool)
	if err != nil {
		return nil, 0
	}
	return parseRestores(data), len(data)
}

// parseRestores reads the queue's lines; one that does not parse (a write
// cut short) is passed over.
func parseRestores(data []byte) []Restore {
	var out []Restore
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		var r Restore
		if json.Unmarshal(data[:i], &r) == nil && !r.At.IsZero() {
			out = append(out, r)
		}
		data = data[i+1:]
	}
	return out
}

// dropQueued removes the first n bytes of the queue, which the journal now
// holds; lines appended since stay. Only a writer of the journal, holding
// its lock, drops, so the first n bytes are still those it read.
func (j *Journal) dropQueued(dir *statefile.Dir, n int) {
	if n == 0 {
		return
	}
	f, err := dir.OpenInPlace(filepath.Base(j.QueuePath()), os.O_RDWR)
	if err != nil {
		return
	}
	defer f.Close()
	if lockQueue(f, syscall.LOCK_EX) != nil {
		return // the next fold takes them again, and keeps each once
	}
	data, err := userfile.ReadOpen(f, 2*MaxSpool)
	if err != nil || len(data) < n {
		return
	}
	if f.Truncate(0) == nil && len(data) > n {
		_, _ = f.WriteAt(data[n:], 0)
	}
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
	var out []Restore
	for _, r := range f.Restores { // with the queued ones (Read)
		if !r.At.Before(t) {
			out = append(out, r)
		}
	}
	return out, nil
}
