// Package spool keeps the journal's queues: files of JSON lines that wait
// for the journal, appended by those that cannot wait for its lock (a hook,
// agent-sessions.json.spool; the restore prompt, agent-sessions.json.restores)
// and taken in by its next writer. Each is changed in place, never
// replaced, so its own lock guards the file every writer opens; it is held
// for one write, or one read, or by a writer of the journal while it takes
// the lines in. Lock order: the journal's lock, then a queue's; one
// appending holds only the queue's.
package spool

import (
	"bytes"
	"context"
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

// Max caps a queue: past it, lines are refused rather than let a journal
// nobody can write fill the disk.
const Max = 1 << 20

// Wait bounds a wait for a queue's lock, which its holders keep for a
// write, a read, or a journal write when they take its lines in.
const Wait = time.Second

// ErrFull: the queue is over Max.
var ErrFull = errors.New("the queue is full")

// Spool is one queue file.
type Spool struct {
	Path string
	// What names a line in errors: "hook event".
	What string
}

// Append appends line (one JSON value, no newline) under the queue's lock,
// waiting for it until ctx ends (it is tried once even when ctx has ended:
// the write is what keeps the line). The queue's directory is made as the
// journal's; no fsync.
func (s Spool) Append(ctx context.Context, line []byte) error {
	dir, err := statefile.Make(filepath.Dir(s.Path))
	if err != nil {
		return fmt.Errorf("journal directory: %w", err)
	}
	defer dir.Close()
	f, err := dir.OpenInPlace(filepath.Base(s.Path), os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return fmt.Errorf("queue %s: %w", s.What, err)
	}
	defer f.Close()
	if err := statefile.Flock(ctx, f, syscall.LOCK_EX); err != nil {
		return fmt.Errorf("queue %s: %w", s.What, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("queue %s: %w", s.What, err)
	}
	if fi.Size() > Max {
		return fmt.Errorf("queue %s: %w (%s)", s.What, ErrFull, s.Path)
	}
	// One write of a whole line: a reader under the lock never sees part
	// of one, and a write cut short (a full disk) leaves a line the
	// readers pass over.
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("queue %s: %w", s.What, err)
	}
	return nil
}

// With calls fn with the queue's lines, holding its lock shared so that
// no writer of the journal takes them in between fn's reads of the journal
// and of the queue. A queue not locked in Wait is read all the same (at
// worst lines the journal just took are read again, and a last line cut
// short is passed over). An empty queue costs a failed open or a stat.
func (s Spool) With(fn func(lines []byte) error) error {
	f, err := userfile.Open(s.Path)
	if err != nil {
		return fn(nil)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() == 0 {
		return fn(nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	_ = statefile.Flock(ctx, f, syscall.LOCK_SH)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fn(nil)
	}
	data, err := userfile.ReadOpen(f, 2*Max)
	if err != nil {
		data = nil
	}
	return fn(data)
}

// Waiting reports lines in the queue.
func (s Spool) Waiting() bool {
	fi, err := os.Stat(s.Path)
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// Taken is a queue as a writer of the journal took it: locked, its lines
// read. Its methods do nothing on nil (no queue, or not taken).
type Taken struct {
	f    *os.File
	data []byte
}

// Take locks and reads the queue (in dir, the journal's directory) for a
// writer holding the journal's lock. A queue that cannot be had in Wait is
// left for the next writer.
func (s Spool) Take(dir *statefile.Dir) *Taken {
	f, err := dir.OpenInPlace(filepath.Base(s.Path), os.O_RDWR)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	if statefile.Flock(ctx, f, syscall.LOCK_EX) != nil {
		f.Close()
		return nil
	}
	data, err := userfile.ReadOpen(f, 2*Max)
	if errors.Is(err, userfile.ErrTooLarge) {
		// Not the queue's writers' doing: emptied without being read.
		data, err = nil, nil
	}
	if err != nil {
		f.Close()
		return nil
	}
	return &Taken{f: f, data: data}
}

// Lines are the queue's lines as taken.
func (t *Taken) Lines() []byte {
	if t == nil {
		return nil
	}
	return t.data
}

// Drop removes the first n bytes of the queue as taken, which the journal
// now holds; all of them when n is len(Lines()).
func (t *Taken) Drop(n int) {
	if t == nil || n == 0 || len(t.data) < n {
		return
	}
	if t.f.Truncate(0) == nil && len(t.data) > n {
		_, _ = t.f.WriteAt(t.data[n:], 0)
	}
	t.data = t.data[n:]
}

// Close drops the queue's lock.
func (t *Taken) Close() {
	if t != nil {
		t.f.Close()
	}
}

// Each calls fn with each whole line of data, in order, without its
// newline; a last line without one (a write cut short) is passed over.
func Each(data []byte, fn func(line []byte)) {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return
		}
		fn(data[:i])
		data = data[i+1:]
	}
}
