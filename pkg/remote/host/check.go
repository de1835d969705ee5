// Package host is kittymux on a host reached over ssh, at restore:
// `kittymux-resume --remote-check`, which the local restore prompt runs
// there (remote.CheckCommand), resumes a conversation only when the
// host's own journal confirms it.
package host

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/remote"
)

// Request is what `kittymux-resume --remote-check` is asked on the host.
type Request struct {
	Do    string
	Agent string
	ID    string
	Dir   string
}

// ErrUsage marks arguments that are not a request.
var ErrUsage = errors.New("usage: kittymux-resume " + remote.CheckFlag + " --do resume|new|shell --agent NAME --dir DIR [--id ID]")

// ParseRequest reads the arguments after remote.CheckFlag: each option once,
// with a value, and values that pass Hint.Check.
func ParseRequest(args []string) (Request, error) {
	var r Request
	seen := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		if i+1 >= len(args) || seen[args[i]] {
			return r, ErrUsage
		}
		seen[args[i]] = true
		v := args[i+1]
		switch args[i] {
		case "--do":
			r.Do = v
		case "--agent":
			r.Agent = v
		case "--id":
			r.ID = v
		case "--dir":
			r.Dir = v
		default:
			return r, fmt.Errorf("%w: unknown argument %q", ErrUsage, args[i])
		}
	}
	if r.Do != remote.DoResume && r.Do != remote.DoNew && r.Do != remote.DoShell || (r.Do == remote.DoResume) != (r.ID != "") {
		return r, ErrUsage
	}
	h := remote.Hint{Agent: r.Agent, ID: r.ID, Dir: r.Dir, Host: "host"}
	if r.ID == "" {
		h.ID = "x"
	}
	if err := h.Check(); err != nil {
		return r, err
	}
	return r, nil
}

// Host is what Check touches on the host.
type Host struct {
	Out      io.Writer
	Getenv   func(string) string
	LookPath func(string) (string, error)
	Chdir    func(string) error
	// Exec replaces the process (with the shell); it returns only on
	// failure.
	Exec func(path string, argv []string) error
	// Run runs the agent on this terminal and returns its exit status
	// (negative: ended by a signal), so that an agent that exits at once
	// leaves what it said on the screen and a shell under it.
	Run func(path string, argv []string) (int, error)
	// Now is the clock Run is timed with; nil: the system's.
	Now func() time.Time
	// Agents are the host's agent definitions.
	Agents *agents.Set
	// Journal reads the host's journal (nil: none).
	Journal func() (*journal.File, error)
}

// Confirmed is the host's journal record of r's conversation: a session
// of that agent whose hook, run on this host over ssh, reported that id in
// that directory. nil when there is none.
func Confirmed(f *journal.File, r Request) *journal.Record {
	if f == nil {
		return nil
	}
	var best *journal.Record
	for i := range f.Records {
		c := &f.Records[i]
		if c.Agent != r.Agent || c.ID != r.ID || c.IDFrom != journal.FromHook || c.Dir != r.Dir ||
			!strings.HasPrefix(c.Key, remote.HostSocket+"|") {
			continue
		}
		if best == nil || c.LastSeen.After(best.LastSeen) {
			best = c
		}
	}
	return best
}

// Check does r on the host: the conversation resumed only when the host's
// own journal confirms it (Confirmed), a new conversation, or a shell;
// whatever cannot be done or checked gives a shell in the directory, with
// a line saying why. It returns only when nothing could be exec'd.
func Check(h Host, r Request) error {
	if err := h.Chdir(r.Dir); err != nil {
		h.say("kittymux: %q is not a directory here (%v): a shell in the home directory instead.", r.Dir, err)
		return h.shell()
	}
	if r.Do == remote.DoShell {
		return h.shell()
	}
	argv, err := h.agentArgv(r)
	if err != nil {
		h.say("kittymux: %v: a shell here instead.", err)
		return h.shell()
	}
	start := h.now()
	code, err := h.Run(argv[0], argv)
	switch {
	case err != nil:
		h.say("kittymux: could not run %s: %v: a shell here instead.", recognize.Quote(argv), err)
	case code == 0 || h.now().Sub(start) >= AtOnce:
		// It ran, and ended as the user or the agent chose: the window
		// closes, as after an agent here.
		return Exited(code)
	default:
		// It could not start its conversation (a transcript gone, a
		// login asked): what it said stays above, with a shell under it.
		h.say("kittymux: %s exited at once (status %d): what it said is above; a shell here instead.", r.Agent, code)
	}
	return h.shell()
}

// AtOnce: an agent that fails within this of its start ends in a shell
// rather than closing its window.
const AtOnce = 10 * time.Second

// Exited is the exit status of an agent that ran (Host.Run).
type Exited int

func (e Exited) Error() string { return fmt.Sprintf("the agent exited with status %d", int(e)) }

func (h Host) now() time.Time {
	if h.Now == nil {
		return time.Now()
	}
	return h.Now()
}

// agentArgv is the command that does r: the agent as installed on the
// host's PATH, resuming r.ID only if the host's journal confirms it.
func (h Host) agentArgv(r Request) ([]string, error) {
	if h.Agents == nil {
		return nil, errors.New("no agent definitions")
	}
	def, ok := h.Agents.Definition(r.Agent)
	if !ok {
		return nil, fmt.Errorf("%q is not an agent kittymux knows", r.Agent)
	}
	var path string
	for _, p := range def.Programs {
		if got, err := h.LookPath(p); err == nil && filepath.IsAbs(got) {
			path = got
			break
		}
	}
	if path == "" {
		return nil, fmt.Errorf("%s is not installed on this host", r.Agent)
	}
	c := recognize.Command{Agent: r.Agent, Program: []string{path}}
	if r.Do == remote.DoNew {
		return plan.ResumeArgv(h.Agents, c, plan.ModeNew, "")
	}
	var f *journal.File
	if h.Journal != nil {
		var err error
		if f, err = h.Journal(); err != nil {
			return nil, fmt.Errorf("this host's journal cannot be read (%v), so %q cannot be checked", err, r.ID)
		}
	}
	if Confirmed(f, r) == nil {
		return nil, fmt.Errorf("this host's journal holds no %s session %q in %q reported by its hooks, so it is not resumed", r.Agent, r.ID, r.Dir)
	}
	return plan.ResumeArgv(h.Agents, c, plan.ModeExact, r.ID)
}

func (h Host) say(format string, args ...any) { fmt.Fprintf(h.Out, format+"\r\n", args...) }

// shell is the user's login shell, here.
func (h Host) shell() error {
	sh := h.Getenv("SHELL")
	if sh == "" || !filepath.IsAbs(sh) {
		sh = "/bin/sh"
	}
	err := h.Exec(sh, []string{"-" + filepath.Base(sh)})
	h.say("kittymux: could not start %s: %v", sh, err)
	return err
}
