// Package lease keeps one conversation in one window: the restore prompt
// takes a lease on the conversation it resumes, and the agent it execs
// holds it for exactly as long as it runs.
//
// A lease is one file in the state directory's leases/, N.lock for the
// holder's pid N: flocked through a descriptor made to pass through the one
// exec of the agent (so the lock goes when its last holder exits, crash
// included), and holding, as JSON, who holds it: agent, conversation id,
// kitty, window, and the holder's pid and start. The agent's own children
// inherit the descriptor and may outlive it: a lease whose recorded holder
// is gone, or whose pid now is a process with another start, is free
// whoever still holds the lock. The id lives in the file, not in its
// name, so a hook can move the lease to the conversation the agent is in
// now (/clear) without the agent's descriptor changing. Every write and
// read of the content is made under the registry lock, so none sees part
// of another; nothing is synced: a lease is a held lock, not data to keep,
// and one file created per restored window is all it costs the agent's
// start.
package lease

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// registry is locked while leases are looked up, taken and moved, so two
// prompts asking for one conversation at once cannot both find it free,
// and no reader sees a lease's content half written.
const registry = paths.LeasesRegistryName

// maxHolder bounds a lease file's read: a holder is a few hundred bytes.
const maxHolder = 64 << 10

// ErrBusy: the conversation is open in another window.
var ErrBusy = errors.New("conversation is open in another window")

// Holder says who holds a lease. Field names are stable.
type Holder struct {
	Agent string `json:"agent"`
	ID    string `json:"id"`
	// PID is the process holding the lock: the prompt, then the agent it
	// exec'd (same pid).
	PID int `json:"pid"`
	// Start is the holder's start (procid.Start): the agent keeps the
	// prompt's through exec. "" from an earlier kittymux.
	Start       string    `json:"start,omitempty"`
	KittyPID    int       `json:"kitty_pid,omitempty"`
	KittySocket string    `json:"kitty_socket,omitempty"`
	WindowID    int       `json:"window_id,omitempty"`
	Tab         string    `json:"tab,omitempty"`
	Since       time.Time `json:"since"`
}

// Where says where the holder runs, for people.
func (h Holder) Where() string {
	var parts []string
	switch {
	case h.KittyPID > 0 && h.KittySocket != "":
		parts = append(parts, fmt.Sprintf("kitty %d (%s)", h.KittyPID, h.KittySocket))
	case h.KittyPID > 0:
		parts = append(parts, fmt.Sprintf("kitty %d", h.KittyPID))
	case h.KittySocket != "":
		parts = append(parts, "kitty "+h.KittySocket)
	}
	if h.Tab != "" {
		parts = append(parts, fmt.Sprintf("tab %q", h.Tab))
	}
	if h.WindowID > 0 {
		parts = append(parts, fmt.Sprintf("window %d", h.WindowID))
	}
	parts = append(parts, fmt.Sprintf("process %d", h.PID))
	return strings.Join(parts, ", ")
}

// Lease is a held lease. Its descriptor is close-on-exec until
// HoldAcrossExec, called just before the agent's exec: nothing the prompt
// starts before holds it.
type Lease struct {
	fd   int
	dir  string
	name string
}

// HoldAcrossExec clears the descriptor's close-on-exec: the program this
// process execs next holds the lease.
func (l *Lease) HoldAcrossExec() error {
	if l == nil || l.fd < 0 {
		return nil
	}
	_, err := unix.FcntlInt(uintptr(l.fd), unix.F_SETFD, 0)
	return err
}

// Release gives the lease up (the exec failed, or the answer changed).
func (l *Lease) Release() {
	if l == nil || l.fd < 0 {
		return
	}
	if d, err := open(l.dir, false); err == nil {
		_ = d.Remove(l.name)
		d.Close()
	}
	syscall.Close(l.fd)
	l.fd = -1
}

func open(stateDir string, create bool) (*statefile.Dir, error) {
	var top *statefile.Dir
	var err error
	if create {
		top, err = statefile.Make(stateDir)
	} else {
		top, err = statefile.Open(stateDir)
	}
	if err != nil {
		return nil, err
	}
	defer top.Close()
	if create {
		return top.MakeSub(paths.LeasesName)
	}
	return top.OpenSub(paths.LeasesName)
}

// fileName is the lease file of process pid.
func fileName(pid int) string { return strconv.Itoa(pid) + ".lock" }

// Take takes the lease on h's conversation for this process. When another
// live process holds it, it returns that holder and ErrBusy.
func Take(stateDir string, h Holder) (*Lease, *Holder, error) {
	d, err := open(stateDir, true)
	if err != nil {
		return nil, nil, fmt.Errorf("lease: %w", err)
	}
	defer d.Close()
	unlock, err := lockRegistry(d)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	if h.Start == "" {
		h.Start = procid.Start(h.PID)
	}
	if other := find(d, h.Agent, h.ID, h.PID); other != nil {
		return nil, other, ErrBusy
	}
	name := fileName(h.PID)
	f, err := d.OpenLock(name)
	if err != nil {
		return nil, nil, fmt.Errorf("lease: %w", err)
	}
	locked, err := statefile.TryFlock(f, syscall.LOCK_EX)
	if err == nil && !locked {
		err = fmt.Errorf("lock %s: %w", name, syscall.EWOULDBLOCK)
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("lease: %w", err)
	}
	// A descriptor of its own, sharing the lock, which HoldAcrossExec can
	// pass through exec without the *os.File closing it.
	fd, err := dupCloexec(f)
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("lease: %w", err)
	}
	if err := write(fd, h); err != nil {
		syscall.Close(fd)
		_ = d.Remove(name)
		return nil, nil, fmt.Errorf("lease: write %s: %w", filepath.Join(d.Path(), name), err)
	}
	return &Lease{fd: fd, dir: stateDir, name: name}, nil, nil
}

