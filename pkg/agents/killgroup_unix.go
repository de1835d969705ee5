//go:build unix

package agents

import (
	"os/exec"
	"syscall"
)

// KillGroup makes a run of an agent's CLI (a probe, a listing) a process group leader and kills the whole group
// on cancel: codex's and copilot's node wrappers leave a native child that
// would otherwise keep running (and keep the output pipe open).
func KillGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
