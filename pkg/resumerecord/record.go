// Package resumerecord is the restore record: the command line kittymux writes
// into each restored agent window, for the restore prompt
// (cmd/kittymux-resume, package prompt) to read, and the seal that tells a
// record kittymux wrote from one edited by hand.
//
// The rewrite writes records and the prompt reads them; neither needs the
// other, so the format lives here. It is read in every restored window:
// nothing here imports more than the record needs.
package resumerecord

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/remote"
)

// Record is what the rewriter writes as a restored window's command:
//
//	kittymux-resume --agent claude --mode exact --id ID [--direct]
//	    [--from-shell] [--tab TITLE] [--dir DIR] [--env K=V]... [--exe FILE]...
//	    [--origin ORIGIN] [--seal HMAC] -- claude --model sonnet --resume ID
//
// Every value is a separate argument: nothing is ever joined for a shell.
type Record struct {
	Agent string
	// Mode is exact, latest, new or choose (never as-saved: such a window
	// keeps its command and has no record).
	Mode plan.Mode
	ID   string
	// Direct: the save was made with --direct: resume without asking.
	Direct bool
	// FromShell: kitty's shell integration started the prompt as the shell's
	// startup command, so "a shell" means exiting back to that shell.
	FromShell bool
	// Confirm: the command keeps a word kittymux could not place (it follows
	// an option in no grammar, so it may be a prompt). It is shown in full
	// and runs only on a key press: never in auto mode, never without a
	// terminal.
	Confirm bool
	Tab     string
	// Dir is the directory the window ran in when kittymux saw it. The
	// seal covers it, and holds only in that directory: a sealed record
	// copied into another directory's window asks (latest mode there
	// would attach that directory's conversation).
	Dir string
	// Env are NAME=VALUE assignments typed before the agent's name
	// (`FOO=1 claude`), set for the agent only.
	Env []string
	// Exe are the files the agent process ran when kittymux saw it (its
	// executable and, for an interpreter, the agent's script, read from
	// the OS with symlinks followed): the agent as it was installed in the
	// saved window. Trusted only under a valid seal.
	Exe []string
	// Origin names kittymux's journal record of the window's agent
	// process as the save saw it (journal.Record.Origin), in a record that
	// does not name the conversation: the prompt resumes the id the agent
	// reported for that very process after the save, if it did. Trusted
	// only under a valid seal.
	Origin string
	// Seal is the hex HMAC-SHA256 of every other field (see Sealed).
	Seal string
	// Since is when the window's agent process started (Unix seconds; 0
	// not known): in choose mode the conversations written since then are
	// the ones it could have held.
	Since int64
	// LastSeen is when the save last saw that process (Unix seconds; 0 not
	// known): with Since, the time its agent ran, which the choosing
	// prompt shows.
	LastSeen int64
	// Remote is the host a window's agent ran on, as its hook there
	// reported it (remote.Hint): text from another machine, shown as
	// "reported by". RemoteDir is its directory there. In such a record
	// Argv is the ssh command kittymux saw the window's process run
	// (remote.SSH), Agent and ID the hint's, checked only on the host.
	Remote    string
	RemoteDir string
	Argv      []string
}

// Args renders r as the prompt binary's arguments (without the program).
func (r Record) Args() []string {
	a := []string{"--agent", r.Agent, "--mode", string(r.Mode)}
	if r.ID != "" {
		a = append(a, "--id", r.ID)
	}
	if r.Direct {
		a = append(a, "--direct")
	}
	if r.FromShell {
		a = append(a, "--from-shell")
	}
	if r.Confirm {
		a = append(a, "--confirm")
	}
	if r.Tab != "" {
		a = append(a, "--tab", r.Tab)
	}
	if r.Dir != "" {
		a = append(a, "--dir", r.Dir)
	}
	for _, e := range r.Env {
		a = append(a, "--env", e)
	}
	for _, e := range r.Exe {
		a = append(a, "--exe", e)
	}
	if r.Since != 0 {
		a = append(a, "--since", strconv.FormatInt(r.Since, 10))
	}
	if r.LastSeen != 0 {
		a = append(a, "--seen", strconv.FormatInt(r.LastSeen, 10))
	}
	if r.Origin != "" {
		a = append(a, "--origin", r.Origin)
	}
	if r.Remote != "" {
		a = append(a, "--remote", r.Remote, "--remote-dir", r.RemoteDir)
	}
	if r.Seal != "" {
		a = append(a, "--seal", r.Seal)
	}
	return append(append(a, "--"), r.Argv...)
}

// ErrUsage marks arguments that are not a record.
var ErrUsage = errors.New("usage: kittymux-resume --agent NAME --mode exact|latest|new|choose [--id ID] [--direct] [--from-shell] [--confirm] [--tab TITLE] [--dir DIR] [--env NAME=VALUE]... [--exe FILE]... [--since UNIX] [--seen UNIX] [--origin ORIGIN] [--remote HOST --remote-dir DIR] [--seal HMAC] -- ARGV")