// write makes h the content of the lease file open at fd, under the
// registry lock. Not synced: the lease is the lock, which a crash of the
// machine ends anyway; the content only says who holds it while the
// machine runs, and an fsync would hold up the agent's start in every
// restored window.
func write(fd int, h Holder) error {
	data, _ := json.Marshal(h)
	data = append(data, '\n')
	if err := syscall.Ftruncate(fd, 0); err != nil {
		return err
	}
	n, err := syscall.Pwrite(fd, data, 0)
	if err == nil && n < len(data) {
		err = fmt.Errorf("short write (%d of %d bytes)", n, len(data))
	}
	return err
}

// Find returns the live holder of agent's conversation id, or nil.
func Find(stateDir, agent, id string) *Holder {
	d, err := open(stateDir, false)
	if err != nil {
		return nil
	}
	defer d.Close()
	unlock, err := lockRegistry(d)
	if err != nil {
		return nil
	}
	defer unlock()
	return find(d, agent, id, 0)
}

// find returns the live holder of agent's id other than process self,
// removing every lease whose holder is gone on the way.
func find(d *statefile.Dir, agent, id string, self int) *Holder {
	var found *Holder
	each(d, func(h Holder, _ *os.File) bool {
		if h.PID != self && h.Agent == agent && h.ID == id {
			found = &h
			return false
		}
		return true
	})
	return found
}

// each calls fn with every live lease (its holder and its file, open for
// writing) until fn returns false, under the registry lock, and removes
// those whose holder is gone: the lock is free.
func each(d *statefile.Dir, fn func(Holder, *os.File) bool) {
	ents, err := d.ReadDir()
	if err != nil {
		return
	}
	for _, e := range ents {
		base, ok := strings.CutSuffix(e.Name(), ".lock")
		pid, err := strconv.Atoi(base)
		if !ok || err != nil || !e.Type().IsRegular() {
			continue
		}
		h, f, live := holder(d, e.Name(), pid)
		if !live {
			_ = d.Remove(e.Name())
			_ = d.Remove(base + ".json") // where an earlier kittymux wrote the holder
			continue
		}
		more := f == nil || fn(h, f)
		if f != nil {
			f.Close()
		}
		if !more {
			return
		}
	}
}

// holder opens lease file name and reads who holds it, when a live process
// does: its lock cannot be taken from a new descriptor. A held lease whose
// content does not say it is pid's comes back without its file.
func holder(d *statefile.Dir, name string, pid int) (Holder, *os.File, bool) {
	f, err := d.OpenInPlace(name, os.O_RDWR)
	if err != nil {
		return Holder{}, nil, true // not ours to judge: leave it
	}
	if free, _ := statefile.TryFlock(f, syscall.LOCK_EX); free {
		f.Close()
		return Holder{}, nil, false
	}
	var h Holder
	data, err := userfile.ReadOpen(f, maxHolder)
	if err == nil && len(data) == 0 {
		// Held by an agent an earlier kittymux started, which wrote who
		// holds it beside the lock.
		data, err = d.ReadFile(strconv.Itoa(pid) + ".json")
	}
	if err != nil || json.Unmarshal(data, &h) != nil || h.PID != pid {
		f.Close()
		return Holder{}, nil, true
	}
	if !h.running() {
		// The lock is held by what the holder left behind (a child that
		// inherited it): the holder itself is gone.
		f.Close()
		return Holder{}, nil, false
	}
	return h, f, true
}

// running reports whether the holder still runs: its pid is a process with
// its start; with no start recorded, its pid is a process at all.
func (h Holder) running() bool {
	if h.Start != "" {
		return procid.ID{PID: h.PID, Start: h.Start}.Is()
	}
	err := syscall.Kill(h.PID, 0)
	return h.PID > 0 && (err == nil || errors.Is(err, syscall.EPERM))
}

// Move points the lease held by one of pids (an agent and its parents, as
// a hook sees them) at conversation id: the agent now runs another
// conversation (/clear, /resume), and its lease goes with it. No lease
// held by them is not an error: the agent was not started by the prompt.
func Move(stateDir string, pids []int, agent, id string) error {
	d, err := open(stateDir, false)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("lease: %w", err)
	}
	defer d.Close()
	unlock, err := lockRegistry(d)
	if err != nil {
		return err
	}
	defer unlock()
	var moved error
	each(d, func(h Holder, f *os.File) bool {
		if h.Agent != agent || !slices.Contains(pids, h.PID) || h.ID == id {
			return true
		}
		h.ID = id
		sc, err := f.SyscallConn()
		if err == nil {
			err = sc.Control(func(fd uintptr) { moved = write(int(fd), h) })
		}
		moved = cmp.Or(err, moved)
		return false
	})
	if moved != nil {
		return fmt.Errorf("lease: move: %w", moved)
	}
	return nil
}

func lockRegistry(d *statefile.Dir) (func(), error) {
	f, err := d.OpenLock(registry)
	if err != nil {
		return nil, fmt.Errorf("lease: %w", err)
	}
	// Held only while a few small files are read: a wait of more than a
	// second is a stuck holder.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := statefile.Flock(ctx, f, syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lease: %w", err)
	}
	// Closing the file drops the lock.
	return func() { f.Close() }, nil
}

func dupCloexec(f *os.File) (int, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var derr error
	if err := sc.Control(func(raw uintptr) { fd, derr = unix.FcntlInt(raw, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, derr
	}
	return fd, nil
}
