package prompt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// Choice is what the prompt ends in.
type Choice string

const (
	ChoiceResume Choice = "resume"
	ChoiceNew    Choice = "new"
	ChoiceShell  Choice = "shell"
)

// Env is everything the prompt touches outside itself; Main fills it from
// the process, tests replace parts.
type Env struct {
	In       *os.File // the terminal, when there is one
	Out      io.Writer
	Getenv   func(string) string
	Paths    paths.Paths
	Now      func() time.Time
	LookPath func(string) (string, error)
	// Exec replaces the process with argv, its environment plus env; it
	// returns only on failure.
	Exec func(path string, argv, env []string) error
	// Key is the sealing key; nil when this machine has none (then no
	// record is sealed).
	Key []byte
	// Validate checks a record read from the editable session file and
	// returns the path of the program to run. sealed: its seal held, so
	// what kittymux saw (its Exe, environment that loads code) is trusted.
	Validate func(r Record, sealed bool) (string, error)
	// NewArgv is the command for a new conversation of the record's agent.
	NewArgv func(Record) ([]string, error)
	// LatestPerDir reports whether the agent's latest conversation is that
	// of the directory it starts in (claude --continue), so the question
	// can say so; nil: not known, so not said.
	LatestPerDir func(agent string) bool
	// IsTerminal reports whether In is a terminal.
	IsTerminal func() bool
	// Outcome records what the window became, before it becomes it (the
	// restore report); nil records nothing.
	Outcome func(journal.Restore)
}

// resumeAllFor is how long `a` keeps answering the other waiting windows.
const resumeAllFor = 2 * time.Minute

// Run validates r, asks (or not), and execs the answer. It returns only when
// nothing could be exec'd; the error says why.
//
// A sealed record runs as the user chose: asked, or not (auto modes, a
// --direct save, no terminal to ask). A record whose seal does not hold was
// edited by hand or copied from another machine: if it still validates it
// is shown in full, marked edited, and runs only on a key press; with no
// terminal it does not run and a shell opens.
func Run(e *Env, r Record) error {
	sealErr := r.Verify(e.Key)
	sealed := sealErr == nil
	path, err := e.Validate(r, sealed)
	switch {
	case errors.Is(err, agents.ErrNotInstalled):
		e.outcome(r, journal.OutcomeAgentMissing, err.Error(), false)
		fmt.Fprintf(e.Out, "kittymux: %s is not installed here (%v); opening a shell.\r\n", r.Agent, err)
		fmt.Fprintf(e.Out, "kittymux: the session file still holds the record; once %s is installed, restore again.\r\n", r.Agent)
		return e.shell(r)
	case err != nil:
		e.outcome(r, journal.OutcomeShell, err.Error(), false)
		fmt.Fprintf(e.Out, "kittymux: not resuming %s: %v\r\n", orAgent(r.Agent), err)
		return e.shell(r)
	}
	if where := e.openElsewhere(r); where != "" {
		return e.elsewhere(r, path, where)
	}
	if !sealed {
		fmt.Fprintf(e.Out, "kittymux: edited record: %v; check it before it runs.\r\n", sealErr)
		if !e.IsTerminal() {
			e.outcome(r, journal.OutcomeShell, "an edited record with no terminal to ask", false)
			fmt.Fprint(e.Out, "kittymux: no terminal to ask, so an edited record does not run; opening a shell.\r\n")
			return e.shell(r)
		}
	} else {
		switch {
		case r.Confirm && !e.IsTerminal():
			e.outcome(r, journal.OutcomeShell, "the command may hold a prompt and there is no terminal to ask", false)
			fmt.Fprintf(e.Out, "kittymux: not resuming %s without a key: %s may hold a prompt; opening a shell.\r\n", r.Agent, agents.Quote(r.Argv))
			return e.shell(r)
		case r.Confirm:
			// Asked even in auto mode: the user sees the whole command first.
		case !e.IsTerminal():
			// Nobody to ask: run the command the record holds.
			return e.resume(path, r, false)
		case r.Direct || e.Getenv("KITTYMUX_RESUME") == "auto" || exists(e.Paths.ResumeAuto()) || e.resumeAllActive():
			return e.resume(path, r, false)
		}
	}
	choice, err := e.ask(r, sealed)
	if err != nil {
		e.outcome(r, journal.OutcomeShell, err.Error(), false)
		fmt.Fprintf(e.Out, "\r\nkittymux: %v; opening a shell.\r\n", err)
		return e.shell(r)
	}
	switch choice {
	case ChoiceResume:
		return e.resume(path, r, true)
	case ChoiceNew:
		argv, err := e.NewArgv(r)
		if err != nil {
			e.outcome(r, journal.OutcomeShell, "cannot start a new conversation: "+err.Error(), true)
			fmt.Fprintf(e.Out, "kittymux: cannot start a new %s conversation: %v\r\n", r.Agent, err)
			return e.shell(r)
		}
		e.outcome(r, journal.OutcomeNew, "", true)
		return e.failed(r, e.exec(path, argv, r.Env))
	}
	e.outcome(r, journal.OutcomeShell, "chosen", true)
	return e.shell(r)
}

