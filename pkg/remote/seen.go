package remote

import (
	"fmt"
	"path/filepath"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// Seen is a kitty window whose foreground process is an ssh command, as
// kittymux saw it: the command from the process (never from a title or a
// user var), and the hint the window carries, if any.
type Seen struct {
	WindowID int
	SSH      SSH
	// PID is the process SSH was read from, Start its start (procid).
	PID   int
	Start string
	// Hint is what the host's hook reported; HintErr why the window's
	// user var, if it has one, is no hint (then Hint is zero).
	Hint    Hint
	HintErr error
	// Reported is the command line kitty's shell integration reported
	// for the window (text any program can print): for people only, to say
	// what may run on a host without kittymux.
	Reported string
}

// HasHint reports whether the host's kittymux reported an agent.
func (s Seen) HasHint() bool { return s.Hint.Agent != "" }

// Windows finds the windows of ls whose foreground process runs ssh,
// reading each process with read (the OS: /proc). A process counts only
// by what it executes: ssh, or the ssh kitten (kitten, or kitty
// +kitten ssh); its argv then says the options and the destination, and
// argv[0] becomes the file it executes. Of the kitten and the ssh it
// starts, the kitten is the window's command.
func Windows(ls []kitty.OSWindow, read func(pid int) (recognize.Proc, bool)) []Seen {
	return windows(ls, read, false)
}

// Hinted is Windows of the windows that carry a host's hint only: no
// process of any other window is read (the scanner's poll).
func Hinted(ls []kitty.OSWindow, read func(pid int) (recognize.Proc, bool)) []Seen {
	return windows(ls, read, true)
}

func windows(ls []kitty.OSWindow, read func(pid int) (recognize.Proc, bool), hinted bool) []Seen {
	var out []Seen
	for _, ref := range kitty.Windows(ls) {
		w := ref.Window
		if _, ok := w.UserVars[Var]; hinted && !ok {
			continue
		}
		var best Seen
		found := false
		for _, fp := range w.ForegroundProcesses {
			p, ok := read(fp.PID)
			if !ok || len(p.Argv) == 0 || !filepath.IsAbs(p.Exe) {
				continue
			}
			s, ok := ParseSSH(p.Argv)
			if !ok || !execs(p.Exe, s.Kitten) {
				continue
			}
			s.Argv[0] = p.Exe
			if !found || s.Kitten && !best.SSH.Kitten {
				best, found = Seen{WindowID: w.ID, SSH: s, PID: fp.PID, Start: p.Start}, true
			}
		}
		if !found {
			continue
		}
		if v, ok := w.UserVars[Var]; ok {
			best.Hint, best.HintErr = ParseHint(v)
		}
		best.Reported = w.LastReportedCmdline
		out = append(out, best)
	}
	return out
}

// execs: the executable is ssh, or for the kitten kitten or kitty.
func execs(exe string, kitten bool) bool {
	base := filepath.Base(exe)
	if kitten {
		return base == "kitten" || base == "kitty"
	}
	return base == "ssh"
}

// Note says, for people, what a restore does with the window s: resume
// its host's agent there, or, where only the host's shell reported an
// agent's command line (agentOf names the agent a line runs, if any), that
// kittymux is not set up there. "" for a window with neither.
func (s Seen) Note(agentOf func(line string) (string, bool)) string {
	host := s.SSH.Host()
	switch agent, typed := agentOf(s.Reported); {
	case s.HasHint():
		return fmt.Sprintf("window %d: %s on %s (reported by %s): a restore resumes it there if the host's journal holds it",
			s.WindowID, s.Hint.Agent, host, s.Hint.Host)
	case s.HintErr != nil:
		return fmt.Sprintf("window %d: ssh to %s: its hint was refused (%v)", s.WindowID, host, s.HintErr)
	case typed:
		return fmt.Sprintf("window %d: ssh to %s, where the shell reported running %s: kittymux is not set up there; `kittymux setup --remote` on %s would bring its agents back",
			s.WindowID, host, agent, host)
	}
	return ""
}
