package host

import (
	"fmt"
	"os"
	"os/exec"
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
	_ = Check(h, r)
	return 1
}
