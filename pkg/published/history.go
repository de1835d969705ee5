package published

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessionfile"
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

// moveHistory points the windows of the save data that show a history kept
// in the directory from at the same file in to.
func moveHistory(data []byte, from, to string) ([]byte, error) {
	f, err := sessionfile.Parse(data)
	if err != nil {
		return data, nil // no window of it restores, nor shows a history
	}
	moved := false
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		if l.Unserialize == nil {
			continue
		}
		if argv := l.Unserialize.CmdAtShellStartup.List; showsHistory(argv) && filepath.Dir(argv[2]) == from {
			if err := l.SetCmdAtShellStartupList([]string{argv[0], argv[1], filepath.Join(to, filepath.Base(argv[2]))}); err != nil {
				return nil, err
			}
			moved = true
		}
	}
	if !moved {
		return data, nil
	}
	return f.Encode()
}
