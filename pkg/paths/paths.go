// Package paths resolves where kittymux keeps its state and configuration.
//
// The environment is read once, by FromEnv, and the result is passed around as
// a value: nothing below cmd/ reads XDG variables on its own.
package paths

import (
	"path/filepath"

	"github.com/adrg/xdg"

	"github.com/kittymux/kittymux/pkg/statefile"
)

// Paths holds every file and directory kittymux uses.
type Paths struct {
	StateDir  string // $XDG_STATE_HOME/kittymux
	ConfigDir string // $XDG_CONFIG_HOME/kittymux
}

// FromEnv resolves Paths from the XDG environment, as adrg/xdg read it when
// the process started (the prompt runs in every restored window: no second
// read).
func FromEnv() Paths {
	return Paths{
		StateDir:  filepath.Join(xdg.StateHome, "kittymux"),
		ConfigDir: filepath.Join(xdg.ConfigHome, "kittymux"),
	}
}

// Under returns Paths rooted in dir, for tests.
func Under(dir string) Paths {
	return Paths{StateDir: filepath.Join(dir, "state"), ConfigDir: filepath.Join(dir, "config")}
}

func (p Paths) SessionsDir() string      { return filepath.Join(p.StateDir, "sessions") }
func (p Paths) ResumeCheck() string      { return filepath.Join(p.StateDir, "resume-check.json") }
func (p Paths) Journal() string          { return filepath.Join(p.StateDir, "agent-sessions.json") }
func (p Paths) ResumeAllUntil() string   { return filepath.Join(p.StateDir, "resume-all-until") }
func (p Paths) ResumeAuto() string       { return filepath.Join(p.StateDir, "resume-auto") }
func (p Paths) ResumeKey() string        { return filepath.Join(p.StateDir, "resume-key") }
func (p Paths) UserAgents() string       { return filepath.Join(p.ConfigDir, "resume.json") }
func (p Paths) UserTemplatesDir() string { return filepath.Join(p.ConfigDir, "templates") }

// Session is the published file of the session called name.
func (p Paths) Session(name string) string {
	return filepath.Join(p.SessionsDir(), name+".kitty-session")
}

// EnsureState creates the state directory and its sessions directory 0700,
// tightens them if they exist with looser permissions, and refuses either
// if it is a symbolic link (see statefile).
func (p Paths) EnsureState() error {
	top, err := statefile.Make(p.StateDir)
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
