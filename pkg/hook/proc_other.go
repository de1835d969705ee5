//go:build !linux && !darwin

package hook

import "os"

// Ancestors knows only the hook's parent here.
func Ancestors(stop int) []Proc {
	if p := os.Getppid(); p > 1 && p != stop {
		return []Proc{{PID: p}}
	}
	return nil
}
