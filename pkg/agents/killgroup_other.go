//go:build !unix

package agents

import "os/exec"

// KillGroup: without process groups, exec kills the direct child only.
func KillGroup(*exec.Cmd) {}
