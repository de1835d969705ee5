package procid

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestArgv: a report is read back for its process (pid and start) only;
// an argv out of bounds is not kept; writing one removes the reports of
// processes that are gone, and a report that is a link is not read.
func TestArgv(t *testing.T) {
	state := filepath.Join(t.TempDir(), "kittymux")
	self := Of(os.Getpid())
	if self.Start == "" {
		t.Skip("no process start here")
	}
	argv := []string{"/usr/bin/node", "/lib/pi/cli.js", "--model", "a b", "--thinking", "off"}
	if err := WriteArgv(state, self, argv); err != nil {
		t.Fatal(err)
	}
	if got, ok := ReadArgv(state, self); !ok || !slices.Equal(got, argv) {
		t.Errorf("ReadArgv = %q %v, want %q", got, ok, argv)
	}
	for _, id := range []ID{{PID: self.PID, Start: self.Start + "0"}, {PID: self.PID}, {PID: self.PID + 1, Start: self.Start}} {
		if got, ok := ReadArgv(state, id); ok {
			t.Errorf("ReadArgv(%+v) = %q, want none", id, got)
		}
	}
	if err := WriteArgv(state, ID{PID: self.PID}, argv); err == nil {
		t.Error("kept an argv without the process's start")
	}
	long := make([]string, maxArgs+1)
	for i := range long {
		long[i] = "x"
	}
	for _, bad := range [][]string{nil, {"a\x00b"}, long, {strings.Repeat("x", maxArgvBytes)}} {
		if err := WriteArgv(state, self, bad); !errors.Is(err, errBadArgv) {
			t.Errorf("WriteArgv(%.40q) = %v, want errBadArgv", bad, err)
		}
	}
	if got, _ := ReadArgv(state, self); !slices.Equal(got, argv) {
		t.Errorf("a refused argv replaced the report: %q", got)
	}

	// A report of a process that is gone goes with the next write.
	dir := filepath.Join(state, ArgvDirName)
	c := startSleep(t)
	gone := Of(c.Process.Pid)
	if err := WriteArgv(state, gone, argv); err != nil {
		t.Fatal(err)
	}
	_ = c.Process.Kill()
	_ = c.Wait()
	if err := WriteArgv(state, self, argv); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, strconv.Itoa(gone.PID))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the report of a process gone is still there: %v", err)
	}

	// A link in its place is not read.
	other := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(other, []byte(`{"start":"`+self.Start+`","argv":["x","--evil"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, strconv.Itoa(self.PID))
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, name); err != nil {
		t.Fatal(err)
	}
	if got, ok := ReadArgv(state, self); ok {
		t.Errorf("a link was read: %q", got)
	}
}
