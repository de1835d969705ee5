package published

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// A save in use is one a running `sessions restore` or an open offer reads
// and reports on. Each holds a shared flock on the save's lock file,
// sessions/.NAME.lock, for as long as it runs; the lock goes with its
// process, however that ends. Removing or renaming a save takes the
// exclusive lock without waiting: a save in use is refused, never removed
// from under its restore.

// ErrInUse: a running restore or an open offer uses the save.
var ErrInUse = errors.New("in use by a running `kittymux sessions restore` or an open offer")

func lockName(name string) string { return "." + name + ".lock" }

// Use marks the save name as in use until release is called (or the
// process ends). A save that cannot be marked (no state directory yet) is
// used unmarked.
func Use(p paths.Paths, name string) (release func()) {
	f, err := openLock(p, name)
	if err != nil {
		return func() {}
	}
	if err := statefile.Flock(context.Background(), f, syscall.LOCK_SH); err != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}

func openLock(p paths.Paths, name string) (*os.File, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	top, err := statefile.Open(p.StateDir)
	if err != nil {
		return nil, err
	}
	defer top.Close()
	d, err := top.OpenSub(filepath.Base(p.SessionsDir()))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenLock(lockName(name))
}

// claim takes the save name for removing or renaming it: ErrInUse when a
// restore or an offer uses it. release drops the lock and its file.
func claim(d *statefile.Dir, name string) (release func(), err error) {
	f, err := d.OpenLock(lockName(name))
	if err != nil {
		return nil, err
	}
	if locked, err := statefile.TryFlock(f, syscall.LOCK_EX); !locked {
		f.Close()
		if err == nil {
			return nil, fmt.Errorf("session %q is %w", name, ErrInUse)
		}
		return nil, err
	}
	return func() { _ = d.Remove(lockName(name)); f.Close() }, nil
}

// Delete removes the saved session name, refusing one in use (ErrInUse)
// and a name that is not saved (ErrNotFound).
func Delete(p paths.Paths, name string) error {
	return withSessions(p, name, func(d *statefile.Dir) error {
		release, err := claim(d, name)
		if err != nil {
			return err
		}
		defer release()
		if err := d.Remove(name + Ext); err != nil {
			return err
		}
		return RemoveHistory(p, name, nil)
	})
}

// Rename gives the saved session from the name to, refusing one in use,
// a name that is not saved, and a to that is saved already (it is never
// replaced). Its screen history goes with it: the directory is renamed and
// the save points at it under its new name. A failure leaves the old name
// whole; one after the history has moved leaves the new name whole.
func Rename(p paths.Paths, from, to string) error {
	if err := CheckName(to); err != nil {
		return err
	}
	return withSessions(p, from, func(d *statefile.Dir) error {
		release, err := claim(d, from)
		if err != nil {
			return err
		}
		defer release()
		f, err := d.OpenRead(from + Ext)
		if err != nil {
			return err
		}
		fi, err := f.Stat()
		var data []byte
		if err == nil {
			data, err = userfile.ReadOpen(f, MaxRawSize)
		}
		f.Close()
		if err == nil {
			data, err = moveHistory(data, HistoryDir(p, from), HistoryDir(p, to))
		}
		if err != nil {
			return fmt.Errorf("rename %s: %w", from, err)
		}
		if err := d.CreateOnce(to+Ext, data); err != nil {
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("a session named %q is saved already: remove or rename it first", to)
			}
			return err
		}
		// Saved when it was saved, whatever its name.
		err = d.SetModTime(to+Ext, fi.ModTime())
		if err == nil {
			if err = d.Rename(from+HistorySuffix, to+HistorySuffix); errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
		if err != nil {
			return errors.Join(err, d.Remove(to+Ext))
		}
		return d.Remove(from + Ext)
	})
}

// withSessions runs do in the sessions directory once name is known to be
// a saved session.
func withSessions(p paths.Paths, name string, do func(*statefile.Dir) error) error {
	if err := CheckName(name); err != nil {
		return err
	}
	if _, err := Resolve(p, name); err != nil {
		return err
	}
	top, err := statefile.Open(p.StateDir)
	if err != nil {
		return err
	}
	defer top.Close()
	d, err := top.OpenSub(filepath.Base(p.SessionsDir()))
	if err != nil {
		return err
	}
	defer d.Close()
	return do(d)
}
