package prompt

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/paths"
)

// Main is kittymux-resume: it returns an exit code only when it could not
// exec anything (or, from a shell's startup, when the answer is the shell).
func Main(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		// Run by a person, not from a session file: say what it is.
		fmt.Fprintf(os.Stderr, "kittymux-resume is the restore prompt kittymux writes into saved sessions.\n%v\n", ErrUsage)
		return 2
	}
	r, err := ParseArgs(args)
	p := paths.FromEnv()
	e := &Env{
		In: os.Stdin, Out: os.Stderr, Getenv: os.Getenv, Now: time.Now, LookPath: exec.LookPath,
		Paths: p,
		Exec: func(path string, argv, env []string) error {
			return syscall.Exec(path, argv, append(os.Environ(), env...))
		},
		IsTerminal: func() bool { return term.IsTerminal(int(os.Stdin.Fd())) },
	}
	if term.IsTerminal(int(os.Stdout.Fd())) {
		e.Out = os.Stdout
	}
	if err != nil {
		fmt.Fprintf(e.Out, "kittymux: this window's restore record is not valid: %v\r\n", err)
		_ = e.shell(r)
		return 1
	}
	set, loadErr := agents.Load(p.UserAgents())
	if set == nil {
		fmt.Fprintf(e.Out, "kittymux: agent definitions: %v\r\n", loadErr)
		_ = e.shell(r)
		return 1
	}
	e.Validate = func(r Record) error { return set.Validate(r.Agent, agents.Mode(r.Mode), r.ID, r.Argv) }
	e.NewArgv = func(r Record) ([]string, error) {
		c, ok := set.RecognizeArgv(r.Argv)
		if !ok {
			return nil, fmt.Errorf("%s is not a known agent command", r.Argv[0])
		}
		return set.ResumeArgv(c, agents.ModeNew, "")
	}
	if err := Run(e, r); err != nil {
		return 1
	}
	return 0
}
