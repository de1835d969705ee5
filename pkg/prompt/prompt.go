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

	"github.com/google/renameio/v2"
	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/paths"
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
	// Validate checks a record read from the editable session file.
	Validate func(Record) error
	// NewArgv is the command for a new conversation of the record's agent.
	NewArgv func(Record) ([]string, error)
	// IsTerminal reports whether In is a terminal.
	IsTerminal func() bool
}

// resumeAllFor is how long `a` keeps answering the other waiting windows.
const resumeAllFor = 2 * time.Minute

// Run validates r, asks (or not), and execs the answer. It returns only when
// nothing could be exec'd; the error says why.
func Run(e *Env, r Record) error {
	if err := e.Validate(r); err != nil {
		fmt.Fprintf(e.Out, "kittymux: not resuming %s: %v\r\n", orAgent(r.Agent), err)
		return e.shell(r)
	}
	path, err := e.LookPath(r.Argv[0])
	if err != nil {
		fmt.Fprintf(e.Out, "kittymux: %s is not installed here (%s not found); opening a shell.\r\n", r.Agent, r.Argv[0])
		fmt.Fprintf(e.Out, "kittymux: the session file still holds the record; once %s is installed, restore again.\r\n", r.Agent)
		return e.shell(r)
	}
	switch {
	case !e.IsTerminal():
		// Nobody to ask: run the command the record holds.
		return e.exec(path, r.Argv, r.Env)
	case r.Direct || e.Getenv("KITTYMUX_RESUME") == "auto" || exists(e.Paths.ResumeAuto()) || e.resumeAllActive():
		return e.exec(path, r.Argv, r.Env)
	}
	choice, err := e.ask(r)
	if err != nil {
		fmt.Fprintf(e.Out, "\r\nkittymux: %v; opening a shell.\r\n", err)
		return e.shell(r)
	}
	switch choice {
	case ChoiceResume:
		return e.exec(path, r.Argv, r.Env)
	case ChoiceNew:
		argv, err := e.NewArgv(r)
		if err != nil {
			fmt.Fprintf(e.Out, "kittymux: cannot start a new %s conversation: %v\r\n", r.Agent, err)
			return e.shell(r)
		}
		return e.exec(path, argv, r.Env)
	}
	return e.shell(r)
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
	_ = renameio.WriteFile(e.Paths.ResumeAllUntil(), []byte(strconv.FormatInt(until, 10)+"\n"), 0o600)
}

func (e *Env) text(r Record) string {
	var b strings.Builder
	switch r.Mode {
	case "exact":
		fmt.Fprintf(&b, "%s was running here — resume session %s?\r\n", r.Agent, short(r.ID))
	case "latest":
		fmt.Fprintf(&b, "%s was running here — resume its latest conversation in this directory?\r\n", r.Agent)
	default:
		fmt.Fprintf(&b, "%s was running here — its conversation id is unknown: start a new one?\r\n", r.Agent)
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

// ask shows the question and waits for one key. It also resumes when another
// window's `a` says so while this one waits.
func (e *Env) ask(r Record) (Choice, error) {
	fd := int(e.In.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	defer term.Restore(fd, old)
	fmt.Fprint(e.Out, e.text(r))

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
			if e.resumeAllActive() {
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
