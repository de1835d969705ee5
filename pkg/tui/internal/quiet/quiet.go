// Package quiet keeps the terminal libraries of the forms from asking the
// terminal anything while the program starts.
//
// bubbletea's init asks lipgloss whether the background is dark, and
// lipgloss asks the terminal on standard output (a background-colour and a
// cursor-position query) and waits up to 5 s for the answer: every command
// would write those queries and could stall. termenv takes os.Stdout when it
// is initialized. This package imports nothing outside the standard
// library, so Go initializes it before termenv (packages are initialized in
// import-path order among those whose imports are done, and termenv waits
// on github.com/mattn/go-isatty, which sorts after this module): its init
// puts a non-terminal in os.Stdout for termenv to take, and Restore, called
// by package tui's init once the form libraries are initialized, puts the
// real one back.
package quiet

import (
	"os"
	"syscall"
)

var stdout = os.Stdout

// init opens the null device as os.NewFile takes a descriptor, not as
// os.OpenFile opens a file: OpenFile would register it with the runtime's
// network poller (an epoll instance and an eventfd made, in every process,
// for a write that never comes).
func init() {
	if fd, err := syscall.Open(os.DevNull, syscall.O_WRONLY|syscall.O_CLOEXEC, 0); err == nil {
		os.Stdout = os.NewFile(uintptr(fd), os.DevNull)
	}
}

// Restore puts the real standard output back in os.Stdout. The null
// device stays open: termenv keeps it as its default output.
func Restore() { os.Stdout = stdout }
