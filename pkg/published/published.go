// Package published keeps the published session files: written atomically,
// 0600, never replaced by a failed or empty save.
package published

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// Ext is the extension kitty's session files carry.
const Ext = ".kitty-session"

// AutosavePrefix names the files the scanner's periodic saves write.
const AutosavePrefix = "autosave-"

// nameRE is compiled on first use: its counted repetition makes it costly,
// and most commands never check a session name.
var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`) })

// ErrNotFound: no session of that name.
var ErrNotFound = errors.New("no such session")

// CheckName refuses names that are not plain file names.
func CheckName(name string) error {
	if !nameRE().MatchString(name) || strings.HasSuffix(name, Ext) {
		return fmt.Errorf("session name %q: use letters, digits, '.', '_' and '-' (not starting with '.' or '-')", name)
	}
	if name == "last" {
		return fmt.Errorf("session name %q is reserved: `restore last` means the newest save", name)
	}
	return nil
}

// Publish writes data as the session name: a temp file in the same
// directory, synced, renamed over the old one, then the directory synced
// (statefile.WriteFile). A reader sees the old file or the new one, never a
// part; the file is 0600 whatever was there before.
func Publish(p paths.Paths, name string, data []byte) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	if len(data) == 0 {
		return "", errors.New("refusing to publish an empty session")
	}
	path := p.Session(name)
	if err := statefile.WriteFile(p.StateDir, path, data); err != nil {
		return "", fmt.Errorf("publish %s: %w", name, err)
	}
	return path, nil
}

// Info is one saved session.
type Info struct {
	Name     string    `json:"name"`
	Path     string    `json:"path"`
	Modified time.Time `json:"modified"`
	Autosave bool      `json:"autosave"`
}

// List returns the saved sessions, newest first. A state or sessions
// directory that is a link is refused, as for writing.
func List(p paths.Paths) ([]Info, error) {
	ents, err := listSessions(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), Ext)
		if !ok || e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, Info{Name: name, Path: filepath.Join(p.SessionsDir(), e.Name()), Modified: fi.ModTime(),
			Autosave: strings.HasPrefix(name, AutosavePrefix)})
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Modified.Equal(out[j].Modified) {
			return out[i].Modified.After(out[j].Modified)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// Resolve finds a session by name; "last" is the newest autosave, or the
// newest save when there is no autosave. An unknown name's error lists
// what exists.
func Resolve(p paths.Paths, name string) (Info, error) {
	all, err := List(p)
	if err != nil {
		return Info{}, err
	}
	if name == "last" {
		for _, in := range all {
			if in.Autosave {
				return in, nil
			}
		}
		if len(all) > 0 {
			return all[0], nil
		}
	} else {
		for _, in := range all {
			if in.Name == name {
				return in, nil
			}
		}
	}
	if len(all) == 0 {
		return Info{}, fmt.Errorf("%w %q: nothing saved yet in %s (run `kittymux sessions save`)", ErrNotFound, name, p.SessionsDir())
	}
	names := make([]string, len(all))
	for i, in := range all {
		names[i] = in.Name
	}
	return Info{}, fmt.Errorf("%w %q; saved: %s", ErrNotFound, name, strings.Join(names, ", "))
}

func listSessions(p paths.Paths) ([]os.DirEntry, error) {
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
	return d.ReadDir()
}

// Remove removes the saved session name and the screen history kept with
// it; a missing one is no error.
func Remove(p paths.Paths, name string) error {
	if err := CheckName(name); err != nil {
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
	if err := d.Remove(name + Ext); err != nil {
		return err
	}
	return RemoveHistory(p, name, nil)
}
