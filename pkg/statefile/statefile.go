// Package statefile keeps the files kittymux writes in its state directory.
//
// The state directory and every directory under it are opened without
// following symbolic links: a link there is refused, so nothing outside is
// ever written or chmod'ed. Directories end 0700 and files 0600, whatever
// the umask and whatever was there before. A file is replaced atomically: a
// temp file in the same directory, synced, renamed over the old one, then
// the directory synced; a temp file left by a killed writer is removed by the
// next write in its directory. A writer that holds a lock around a
// replacement (the journal's) makes the temp file before it (Prepare) and
// syncs the directory after it: under the lock the write, the file's sync
// and the rename.
package statefile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/renameio/v2"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/userfile"
)

const (
	dirPerm  = 0o700
	filePerm = 0o600
)

// ErrSymlink: a directory of the state is a symbolic link.
var ErrSymlink = errors.New("is a symbolic link; kittymux does not follow links in its state directory")

// ErrNotDir: a directory of the state is something else.
var ErrNotDir = errors.New("is not a directory")

// ErrNotOwned: a directory of the state belongs to another user, who could
// read, replace or link what kittymux writes there.
var ErrNotOwned = errors.New("belongs to another user; kittymux keeps its state only in the user's own directories")

// Dir is an open directory of the state. Everything done through it stays
// inside it: os.Root refuses paths and links that leave it.
type Dir struct {
	root *os.Root
	path string
}

// Path is where d was opened.
func (d *Dir) Path() string { return d.path }

// Close releases d.
func (d *Dir) Close() error { return d.root.Close() }

// Open opens the existing state directory at path; a missing one is an
// error that wraps fs.ErrNotExist. Nothing is created or changed: commands
// that only read write nothing.
func Open(path string) (*Dir, error) {
	return openTop(path, false)
}

// Make opens the state directory at path, creating it and its parents when
// missing, and sets it to 0700. Only path itself is checked for a link: its
// parents ($XDG_STATE_HOME and above) are the user's to arrange.
func Make(path string) (*Dir, error) {
	return openTop(path, true)
}

func openTop(path string, create bool) (*Dir, error) {
	if create {
		if err := os.MkdirAll(filepath.Dir(path), dirPerm); err != nil {
			return nil, fmt.Errorf("create state directory %s: %w", path, err)
		}
		// Mkdir does not follow a link at path: a link stays one, refused
		// below.
		if err := os.Mkdir(path, dirPerm); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create state directory %s: %w", path, err)
		}
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("open state directory: %w", err)
	}
	if err := checkDir(path, fi); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, fmt.Errorf("open state directory: %w", err)
	}
	d := &Dir{root: root, path: path}
	if err := d.settle(fi, create); err != nil {
		root.Close()
		return nil, err
	}
	return d, nil
}

func checkDir(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("state directory %s %w", path, ErrSymlink)
	case !fi.IsDir():
		return fmt.Errorf("state directory %s %w", path, ErrNotDir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("state directory %s (uid %d) %w", path, st.Uid, ErrNotOwned)
	}
	return nil
}

// settle checks that the directory opened is the one checked (a link swapped
// in between is refused) and, when making, tightens it to 0700 through its
// own descriptor, never through a name.
func (d *Dir) settle(checked fs.FileInfo, tighten bool) error {
	f, err := d.root.Open(".")
	if err != nil {
		return fmt.Errorf("open state directory %s: %w", d.path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open state directory %s: %w", d.path, err)
	}
	if !os.SameFile(fi, checked) {
		return fmt.Errorf("state directory %s changed while it was opened", d.path)
	}
	if tighten && fi.Mode().Perm() != dirPerm {
		if err := f.Chmod(dirPerm); err != nil {
			return fmt.Errorf("set permissions of %s: %w", d.path, err)
		}
	}
	return nil
}

// OpenSub opens the existing directory rel under d, each of its components
// refused if it is a link.
func (d *Dir) OpenSub(rel string) (*Dir, error) { return d.sub(rel, false) }

// MakeSub opens the directory rel under d, creating each missing component
// 0700 and tightening existing ones to 0700.
func (d *Dir) MakeSub(rel string) (*Dir, error) { return d.sub(rel, true) }

func (d *Dir) sub(rel string, create bool) (*Dir, error) {
	rel = filepath.Clean(rel)
	if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is not under the state directory %s", rel, d.path)
	}
	cur := &Dir{root: d.root, path: d.path}
	if rel == "." {
		// A second handle, so that the caller may close what it gets.
		r, err := d.root.OpenRoot(".")
		if err != nil {
			return nil, fmt.Errorf("open state directory %s: %w", d.path, err)
		}
		return &Dir{root: r, path: d.path}, nil
	}
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		next, err := cur.child(name, create)
		if cur.root != d.root {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

func (d *Dir) child(name string, create bool) (*Dir, error) {
	path := filepath.Join(d.path, name)
	if create {
		if err := d.root.Mkdir(name, dirPerm); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create state directory %s: %w", path, err)
		}
	}
	fi, err := d.root.Lstat(name)
	if err != nil {
		return nil, fmt.Errorf("open state directory: %w", err)
	}
	if err := checkDir(path, fi); err != nil {
		return nil, err
	}
	r, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("open state directory %s: %w", path, err)
	}
	c := &Dir{root: r, path: path}
	if err := c.settle(fi, create); err != nil {
		r.Close()
		return nil, err
	}
	return c, nil
}

