package store

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// HistorySuffix ends the directory beside a save that holds what its plain
// windows showed (screen history, when the user turned it on).
const HistorySuffix = ".history"

// HistoryDir is the screen history directory of the save name.
func HistoryDir(p paths.Paths, name string) string {
	return filepath.Join(p.SessionsDir(), name+HistorySuffix)
}

// RemoveHistory removes the files of the save name's history directory
// that drop says to (nil: all), then the directory if it is left empty. A
// missing directory is no error.
func RemoveHistory(p paths.Paths, name string, drop func(file string) bool) error {
	if err := CheckName(name); err != nil {
		return err
	}
	top, err := statefile.Open(p.StateDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer top.Close()
	base := name + HistorySuffix
	d, err := top.OpenSub(filepath.Join(filepath.Base(p.SessionsDir()), base))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	ents, err := d.ReadDir()
	if err != nil {
		d.Close()
		return err
	}
	left := 0
	var errs []error
	for _, e := range ents {
		if drop == nil || drop(e.Name()) {
			errs = append(errs, d.Remove(e.Name()))
		} else {
			left++
		}
	}
	d.Close()
	if left == 0 {
		if s, err := top.OpenSub(filepath.Base(p.SessionsDir())); err == nil {
			errs = append(errs, s.Remove(base))
			s.Close()
		}
	}
	return errors.Join(errs...)
}
