package host

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
)

// CheckMain is `kittymux-resume --remote-check ARGS` on the host; it
// returns an exit code only when nothing could be exec'd.
func CheckMain(args []string) int {
	p := paths.FromEnv()
	h := Host{Out: os.Stderr, Getenv: os.Getenv, LookPath: exec.LookPath, Chdir: os.Chdir,
		Exec:    func(path string, argv []string) error { return syscall.Exec(path, argv, os.Environ()) },
		Run:     run,
		Journal: func() (*journal.File, error) { return journal.New(p.Journal(), false).Read() }}
	r, err := ParseRequest(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kittymux: %v: a shell here instead.\r\n", err)
		_ = h.shell()
		return 2
	}
	set, err := agents.Load(p.UserAgents())
	if set == nil {
		fmt.Fprintf(os.Stderr, "kittymux: agent definitions: %v\r\n", err)
	}
	h.Agents = set
	var exited Exited
	if err := Check(h, r); errors.As(err, &exited) {
		return int(exited)
	}
	return 1
}

// run runs the agent on this terminal, in its foreground process group,
// and returns its exit status. The terminal's interrupt and quit keys are
// the agent's: here they are caught and let go (a caught signal, unlike an
// ignored one, is the default again in the agent).
func run(path string, argv []string) (int, error) {
	c := exec.Command(path, argv[1:]...)
	c.Args[0] = argv[0]
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGQUIT)
	defer signal.Stop(sig)
	if err := c.Start(); err != nil {
		return 0, err
	}
	err := c.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return 0, err
	}
	return c.ProcessState.ExitCode(), nil
}
