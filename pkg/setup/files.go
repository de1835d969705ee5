package setup

import (
	"fmt"
	"io/fs"

	"github.com/google/renameio/v2"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// maxConfSize caps a configuration file read: kitty's own commented
// kitty.conf is about 100 KB.
const maxConfSize = 4 << 20

// writeTarget is the file a write of path changes: kitty.conf kept in a
// dotfiles repository is often a link (userfile.WriteTarget).
func writeTarget(path string) (string, error) { return userfile.WriteTarget(path) }

// pickBackup names the copy of kitty.conf (old) that setup keeps, and
// whether it is to be written (userfile.PickBackup).
func pickBackup(target string, old []byte) (string, bool, error) {
	name, made, err := userfile.PickBackup(target+BackupSuffix, old, maxConfSize)
	if err != nil {
		return "", false, fmt.Errorf("back up kitty.conf: %w", err)
	}
	return name, made, nil
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
