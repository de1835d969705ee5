package userfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// WriteTarget is the file a write of path changes: a file kept in a
// dotfiles repository is often a link, and replacing the link with a file
// would cut it off from the repository, so the file it leads to is
// written. A missing file is path itself (or, for a dangling link, its
// target).
func WriteTarget(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("resolve %s: %w", path, err)
	}
	if l, lerr := os.Readlink(path); lerr == nil {
		if !filepath.IsAbs(l) {
			l = filepath.Join(filepath.Dir(path), l)
		}
		return filepath.Clean(l), nil
	}
	return path, nil
}

// MaxBackups bounds the backups of one file PickBackup looks through.
const MaxBackups = 100

// Backups are the names of the backups of a file, in order: name, then
// name.2, name.3, ...
func Backups(name string) []string {
	out := []string{name}
	for n := 2; n <= MaxBackups; n++ {
		out = append(out, name+"."+strconv.Itoa(n))
	}
	return out
}

// PickBackup names the backup that keeps data: the first of Backups(name)
// that holds exactly data (made false), else the first free one (made
// true: the caller writes it, with WriteNew). A backup there already is
// never chosen to be replaced: it may be the only copy of what the user
// had.
func PickBackup(name string, data []byte, max int64) (backup string, made bool, err error) {
	for _, b := range Backups(name) {
		have, err := Read(b, max)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if _, lerr := os.Lstat(b); lerr == nil {
				continue // a dangling link: not a name to write through
			}
			return b, true, nil
		case err == nil && bytes.Equal(have, data):
			return b, false, nil
		}
	}
	return "", false, fmt.Errorf("%s and %d more backups are all taken", name, MaxBackups-1)
}

// WriteNew writes data to path, which must not exist: a file there (made
// since it was checked) is never replaced. The data goes to a temp file
// beside it, synced, then linked in place, so path is whole or absent.
func WriteNew(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
