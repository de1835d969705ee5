package userfile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

// A terminal where a file is expected is refused, and opening it to find
// that out does not make it the process's controlling terminal: the
// scanner runs in a session of its own (setsid) with none, where an open
// without O_NOCTTY would take one, and with it kitty's SIGHUP when that
// terminal closes.
func TestOpenTakesNoTerminal(t *testing.T) {
	if tty := os.Getenv("USERFILE_TEST_TTY"); tty != "" {
		// The child: a session leader without a controlling terminal.
		f, err := Open(tty)
		if err == nil {
			f.Close()
		}
		fmt.Printf("refused=%v ctty=%s\n", errors.Is(err, ErrNotRegular), controllingTTY())
		return
	}
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer slave.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenTakesNoTerminal$")
	cmd.Env = append(os.Environ(), "USERFILE_TEST_TTY="+slave.Name())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "refused=true ctty=0\n") {
		t.Errorf("opening %s from a session without a terminal:\n%s", slave.Name(), out)
	}
}

// controllingTTY is the tty_nr field of /proc/self/stat: 0 when the
// process has no controlling terminal.
func controllingTTY() string {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return err.Error()
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 5 {
		return "unreadable"
	}
	return fields[4] // state ppid pgrp session tty_nr
}
