package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// An agent waits for its hook, so a hook waits for the journal's lock only
// briefly. An event whose hook could not get the lock in that time is
// appended to the spool, agent-sessions.json.spool, a line of JSON per
// event, under a lock on the spool itself held for the one write. The next
// writer of the journal, whoever it is (another hook, the scanner, a
// command), applies the spool's events in the order they came before its
// own change, and empties the spool once the journal holding them is
// written; until then a Read applies them too. So concurrent events are
// queued, never lost, and the agent never waits on another writer's work.
//
// The spool is changed in place, never replaced, so its lock guards the
// file every writer opens. Lock order: the journal's lock, then the
// spool's; a hook appending holds only the spool's.

// MaxSpool caps the spool: past it, events are refused (and the hook logs
// it) rather than let a journal nobody can write fill the disk.
const MaxSpool = 1 << 20

// spoolWait bounds a wait for the spool's lock, which its holders keep for
// a write, or for a journal write when they empty it.
const spoolWait = time.Second

// SpoolPath is where hook events wait for the journal.
func (j *Journal) SpoolPath() string { return j.Path + ".spool" }

// ErrSpoolFull: the spool is over MaxSpool.
var ErrSpoolFull = errors.New("the journal's spool of hook events is full")

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
	dir, err := statefile.Make(filepath.Dir(j.Path))
	if err != nil {
		return fmt.Errorf("journal directory: %w", err)
	}
	defer dir.Close()
	f, err := dir.OpenInPlace(filepath.Base(j.SpoolPath()), os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return fmt.Errorf("queue hook event: %w", err)
	}
	defer f.Close()
	if err := statefile.Flock(ctx, f, syscall.LOCK_EX); err != nil {
		return fmt.Errorf("queue hook event: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("queue hook event: %w", err)
	}
	if fi.Size() > MaxSpool {
		return fmt.Errorf("queue hook event: %w (%s)", ErrSpoolFull, j.SpoolPath())
	}
	// One write of a whole line: a reader under the lock never sees part
	// of one, and a write cut short (a full disk) leaves a line the
	// appliers pass over.
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("queue hook event: %w", err)
	}
	return nil
}

// spoolTake is the spool as a writer of the journal took it: locked, its
// events read. Its methods do nothing on nil (no spool, or not taken).
type spoolTake struct {
	f    *os.File
	data []byte
}

// takeSpool locks and reads the spool for a writer holding the journal's
// lock. A spool that cannot be had in spoolWait is left for the next
// writer.
func (j *Journal) takeSpool(dir *statefile.Dir) *spoolTake {
	f, err := dir.OpenInPlace(filepath.Base(j.SpoolPath()), os.O_RDWR)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), spoolWait)
	defer cancel()
	if statefile.Flock(ctx, f, syscall.LOCK_EX) != nil {
		f.Close()
		return nil
	}
	data, err := userfile.ReadOpen(f, 2*MaxSpool)
	if errors.Is(err, userfile.ErrTooLarge) {
		// Not the spool's writers' doing: emptied without being read.
		data, err = nil, nil
	}
	if err != nil {
		f.Close()
		return nil
	}
	return &spoolTake{f: f, data: data}
}

// events are the spool's lines.
func (s *spoolTake) events() []byte {
	if s == nil {
		return nil
	}
	return s.data
}

// done empties the spool: its events are in the journal.
func (s *spoolTake) done() {
	if s != nil && len(s.data) > 0 {
		_ = s.f.Truncate(0)
		s.data = nil
	}
}

func (s *spoolTake) close() {
	if s != nil {
		s.f.Close()
	}
}

// withSpool calls fn with the spool's events, holding the spool's lock
// shared so that no writer empties it into the journal between fn's read
// of the journal and of the spool. An empty spool costs a failed open or a
// stat.
func (j *Journal) withSpool(fn func(spool []byte) error) error {
	f, err := userfile.Open(j.SpoolPath())
	if err != nil {
		return fn(nil)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() == 0 {
		return fn(nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), spoolWait)
	defer cancel()
	// Not locked in time: read all the same; at worst events the journal
	// just took are applied twice to this copy.
	_ = statefile.Flock(ctx, f, syscall.LOCK_SH)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fn(nil)
	}
	data, err := userfile.ReadOpen(f, 2*MaxSpool)
	if err != nil {
		data = nil
	}
	return fn(data)
}

// spoolWaiting reports events in the spool.
func (j *Journal) spoolWaiting() bool {
	fi, err := os.Stat(j.SpoolPath())
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// applySpool applies the spool's events in order. A line that does not
// parse (a write cut short) is passed over.
func applySpool(f *File, data []byte) {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return
		}
		var h HookRun
		if json.Unmarshal(data[:i], &h) == nil && h.Agent != "" && h.WindowID > 0 {
			f.RecordHook(h)
		}
		data = data[i+1:]
	}
}
