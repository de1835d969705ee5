package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
