package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/google/renameio/v2"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// maxConfSize caps a configuration file read: kitty's own commented
// kitty.conf is about 100 KB.
const maxConfSize = 4 << 20

// writeTarget is the file a write of path changes: kitty.conf kept in a
// dotfiles repository is often a link, and replacing the link with a file
// would cut it off from the repository, so the file it leads to is written.
// A missing file is path itself (or, for a dangling link, its target).
func writeTarget(path string) (string, error) {
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

// readFile reads a regular file with its mode; anything else (a FIFO, a
// device) is refused without blocking.
func readFile(path string) ([]byte, fs.FileMode, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	data, err := userfile.ReadOpen(f, maxConfSize)
	return data, fi.Mode().Perm(), err
}

// writeAtomic replaces path with data: a temp file beside it, synced, then
// renamed over it, so kitty (which may reload its configuration at any
// moment) reads the old file or the new one. The file gets mode.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := renameio.WriteFile(path, data, mode, renameio.WithStaticPermissions(mode)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// pickBackup names the copy of kitty.conf (old) that setup keeps: the
// first free of kitty.conf.kittymux-backup, then .2, .3, ..., and made
// reports that it is to be written. A backup there already is never
// replaced: one holding exactly old is used as it is.
func pickBackup(target string, old []byte) (name string, made bool, err error) {
	for n := 1; n <= 100; n++ {
		name = target + BackupSuffix
		if n > 1 {
			name += "." + strconv.Itoa(n)
		}
		b, _, err := readFile(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if _, lerr := os.Lstat(name); lerr == nil {
				continue // a dangling link: not ours to follow
			}
			return name, true, nil
		case err == nil && bytes.Equal(b, old):
			return name, false, nil
		}
	}
	return "", false, fmt.Errorf("back up kitty.conf: %s and 99 more backups are all taken", target+BackupSuffix)
}

// writeNew writes data to path, which must not exist: a file there (made
// since it was checked) is never replaced. The data is written to a temp
// file beside it, synced, then linked in place, so path is whole or
// absent.
func writeNew(path string, data []byte, mode fs.FileMode) error {
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
