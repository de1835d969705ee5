// Package paths resolves where kittymux keeps its state and configuration.
//
// The environment is read once, by FromEnv, and the result is passed around as
// a value: nothing below cmd/ reads XDG variables on its own.
package paths

import (
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

// Names of kittymux's files in the state directory, each in one place:
// the packages that write and read them join these to StateDir.
const (
	// SessionsName is the directory of the published saves (store);
	// RestoreCopiesName under it holds a save less the windows closed by
	// hand, and NewKittyPrefix starts a save's copy without its first
	// new_os_window (both `sessions restore`).
	SessionsName      = "sessions"
	RestoreCopiesName = ".restore"
	NewKittyPrefix    = ".new-kitty-"
	// JournalName is the journal; JournalName+".log" (its changes since
	// it was last written whole), ".lock", ".turn" (the
	// order its writers take the lock), ".spool" (hook
	// events waiting for it) and ".restores" (restore outcomes waiting for
	// it) lie beside it. JournalOffName turns it off.
	JournalName    = "agent-sessions.json"
	JournalOffName = "journal-off"
	// RemoteJournalName is the journal of agents that ran on hosts reached
	// over ssh (as their hooks there reported them), kept apart from the
	// agents that ran here.
	RemoteJournalName = "remote-agent-sessions.json"
	// ResumeCheckName caches the probes of installed agent CLIs.
	ResumeCheckName = "resume-check.json"
	// ResumeAllUntilName, ResumeAutoName: the restore prompt's answers
	// for every window; ResumeKeyName is the key that seals restore
	// records.
	ResumeAllUntilName = "resume-all-until"
	ResumeAutoName     = "resume-auto"
	ResumeKeyName      = "resume-key"
	// AutosaveOffName turns autosave off.
	AutosaveOffName = "autosave-off"
	// ScannerLockName is held by the running scanner, which writes
	// ScannerStatusName.
	ScannerLockName   = "scanner.lock"
	ScannerStatusName = "scanner-status.json"
	// HookLogName is the agent hooks' log of failures, HookLogName+".lock"
	// its lock.
	HookLogName = "hook.log"
	// EndedName marks ended kitties' sessions restored or dismissed,
	// under EndedLockName.
	EndedName     = "ended-sessions.json"
	EndedLockName = "ended-sessions.lock"
	// LeasesName is the directory of the leases on conversations (one
	// PID.lock each, holding who holds it, and LeasesRegistryName).
	LeasesName         = "leases"
	LeasesRegistryName = "registry.lock"
	// StaggerPrefix+AGENT is the lock holding that agent's next start slot.
	StaggerPrefix = "stagger-"
	// SetupName records what `kittymux setup` wrote.
	SetupName = "setup.json"
)

func (p Paths) SessionsDir() string    { return filepath.Join(p.StateDir, SessionsName) }
func (p Paths) ResumeCheck() string    { return filepath.Join(p.StateDir, ResumeCheckName) }
func (p Paths) Journal() string        { return filepath.Join(p.StateDir, JournalName) }
func (p Paths) JournalOff() string     { return filepath.Join(p.StateDir, JournalOffName) }
func (p Paths) RemoteJournal() string  { return filepath.Join(p.StateDir, RemoteJournalName) }
func (p Paths) ResumeAllUntil() string { return filepath.Join(p.StateDir, ResumeAllUntilName) }
func (p Paths) ResumeAuto() string     { return filepath.Join(p.StateDir, ResumeAutoName) }
func (p Paths) ResumeKey() string      { return filepath.Join(p.StateDir, ResumeKeyName) }
func (p Paths) AutosaveOff() string    { return filepath.Join(p.StateDir, AutosaveOffName) }
func (p Paths) Setup() string          { return filepath.Join(p.StateDir, SetupName) }

// Config is the user's settings (autosave, the ended-session offer, the
// restore prompts' stagger).
func (p Paths) Config() string           { return filepath.Join(p.ConfigDir, "config.json") }
func (p Paths) UserAgents() string       { return filepath.Join(p.ConfigDir, "resume.json") }
func (p Paths) UserTemplatesDir() string { return filepath.Join(p.ConfigDir, "templates") }

// Session is the published file of the session called name.
func (p Paths) Session(name string) string {
	return filepath.Join(p.SessionsDir(), name+".kitty-session")
}

// SameDir says whether two directories are one, through links: one a
// process saw as its working directory, one a file names.
func SameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
