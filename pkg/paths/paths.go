// Package paths resolves where kittymux keeps its state and configuration.
//
// The environment is read once, by FromEnv, and the result is passed around as
// a value: nothing below cmd/ reads XDG variables on its own.
package paths

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
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

// EnsureState creates the state directories with mode 0700 and tightens them
// if they already exist with looser permissions.
func (p Paths) EnsureState() error {
	for _, d := range []string{p.StateDir, p.SessionsDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create state directory %s: %w", d, err)
		}
		if err := os.Chmod(d, 0o700); err != nil {
			return fmt.Errorf("set permissions of %s: %w", d, err)
		}
	}
	return nil
}
