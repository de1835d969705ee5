package journal

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/statefile"
)

// Writers take the journal's lock in turn, first come first served. flock
// alone wakes its waiters in no order, so a writer could lose the lock round
// after round while others took it. A writer first takes a ticket from the
// counter in the file beside the journal (its path + ".turn"; the next
// ticket, a little-endian uint64, changed under that file's flock), and with
// it a lock on a byte of the same file that is its own (open file
// description locks: per open, like flock, released when the writer closes
// the file or dies). It then waits for its predecessor's byte, which the
// kernel hands over as soon as the predecessor is done, and only then asks
// for the journal's lock. The lock stays the flock: a turn only orders the
// asking, so a writer out of turn (an older kittymux, a writer that could
// not take its byte) costs fairness, never safety.
const (
	turnSlots = 1024
	turnBase  = 1 << 20 // the bytes locked start here, past the counter
	// Open file description locks (fcntl.h); not in package syscall.
	fOFDSetLK  = 37
	fOFDSetLKW = 38
)

type turn struct {
	f *os.File
}

// takeTurn takes a ticket and waits for the writer before it to be done, or
// ctx to end. nil: no turn (the queue could not be used); the writer takes
// the lock as before.
func (j *Journal) takeTurn(ctx context.Context, dir *statefile.Dir) *turn {
	if j.unordered {
		return nil
	}
	f, err := dir.OpenLock(filepath.Base(j.Path) + ".turn")
	if err != nil {
		return nil
	}
	ticket, ok := takeTicket(ctx, f)
	if !ok {
		f.Close()
		return nil
	}
	if ticket > 0 {
		// The predecessor locked its byte before this ticket was taken.
		prev := slot(ticket - 1)
		if waitSlot(ctx, f, prev) == nil {
			_ = ofdLock(f, fOFDSetLK, syscall.F_UNLCK, prev)
		}
	}
	return &turn{f: f}
}

// takeTicket takes the next ticket and locks its byte, under the counter's
// flock.
func takeTicket(ctx context.Context, f *os.File) (uint64, bool) {
	if err := statefile.Flock(ctx, f, syscall.LOCK_EX); err != nil {
		return 0, false
	}
	defer statefile.Flock(context.Background(), f, syscall.LOCK_UN)
	var b [8]byte
	var next uint64
	if n, _ := f.ReadAt(b[:], 0); n == len(b) {
		next = binary.LittleEndian.Uint64(b[:])
	}
	// A byte still held by the writer turnSlots tickets back (a queue that
	// long): no turn.
	if ofdLock(f, fOFDSetLK, syscall.F_WRLCK, slot(next)) != nil {
		return 0, false
	}
	binary.LittleEndian.PutUint64(b[:], next+1)
	if _, err := f.WriteAt(b[:], 0); err != nil {
		return 0, false
	}
	return next, true
}

func slot(ticket uint64) int64 { return turnBase + int64(ticket%turnSlots) }

// waitSlot waits for the byte at off to be free: in the kernel when ctx
// never ends, else asking again at growing intervals (as statefile.Flock).
func waitSlot(ctx context.Context, f *os.File, off int64) error {
	if ctx.Done() == nil {
		return ofdLock(f, fOFDSetLKW, syscall.F_RDLCK, off)
	}
	delay := 500 * time.Microsecond
	for {
		err := ofdLock(f, fOFDSetLK, syscall.F_RDLCK, off)
		if !errors.Is(err, syscall.EAGAIN) && !errors.Is(err, syscall.EACCES) {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 8*time.Millisecond)
	}
}

func ofdLock(f *os.File, cmd int, typ int16, off int64) error {
	sc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	lk := syscall.Flock_t{Type: typ, Whence: 0, Start: off, Len: 1}
	var lerr error
	if cerr := sc.Control(func(fd uintptr) {
		for {
			lerr = syscall.FcntlFlock(fd, cmd, &lk)
			if !errors.Is(lerr, syscall.EINTR) {
				return
			}
		}
	}); cerr != nil {
		return cerr
	}
	return lerr
}

// done ends the turn: closing the file frees the writer's byte, and the
// next writer goes.
func (t *turn) done() {
	if t != nil {
		t.f.Close()
	}
}
