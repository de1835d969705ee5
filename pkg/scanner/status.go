package scanner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/google/renameio/v2"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Files of the running scanner, in the state directory.
func LockPath(stateDir string) string   { return filepath.Join(stateDir, paths.ScannerLockName) }
func StatusPath(stateDir string) string { return filepath.Join(stateDir, paths.ScannerStatusName) }

// ErrRunning: another scanner of this user holds the lock.
var ErrRunning = errors.New("a scanner is already running")

// Held is the one-scanner-per-user lock, held until Unlock (or until the
// process ends, however it ends).
type Held struct{ f *os.File }

// Unlock releases the lock.
func (h *Held) Unlock() error { return h.f.Close() }

// Lock takes the one-scanner-per-user lock. It waits a moment, because
// Current takes the lock for an instant to see whether it is free.
//
// The lock file is opened by the state directory's rules (statefile: no
// link, nothing but a regular file, never blocking on a FIFO) and the
// descriptor so opened is the one locked. A library that takes a path and
// opens it itself (gofrs/flock) would block in open(2) on a FIFO put
// there, and checking the path before handing it over leaves a moment in
// which the FIFO can be put in.
func Lock(ctx context.Context, stateDir string) (*Held, error) {
	f, err := openLock(stateDir, true)
	if err != nil {
		return nil, fmt.Errorf("scanner lock: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	err = statefile.Flock(ctx, f, syscall.LOCK_EX)
	if err == nil {
		return &Held{f: f}, nil
	}
	f.Close()
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, ErrRunning
	}
	return nil, fmt.Errorf("scanner lock %s: %w", LockPath(stateDir), err)
}

// openLock opens the lock file in stateDir: made (with the directory) when
// create is set, else an error wrapping fs.ErrNotExist when either is
// missing, so that a command that only reads writes nothing.
func openLock(stateDir string, create bool) (*os.File, error) {
	open, flag := statefile.Open, os.O_RDONLY
	if create {
		open, flag = statefile.Make, os.O_RDWR|os.O_CREATE
	}
	d, err := open(stateDir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenInPlace(paths.ScannerLockName, flag)
}

// Status is what a running scanner says about itself. Field names are
// stable: `scanner status --json` and doctor print them.
type Status struct {
	PID          int           `json:"pid"`
	Started      time.Time     `json:"started"`
	Updated      time.Time     `json:"updated"`
	Stopped      *time.Time    `json:"stopped,omitempty"`
	Kitties      []KittyStatus `json:"kitties"`
	OpenSessions int           `json:"open_sessions"`
	Journal      string        `json:"journal"`
	JournalOff   bool          `json:"journal_off"`
	JournalError string        `json:"journal_error,omitempty"`
	// Autosave says whether autosave is on and with which settings, or why
	// it is off; each kitty's line is in Kitties.
	Autosave string `json:"autosave,omitempty"`
}

// WriteStatus replaces the status file atomically, 0600.
func WriteStatus(stateDir string, s Status) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := renameio.WriteFile(StatusPath(stateDir), append(data, '\n'), 0o600, renameio.WithStaticPermissions(0o600)); err != nil {
		return fmt.Errorf("write scanner status: %w", err)
	}
	return nil
}

// State is whether a scanner runs and what it last said.
type State struct {
	Running bool `json:"running"`
	// Status is the last status file, of the running scanner or of the
	// last one that ran; nil when none ever ran.
	Status *Status `json:"status,omitempty"`
	// Problem: the status cannot be read.
	Problem string `json:"problem,omitempty"`
}

// Current reports the scanner from its lock (held while it runs, released
// by the kernel however it ends) and its status file.
func Current(stateDir string) State {
	var st State
	st.Running, st.Problem = running(stateDir)
	data, err := userfile.Read(StatusPath(stateDir), 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		st.Problem = join(st.Problem, err.Error())
	default:
		var s Status
		if err := json.Unmarshal(data, &s); err != nil {
			st.Problem = join(st.Problem, fmt.Sprintf("status file %s: %v", StatusPath(stateDir), err))
		} else {
			st.Status = &s
		}
	}
	return st
}

// running reports whether a scanner holds the lock: the lock is taken for
// an instant if it is free. A lock file that cannot be opened (a FIFO, a
// link) is the problem reported, and says nothing of a scanner.
func running(stateDir string) (bool, string) {
	f, err := openLock(stateDir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return false, ""
	}
	if err != nil {
		return false, fmt.Sprintf("scanner lock: %v", err)
	}
	defer f.Close()
	free, err := statefile.TryFlock(f, syscall.LOCK_EX)
	if err != nil {
		return false, fmt.Sprintf("scanner lock: %v", err)
	}
	return !free, ""
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// Describe is the one-line account of the scanner that status and doctor
// print.
func (st State) Describe() string {
	var b strings.Builder
	switch {
	case st.Running && st.Status != nil:
		fmt.Fprintf(&b, "running, pid %d, since %s; %d kitties, %d agent sessions open; last poll %s",
			st.Status.PID, st.Status.Started.Local().Format(time.DateTime), len(st.Status.Kitties),
			st.Status.OpenSessions, st.Status.Updated.Local().Format(time.TimeOnly))
		if st.Status.JournalOff {
			b.WriteString("; journal off")
		}
		if st.Status.JournalError != "" {
			b.WriteString("; journal: " + st.Status.JournalError)
		}
		if st.Status.Autosave != "" {
			b.WriteString("; autosave " + st.Status.Autosave)
		}
	case st.Running:
		b.WriteString("running (no status written yet)")
	case st.Status != nil && st.Status.Stopped != nil:
		fmt.Fprintf(&b, "not running (last stopped %s); start it with `kittymux scanner run`", st.Status.Stopped.Local().Format(time.DateTime))
	case st.Status != nil:
		fmt.Fprintf(&b, "not running (pid %d ended without stopping cleanly); start it with `kittymux scanner run`", st.Status.PID)
	default:
		b.WriteString("not running; start it with `kittymux scanner run`")
	}
	if st.Problem != "" {
		b.WriteString("; " + st.Problem)
	}
	return b.String()
}
