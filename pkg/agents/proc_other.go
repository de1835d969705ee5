//go:build !unix

package agents

import "os/exec"

// killGroup: without process groups, exec kills the direct child only.
func killGroup(*exec.Cmd) {}
