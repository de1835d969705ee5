// Package procid tells one process from another that later got its pid: a
// process is known by its pid and its start, read from the system when the
// process is first seen and compared before anything is done to it.
package procid

import "fmt"

// ID is a process as kittymux saw it: its pid and its start (Start). An
// empty Start is not known: nothing can be proved about the process.
type ID struct {
	PID   int    `json:"pid"`
	Start string `json:"start,omitempty"`
}

// Of reads pid's start now.
func Of(pid int) ID { return ID{PID: pid, Start: Start(pid)} }

// Start is when process pid started, as a token that two reads of one
// process give alike and a process that later gets its pid does not: on
// Linux the boot's id and the start in clock ticks after boot
// (/proc/PID/stat), on macOS the start the process table keeps. "" when
// it cannot be read (no such process, another system).
func Start(pid int) string {
	if pid <= 0 {
		return ""
	}
	return start(pid)
}

// Is reports whether the process with id's pid now is the one id names:
// both starts known and equal.
func (id ID) Is() bool {
	return id.Start != "" && Start(id.PID) == id.Start
}

func (id ID) String() string {
	if id.Start == "" {
		return fmt.Sprintf("pid %d", id.PID)
	}
	return fmt.Sprintf("pid %d (started %s)", id.PID, id.Start)
}
