//go:build !unix

package probe

import "os/exec"

// killGroup: without process groups, exec kills the direct child only.
func killGroup(*exec.Cmd) {}