// outcome records what the window is about to become.
func (e *Env) outcome(r Record, what, why string, asked bool) {
	if e.Outcome == nil {
		return
	}
	e.Outcome(journal.Restore{At: e.Now(), Agent: r.Agent, Mode: r.Mode, ID: r.ID, Tab: r.Tab, Outcome: what, Why: why, Asked: asked})
}

// failed records that the command chosen could not be run (exec returned).
func (e *Env) failed(r Record, err error) error {
	if err != nil {
		e.outcome(r, journal.OutcomeFailed, err.Error(), false)
	}
	return err
}

func orAgent(a string) string {
	if a == "" {
		return "this window"
	}
	return a
}

func (e *Env) exec(path string, argv, env []string) error {
	err := e.Exec(path, argv, env)
	// Still here: the exec failed. Say so, and keep the window usable.
	fmt.Fprintf(e.Out, "kittymux: could not run %s: %v\r\n", agents.Quote(argv), err)
	return err
}

// shell gives the user a shell: back to the one that started us, or the
// user's login shell in this directory.
func (e *Env) shell(r Record) error {
	if r.FromShell {
		return nil
	}
	sh := e.Getenv("SHELL")
	if sh == "" {
		sh = "/bin/sh"
	}
	path, err := e.LookPath(sh)
	if err != nil {
		path = "/bin/sh"
	}
	// A leading "-" in argv[0] makes any shell a login shell.
	err = e.Exec(path, []string{"-" + filepath.Base(path)}, nil)
	fmt.Fprintf(e.Out, "kittymux: could not start %s: %v\r\n", path, err)
	return err
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// resumeAllActive: another window's `a` asked every waiting window to resume.
func (e *Env) resumeAllActive() bool {
	b, err := os.ReadFile(e.Paths.ResumeAllUntil())
	if err != nil {
		return false
	}
	until, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return err == nil && e.Now().Unix() < until
}

// setResumeAll answers the other waiting windows for a while. Failing to
// is no reason not to resume this one.
func (e *Env) setResumeAll() {
	if e.Paths.EnsureState() != nil {
		return
	}
	until := e.Now().Add(resumeAllFor).Unix()
	_ = statefile.WriteFile(e.Paths.StateDir, e.Paths.ResumeAllUntil(), []byte(strconv.FormatInt(until, 10)+"\n"))
}

func (e *Env) text(r Record, sealed bool) string {
	var b strings.Builder
	edited := ""
	if !sealed {
		edited = " (edited)"
	}
	switch r.Mode {
	case "exact":
		fmt.Fprintf(&b, "%s was running here — resume session %s?%s\r\n", r.Agent, short(r.ID), edited)
	case "latest":
		where := ""
		if e.LatestPerDir != nil && e.LatestPerDir(r.Agent) {
			where = " in this directory"
		}
		fmt.Fprintf(&b, "%s was running here — resume its latest conversation%s?%s\r\n", r.Agent, where, edited)
	default:
		fmt.Fprintf(&b, "%s was running here — its conversation id is unknown: start a new one?%s\r\n", r.Agent, edited)
	}
	if wd, err := os.Getwd(); err == nil {
		if home := e.Getenv("HOME"); home != "" && (wd == home || strings.HasPrefix(wd, home+"/")) {
			wd = "~" + wd[len(home):]
		}
		fmt.Fprintf(&b, "  %s\r\n", wd)
	}
	if line := e.journalLine(r); line != "" {
		fmt.Fprintf(&b, "  %s\r\n", line)
	} else if r.Tab != "" {
		fmt.Fprintf(&b, "  tab %q\r\n", r.Tab)
	}
	if !sealed {
		// An edited record is shown in full: the key press is the check.
		b.WriteString(e.commands(r))
	} else if r.Confirm {
		fmt.Fprintf(&b, "  check this command: a word in it may be a prompt\r\n  %s\r\n", agents.Quote(r.Argv))
	}
	first := "Enter resume"
	if r.Mode == "new" {
		first = "Enter start"
	}
	fmt.Fprintf(&b, "  %s   n new conversation   s shell   a resume all   i commands\r\n", first)
	return b.String()
}

func (e *Env) commands(r Record) string {
	var b strings.Builder
	env := ""
	if len(r.Env) > 0 {
		env = agents.Quote(r.Env) + " "
	}
	fmt.Fprintf(&b, "  Enter  %s%s\r\n", env, agents.Quote(r.Argv))
	if argv, err := e.NewArgv(r); err == nil {
		fmt.Fprintf(&b, "  n      %s%s\r\n", env, agents.Quote(argv))
	}
	if r.FromShell {
		b.WriteString("  s/Esc  back to the shell\r\n")
	} else {
		sh := e.Getenv("SHELL")
		if sh == "" {
			sh = "/bin/sh"
		}
		fmt.Fprintf(&b, "  s/Esc  %s (login shell)\r\n", sh)
	}
	return b.String()
}

// ask shows the question and waits for one key. It also resumes a sealed
// record when another window's `a` says so while this one waits.
func (e *Env) ask(r Record, sealed bool) (Choice, error) {
	fd := int(e.In.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	defer term.Restore(fd, old)
	fmt.Fprint(e.Out, e.text(r, sealed))

	keys := make(chan byte, 16)
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := e.In.Read(buf)
			for _, c := range buf[:n] {
				keys <- c
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			// Another window's `a` answers only sealed records that need no check.
			if sealed && !r.Confirm && e.resumeAllActive() {
				fmt.Fprint(e.Out, "resuming (another window chose: resume all)\r\n")
				return ChoiceResume, nil
			}
		case c, ok := <-keys:
			if !ok {
				return "", errors.New("terminal closed")
			}
			switch c {
			case '\r', '\n':
				if r.Mode == "new" {
					return ChoiceNew, nil
				}
				return ChoiceResume, nil
			case 'n', 'N':
				return ChoiceNew, nil
			case 's', 'S', 3, 4: // Ctrl-C and Ctrl-D also mean "just a shell"
				return ChoiceShell, nil
			case 'a', 'A':
				e.setResumeAll()
				if r.Mode == "new" {
					return ChoiceNew, nil
				}
				return ChoiceResume, nil
			case 'i', 'I':
				fmt.Fprint(e.Out, e.commands(r))
			case 0x1b:
				// A lone Esc is "shell"; Esc followed at once by more bytes
				// is a key's escape sequence (arrows, ...): ignore it.
				if !drainSequence(keys) {
					return ChoiceShell, nil
				}
			}
		}
	}
}

// drainSequence reads the rest of an escape sequence; false when none came.
func drainSequence(keys <-chan byte) bool {
	got := false
	for {
		select {
		case _, ok := <-keys:
			if !ok {
				return got
			}
			got = true
		case <-time.After(40 * time.Millisecond):
			return got
		}
	}
}