// checkRemote: a remote record holds a hint a host's hook could have
// written, resumes that one id, and runs the ssh command alone.
func (r Record) checkRemote() error {
	if r.Remote == "" && r.RemoteDir == "" {
		return nil
	}
	h := remote.Hint{Agent: r.Agent, ID: r.ID, Dir: r.RemoteDir, Host: r.Remote}
	if err := h.Check(); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if s, ok := remote.ParseSSH(r.Argv); r.Mode != plan.ModeExact || !ok || len(s.Argv) != len(r.Argv) || len(r.Env) > 0 {
		return fmt.Errorf("%w: a remote record resumes one id with an ssh command alone", ErrUsage)
	}
	return nil
}

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// CheckEnv accepts NAME=VALUE with a plain name and a value without control
// characters. Which names a record may set is decided later, by agents.EnvNeedsSeal,
// once the seal is checked.
func CheckEnv(kv string) error {
	name, value, ok := strings.Cut(kv, "=")
	switch {
	case !ok || !envName().MatchString(name):
		return fmt.Errorf("%w: --env %q is not NAME=VALUE", ErrUsage, kv)
	case hasControl(value):
		return fmt.Errorf("%w: --env %s has control characters", ErrUsage, name)
	}
	return nil
}

// hasControl: C0, DEL or C1 (U+0080–U+009F).
func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}

// checkPath accepts a clean absolute path for option opt.
func checkPath(opt, p string) error {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || hasControl(p) {
		return fmt.Errorf("%w: %s %q is not a clean absolute path", ErrUsage, opt, p)
	}
	return nil
}

var sealRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

// ParseArgs reads a record from the prompt binary's arguments. It is strict:
// each option once, values as separate words, "--" before the argv.
func ParseArgs(args []string) (Record, error) {
	var r Record
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			r.Argv = append([]string(nil), args[i+1:]...)
			if r.Agent == "" || r.Mode == "" {
				return r, fmt.Errorf("%w: --agent and --mode are required", ErrUsage)
			}
			if len(r.Argv) == 0 {
				return r, fmt.Errorf("%w: no command after --", ErrUsage)
			}
			if r.LastSeen != 0 && r.LastSeen < r.Since {
				return r, fmt.Errorf("%w: --seen %d is before --since %d", ErrUsage, r.LastSeen, r.Since)
			}
			if err := r.checkRemote(); err != nil {
				return r, err
			}
			return r, nil
		}
		if seen[a] && a != "--env" && a != "--exe" {
			return r, fmt.Errorf("%w: %s given twice", ErrUsage, a)
		}
		seen[a] = true
		value := func() (string, error) {
			if i+1 >= len(args) || args[i+1] == "--" {
				return "", fmt.Errorf("%w: %s needs a value", ErrUsage, a)
			}
			i++
			return args[i], nil
		}
		var err error
		switch a {
		case "--agent":
			r.Agent, err = value()
		case "--mode":
			var m string
			m, err = value()
			switch r.Mode = plan.Mode(m); r.Mode {
			case plan.ModeExact, plan.ModeLatest, plan.ModeNew, plan.ModeChoose:
			default:
				if err == nil {
					err = fmt.Errorf("%w: unknown mode %q", ErrUsage, m)
				}
			}
		case "--id":
			r.ID, err = value()
		case "--tab":
			r.Tab, err = value()
		case "--dir":
			if r.Dir, err = value(); err == nil {
				err = checkPath("--dir", r.Dir)
			}
		case "--env":
			var e string
			if e, err = value(); err == nil {
				if err = CheckEnv(e); err == nil {
					r.Env = append(r.Env, e)
				}
			}
		case "--exe":
			var p string
			if p, err = value(); err == nil {
				if err = checkPath("--exe", p); err == nil {
					r.Exe = append(r.Exe, p)
				}
			}
		case "--origin":
			if r.Origin, err = value(); err == nil && (r.Origin == "" || hasControl(r.Origin)) {
				err = fmt.Errorf("%w: --origin %q is not a journal record's origin", ErrUsage, r.Origin)
			}
		case "--seal":
			r.Seal, err = value()
			if err == nil && !sealRE().MatchString(r.Seal) {
				err = fmt.Errorf("%w: --seal %q is not a seal", ErrUsage, r.Seal)
			}
		case "--since":
			var v string
			if v, err = value(); err == nil {
				if r.Since, err = strconv.ParseInt(v, 10, 64); err != nil || r.Since <= 0 {
					err = fmt.Errorf("%w: --since %q is not a time", ErrUsage, v)
				}
			}
		case "--seen":
			var v string
			if v, err = value(); err == nil {
				if r.LastSeen, err = strconv.ParseInt(v, 10, 64); err != nil || r.LastSeen <= 0 {
					err = fmt.Errorf("%w: --seen %q is not a time", ErrUsage, v)
				}
			}
		case "--remote":
			r.Remote, err = value()
		case "--remote-dir":
			r.RemoteDir, err = value()
		case "--direct":
			r.Direct = true
		case "--from-shell":
			r.FromShell = true
		case "--confirm":
			r.Confirm = true
		default:
			err = fmt.Errorf("%w: unknown argument %q", ErrUsage, a)
		}
		if err != nil {
			return r, err
		}
	}
	return r, fmt.Errorf("%w: no -- before the command", ErrUsage)
}
