package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/kittymux/kittymux/pkg/spool"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// The journal's queues (pkg/spool). An agent waits for its hook, so a hook
// waits for the journal's lock only briefly: an event whose hook could not
// get it in that time is appended to the spool (SpoolPath). The next
// writer of the journal, whoever it is (another hook, the scanner, a
// command), applies the spool's events in the order they came before its
// own change, and empties the spool once the journal holding them is
// written; until then a Read applies them too. So concurrent events are
// queued, never lost, and the agent never waits on another writer's work.
// The restore prompts' outcomes wait the same way in their queue
// (QueuePath, QueueRestore).

// SpoolPath is where hook events wait for the journal.
func (j *Journal) SpoolPath() string { return j.Path + ".spool" }

// QueuePath is where the restore prompts' outcomes wait for the journal.
func (j *Journal) QueuePath() string { return j.Path + ".restores" }

func (j *Journal) hookSpool() spool.Spool {
	return spool.Spool{Path: j.SpoolPath(), What: "hook event"}
}

func (j *Journal) restoreQueue() spool.Spool {
	return spool.Spool{Path: j.QueuePath(), What: "restore outcome"}
}

// AddHook records what a hook reported: into the journal when its lock
// comes within wait, else queued in the spool for the next writer. It
// returns the key of the record the event went to (only known when it was
// written) and whether it was queued.
func (j *Journal) AddHook(ctx context.Context, wait time.Duration, h HookRun) (key string, queued bool, err error) {
	out, err := j.AddHookRun(ctx, wait, h)
	return out.Key, out.Queued, err
}

// spool appends h to the spool. The lock is tried once even when ctx has
// ended: the write is what keeps the event.
func (j *Journal) spool(ctx context.Context, h HookRun) error {
	line, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("queue hook event: %w", err)
	}
	return j.hookSpool().Append(ctx, line)
}

// applySpool applies the spool's events in order. A line that does not
// parse (a write cut short) is passed over.
func applySpool(f *File, data []byte) {
	spool.Each(data, func(line []byte) {
		var h HookRun
		if json.Unmarshal(line, &h) == nil && h.Agent != "" && h.WindowID > 0 {
			f.RecordHook(h)
		}
	})
}

// readQueue reads the restore prompts' queue as it stands: the outcomes
// waiting and how many bytes of it they are.
func (j *Journal) readQueue() ([]Restore, int) {
	var out []Restore
	n := 0
	_ = j.restoreQueue().With(func(data []byte) error {
		n = len(data)
		spool.Each(data, func(line []byte) {
			var r Restore
			if json.Unmarshal(line, &r) == nil && !r.At.IsZero() {
				out = append(out, r)
			}
		})
		return nil
	})
	return out, n
}

// dropQueued removes the first n bytes of the queue, which the journal now
// holds; lines appended since stay. Only a writer of the journal, holding
// its lock, drops, so the first n bytes are still those it read.
func (j *Journal) dropQueued(dir *statefile.Dir, n int) {
	if n == 0 {
		return
	}
	t := j.restoreQueue().Take(dir)
	defer t.Close()
	t.Drop(n)
}