// ReadDir lists d, sorted by name.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", d.path, err)
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", d.path, err)
	}
	return ents, nil
}

// tempRE matches renameio's temp names: "." + the file's name + a random
// non-negative int64. Every file kittymux keeps has a name that starts with
// a letter or digit, or a dot and one (restore's .new-kitty- copies).
var tempRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.\.?[A-Za-z0-9][A-Za-z0-9._-]*[0-9]$`) })

// WriteFile replaces the file name (a plain name in d) with data, mode
// 0600. A reader sees the old content or the new, never a part, and a crash
// at any point leaves one of them.
func (d *Dir) WriteFile(name string, data []byte) error {
	if err := d.plainName(name); err != nil {
		return err
	}
	d.removeStale()
	if err := d.writeFile(name, data); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(d.path, name), err)
	}
	return nil
}

// Pending is a file made ahead to replace a file of its directory, for a
// writer that holds a lock around the replacement and keeps under it only
// the write and the rename: making the temp file (an inode allocated, which
// the file system may make wait for its journal's commit), and the syncs,
// are done outside. Prepare makes it; Replace or Discard ends it.
type Pending struct {
	root *os.Root // d's: d stays open until Replace or Discard
	dir  *os.File // the directory, for the sync
	path string   // the directory's path, for errors
	name string
	pf   *renameio.PendingFile
	lock int // the temp file's flock, as writeFile holds it
}

// Prepare makes the temp file that will replace name (a plain name in d),
// mode 0600, and removes stale ones as WriteFile does. d must stay open
// until Replace or Discard.
func (d *Dir) Prepare(name string) (*Pending, error) {
	if err := d.plainName(name); err != nil {
		return nil, err
	}
	d.removeStale()
	p := &Pending{root: d.root, path: d.path, name: name}
	// Made outside any lock, the temp file is open to every other
	// writer's cleaning between its creation and its flock, a window that
	// a busy machine stretches: one removed there is made again.
	var err error
	for attempt := 0; ; attempt++ {
		p.pf, err = renameio.NewPendingFile(name, renameio.WithRoot(d.root), renameio.WithStaticPermissions(filePerm))
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", filepath.Join(d.path, name), err)
		}
		p.lock, err = lockFile(p.pf.File)
		if err != nil {
			p.pf.Cleanup()
			return nil, fmt.Errorf("write %s: %w", filepath.Join(d.path, name), err)
		}
		if linked(p.pf.File) {
			break
		}
		syscall.Close(p.lock)
		p.pf.Cleanup()
		if attempt == 100 {
			return nil, fmt.Errorf("write %s: its temp file was removed as it was made, 100 times", filepath.Join(d.path, name))
		}
	}
	// Opened now: d may be closed by the time the sync runs.
	if p.dir, err = d.root.Open("."); err != nil {
		p.Discard()
		return nil, fmt.Errorf("write %s: %w", filepath.Join(d.path, name), err)
	}
	return p, nil
}

// Replace writes data to the temp file, syncs it and renames it over the
// file; sync, which the caller must run (after releasing its lock, so that
// no other writer waits for the directory's sync), makes the new name
// durable. A reader sees the old content or the new, never a part, and a
// crash of the machine before sync returns leaves the old file or the new
// one, whole. On an error the temp file is removed and sync is nil.
func (p *Pending) Replace(data []byte) (sync func() error, err error) {
	if err := p.replace(data); err != nil {
		p.Discard()
		return nil, fmt.Errorf("write %s: %w", filepath.Join(p.path, p.name), err)
	}
	return p.sync, nil
}

func (p *Pending) replace(data []byte) error {
	tmp := filepath.Base(p.pf.Name())
	if _, err := p.pf.Write(data); err != nil {
		return err
	}
	// Its data on disk before its name replaces the file's: a crash of the
	// machine leaves the old file or the new one whole, on every file
	// system.
	if err := p.pf.File.Sync(); err != nil {
		return err
	}
	if err := p.pf.File.Close(); err != nil {
		return err
	}
	// Renamed under its own flock (p.lock, a duplicate that outlives the
	// close): a cleaner never takes a live writer's temp file.
	return p.root.Rename(tmp, p.name)
}

// sync syncs the directory, making the rename durable.
func (p *Pending) sync() error {
	defer p.dir.Close()
	syscall.Close(p.lock)
	if err := p.dir.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", p.path, err)
	}
	return nil
}

// Discard removes the temp file, unused.
func (p *Pending) Discard() {
	p.pf.Cleanup()
	syscall.Close(p.lock)
	if p.dir != nil {
		p.dir.Close()
	}
}

// plainName refuses a name that is not a plain file name in d.
func (d *Dir) plainName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return fmt.Errorf("write %s: not a plain file name", filepath.Join(d.path, name))
	}
	return nil
}

func (d *Dir) writeFile(name string, data []byte) error {
	var (
		pf   *renameio.PendingFile
		lock int
		err  error
	)
	// The temp file is locked while it is written and renamed: the lock is
	// what tells a live writer's temp file from a killed one's. A cleaner in
	// another process may remove it between its creation and the lock; then
	// it is unlinked, and a new one is made.
	for attempt := 0; ; attempt++ {
		pf, err = renameio.NewPendingFile(name, renameio.WithRoot(d.root), renameio.WithStaticPermissions(filePerm))
		if err != nil {
			return err
		}
		lock, err = lockFile(pf.File)
		if err != nil {
			pf.Cleanup()
			return err
		}
		if linked(pf.File) || attempt == 3 {
			break
		}
		syscall.Close(lock)
		pf.Cleanup()
	}
	// Closed after the rename: closing the temp file itself (in
	// CloseAtomicallyReplace, before its rename) must not drop the lock.
	defer syscall.Close(lock)
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return err
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return err
	}
	// The rename is durable only once the directory is synced.
	dir, err := d.root.Open(".")
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}

// lockFile takes an exclusive flock on f through a duplicate descriptor,
// which shares f's lock and outlives f's own close.
func lockFile(f *os.File) (int, error) {
	var fd int
	var err error
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	if cerr := sc.Control(func(raw uintptr) { fd, err = syscall.Dup(int(raw)) }); cerr != nil {
		return -1, cerr
	}
	if err != nil {
		return -1, fmt.Errorf("lock temp file: %w", err)
	}
	if err := flock(fd, syscall.LOCK_EX); err != nil {
		syscall.Close(fd)
		return -1, fmt.Errorf("lock temp file: %w", err)
	}
	return fd, nil
}

// linked reports whether f still has a name.
func linked(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 0
}

// removeStale removes temp files of kittymux's naming that no live writer
// holds: a writer killed between creating its temp file and renaming it
// leaves one, with the whole file inside.
func (d *Dir) removeStale() {
	ents, err := d.ReadDir()
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !tempRE().MatchString(e.Name()) {
			continue
		}
		f, err := userfile.OpenInRoot(d.root, e.Name(), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		if ok, _ := TryFlock(f, syscall.LOCK_EX); ok {
			_ = d.root.Remove(e.Name())
		}
		f.Close()
	}
}

// WriteFile replaces the file at path, which lies under the state directory
// stateDir, with data: stateDir and the directories between are made 0700
// and never followed if they are links, the file is written 0600
// atomically. It is the one way kittymux writes a state file.
func WriteFile(stateDir, path string, data []byte) error {
	rel, err := filepath.Rel(stateDir, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("write %s: not under the state directory %s", path, stateDir)
	}
	top, err := Make(stateDir)
	if err != nil {
		return err
	}
	defer top.Close()
	d, err := top.MakeSub(filepath.Dir(rel))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.WriteFile(filepath.Base(rel), data)
}

// Remove removes the file name (a plain name in d); a missing one is no
// error.
func (d *Dir) Remove(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return fmt.Errorf("remove %s: not a plain file name", filepath.Join(d.path, name))
	}
	if err := d.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", filepath.Join(d.path, name), err)
	}
	return nil
}

// OpenLock opens (creating it 0600) the lock file name in d for the caller
// to flock. A lock file holds nothing, so it is opened in place rather
// than replaced; a link there is refused.
func (d *Dir) OpenLock(name string) (*os.File, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return nil, fmt.Errorf("open lock %s: not a plain file name", filepath.Join(d.path, name))
	}
	return d.OpenInPlace(name, os.O_RDWR|os.O_CREATE)
}

// OpenInPlace opens the file name in d with flag (os.O_RDWR, O_APPEND,
// O_CREATE: new files are made 0600) for a file that is changed where it
// is rather than replaced: a lock, an append-only log. A link is refused,
// and so is anything but a regular file, found without blocking: a FIFO
// put there would otherwise block the open, or a read.
func (d *Dir) OpenInPlace(name string, flag int) (*os.File, error) {
	path := filepath.Join(d.path, name)
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return nil, fmt.Errorf("open %s: not a plain file name", path)
	}
	f, err := userfile.OpenInRoot(d.root, name, flag|syscall.O_NOFOLLOW, filePerm)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return f, nil
}

// ReadFile reads the file name in d, at most 1 MiB; a link or anything
// but a regular file is refused.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	f, err := userfile.OpenInRoot(d.root, name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return userfile.ReadOpen(f, 1<<20)
}

// Flock takes the flock how (syscall.LOCK_EX or LOCK_SH) on f, trying
// until ctx ends; with a ctx that never ends it waits as long as it takes.
// Closing f releases it.
func Flock(ctx context.Context, f *os.File, how int) error {
	sc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	try := func(flags int) error {
		var ferr error
		if cerr := sc.Control(func(fd uintptr) { ferr = flock(int(fd), flags) }); cerr != nil {
			return cerr
		}
		return ferr
	}
	if ctx.Done() == nil {
		return try(how)
	}
	delay := time.Millisecond
	for {
		err := try(how | syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("lock %s: %w", f.Name(), ctx.Err())
		case <-t.C:
		}
		delay = min(2*delay, 8*time.Millisecond)
	}
}

// TryFlock takes the flock how (syscall.LOCK_EX or LOCK_SH) on f if it is
// free, without waiting: false when another open file holds it.
func TryFlock(f *os.File, how int) (bool, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var ferr error
	if cerr := sc.Control(func(fd uintptr) { ferr = flock(int(fd), how|syscall.LOCK_NB) }); cerr != nil {
		return false, cerr
	}
	if errors.Is(ferr, syscall.EWOULDBLOCK) {
		return false, nil
	}
	if ferr != nil {
		return false, fmt.Errorf("lock %s: %w", f.Name(), ferr)
	}
	return true, nil
}

// flock retries a wait interrupted by a signal.
func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// Info describes the directory d itself (through its own descriptor).
func (d *Dir) Info() (fs.FileInfo, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// OpenRead opens the file name in d for reading: a link is refused, and so
// is anything but a regular file, without blocking on a FIFO.
func (d *Dir) OpenRead(name string) (*os.File, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return nil, fmt.Errorf("open %s: not a plain file name", filepath.Join(d.path, name))
	}
	return userfile.OpenInRoot(d.root, name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}

// CreateOnce creates the file name in d (0600) holding data, whole before it
// appears: it is written to a temp file and linked into place. A link never
// replaces a file, so when name exists the error wraps fs.ErrExist and the
// file stays as it was.
func (d *Dir) CreateOnce(name string, data []byte) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return fmt.Errorf("create %s: not a plain file name", filepath.Join(d.path, name))
	}
	d.removeStale()
	// The temp file is locked, as writeFile's is, so that another writer's
	// removeStale leaves it alone.
	var (
		pf   *renameio.PendingFile
		lock int
		err  error
	)
	for attempt := 0; ; attempt++ {
		if pf, err = renameio.NewPendingFile(name, renameio.WithRoot(d.root), renameio.WithStaticPermissions(filePerm)); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Join(d.path, name), err)
		}
		if lock, err = lockFile(pf.File); err != nil {
			pf.Cleanup()
			return fmt.Errorf("create %s: %w", filepath.Join(d.path, name), err)
		}
		if linked(pf.File) || attempt == 3 {
			break
		}
		syscall.Close(lock)
		pf.Cleanup()
	}
	defer syscall.Close(lock)
	defer pf.Cleanup()
	tmp := filepath.Base(pf.Name())
	_, err = pf.Write(data)
	if err == nil {
		err = pf.Sync()
	}
	if err == nil {
		err = d.root.Link(tmp, name)
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", filepath.Join(d.path, name), err)
	}
	if dir, err := d.root.Open("."); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return nil
}

// Rename renames the file or directory oldname in d to newname (plain
// names); an existing newname is replaced only where rename(2) replaces it
// (a file; an empty directory).
func (d *Dir) Rename(oldname, newname string) error {
	for _, n := range []string{oldname, newname} {
		if err := d.plainName(n); err != nil {
			return err
		}
	}
	if err := d.root.Rename(oldname, newname); err != nil {
		return fmt.Errorf("rename %s: %w", filepath.Join(d.path, oldname), err)
	}
	return nil
}

// SetModTime sets the modification time of the file name in d.
func (d *Dir) SetModTime(name string, t time.Time) error {
	if err := d.plainName(name); err != nil {
		return err
	}
	return d.root.Chtimes(name, t, t)
}

// EnsureState creates p's state directory and its sessions directory 0700,
// tightens them if they exist with looser permissions, and refuses either
// if it is a symbolic link.
func EnsureState(p paths.Paths) error {
	top, err := Make(p.StateDir)
	if err != nil {
		return err
	}
	defer top.Close()
	d, err := top.MakeSub(filepath.Base(p.SessionsDir()))
	if err != nil {
		return err
	}
	return d.Close()
}
