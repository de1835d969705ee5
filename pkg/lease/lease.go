// Package lease keeps one conversation in one window: the restore prompt
// takes a lease on the conversation it resumes, and the agent it execs
// holds it for exactly as long as it runs.
//
// A lease is a pair of files in the state directory's leases/: N.lock,
// flocked through a descriptor without close-on-exec (so the lock passes
// through exec into the agent and goes when its last holder exits, crash
// included), and N.json, who holds it: agent, conversation id, kitty,
// window. The id lives in the .json, not in the file's name, so a hook can
// move the lease to the conversation the agent is in now (/clear) without
// the agent's descriptor changing. The .json is replaced atomically but never
// synced: a lease is a held lock, not data to keep.
package lease

import (
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

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// registry is locked while leases are looked up and taken, so two prompts
// asking for one conversation at once cannot both find it free.
const registry = paths.LeasesRegistryName

// ErrBusy: the conversation is open in another window.
var ErrBusy = errors.New("conversation is open in another window")

// Holder says who holds a lease. Field names are stable.
type Holder struct {
	Agent string `json:"agent"`
	ID    string `json:"id"`
	// PID is the process holding the lock: the prompt, then the agent it
	// exec'd (same pid).
	PID         int       `json:"pid"`
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

// Lease is a held lease. Its descriptor has no close-on-exec: exec the
// agent and the agent holds it.
type Lease struct {
	fd   int
	dir  string
	name string
}

// Release gives the lease up (the exec failed, or the answer changed).
func (l *Lease) Release() {
	if l == nil || l.fd < 0 {
		return
	}
	if d, err := open(l.dir, false); err == nil {
		_ = d.Remove(l.name + ".json")
		_ = d.Remove(l.name + ".lock")
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
	if other := find(d, h.Agent, h.ID, h.PID); other != nil {
		return nil, other, ErrBusy
	}
	d.RemoveStale() // lease files are written unsynced, which leaves this to us
	name := strconv.Itoa(h.PID)
	f, err := d.OpenLock(name + ".lock")
	if err != nil {
		return nil, nil, fmt.Errorf("lease: %w", err)
	}
	// dup gives a descriptor without close-on-exec (Go opens every file
	// with it): that one carries the lock through exec.
	fd, err := dupNoCloexec(f)
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("lease: %w", err)
	}
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		syscall.Close(fd)
		return nil, nil, fmt.Errorf("lease: lock %s: %w", name, err)
	}
	// Not synced: the lease is the lock, which a crash of the machine ends
	// anyway; this file only says who holds it while the machine runs, and
	// an fsync here would hold up the agent's start in every restored window.
	data, _ := json.Marshal(h)
	if err := d.WriteFileUnsynced(name+".json", append(data, '\n')); err != nil {
		syscall.Close(fd)
		return nil, nil, fmt.Errorf("lease: %w", err)
	}
	return &Lease{fd: fd, dir: stateDir, name: name}, nil, nil
}

// Find returns the live holder of agent's conversation id, or nil.
func Find(stateDir, agent, id string) *Holder {
	d, err := open(stateDir, false)
	if err != nil {
		return nil
	}
	defer d.Close()
	return find(d, agent, id, 0)
}

// find returns the live holder of agent's id other than process self,
// removing every lease whose holder is gone on the way.
func find(d *statefile.Dir, agent, id string, self int) *Holder {
	var found *Holder
	for _, h := range holders(d) {
		if h.PID == self {
			continue
		}
		if !held(d, strconv.Itoa(h.PID)) {
			_ = d.Remove(strconv.Itoa(h.PID) + ".json")
			_ = d.Remove(strconv.Itoa(h.PID) + ".lock")
			continue
		}
		if found == nil && h.Agent == agent && h.ID == id {
			found = &h
		}
	}
	return found
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
	for _, h := range holders(d) {
		if h.Agent != agent || !slices.Contains(pids, h.PID) || h.ID == id {
			continue
		}
		h.ID = id
		data, _ := json.Marshal(h)
		return d.WriteFileUnsynced(strconv.Itoa(h.PID)+".json", append(data, '\n'))
	}
	return nil
}

func holders(d *statefile.Dir) []Holder {
	ents, err := d.ReadDir()
	if err != nil {
		return nil
	}
	var out []Holder
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if _, err := strconv.Atoi(name); err != nil {
			continue
		}
		data, err := d.ReadFile(e.Name())
		if err != nil {
			continue
		}
		var h Holder
		if json.Unmarshal(data, &h) != nil || strconv.Itoa(h.PID) != name {
			continue
		}
		out = append(out, h)
	}
	return out
}

// held reports whether a live process holds lease name's lock: the lock
// cannot be taken from a new descriptor.
func held(d *statefile.Dir, name string) bool {
	f, err := d.OpenLock(name + ".lock")
	if err != nil {
		return false
	}
	defer f.Close()
	sc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	busy := false
	_ = sc.Control(func(fd uintptr) {
		busy = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB) != nil
	})
	return busy
}

func lockRegistry(d *statefile.Dir) (func(), error) {
	f, err := d.OpenLock(registry)
	if err != nil {
		return nil, fmt.Errorf("lease: %w", err)
	}
	sc, err := f.SyscallConn()
	if err == nil {
		cerr := sc.Control(func(fd uintptr) { err = flockWait(int(fd)) })
		if err == nil {
			err = cerr
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lease: lock %s: %w", filepath.Join(d.Path(), registry), err)
	}
	// Closing the file drops the lock.
	return func() { f.Close() }, nil
}

// flockWait waits for the registry lock, up to a second: it is held only
// while a few small files are read, so a longer wait means a stuck holder.
func flockWait(fd int) error {
	deadline := time.Now().Add(time.Second)
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func dupNoCloexec(f *os.File) (int, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var derr error
	if err := sc.Control(func(raw uintptr) { fd, derr = syscall.Dup(int(raw)) }); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, derr
	}
	return fd, nil
}
