// Package logs names the logger kittymux's long-running parts (the
// scanner, autosave, the ended-session offer, the probes a save runs) are
// given: the daemon's log, or a test's t.Logf.
package logs

// Logf logs one line, printf style. A nil Logf logs nothing: call it
// through Printf.
type Logf func(format string, args ...any)

// Printf logs through l; with a nil l the line is dropped.
func (l Logf) Printf(format string, args ...any) {
	if l != nil {
		l(format, args...)
	}
}
