//go:build !linux && !darwin

package hookrun

// parentOf knows nothing of a process here: the walk stops after the
// hook's own parent.
func parentOf(int) (string, int, bool) { return "", 0, true }

// cmdlineOf knows no process's argv here.
func cmdlineOf(int) []string { return nil }

// ttyOf knows no process's terminal here.
func ttyOf(int) string { return "" }
