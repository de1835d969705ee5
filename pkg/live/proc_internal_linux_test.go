package live

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// TestReadProcStart: a process's start is its boot's id and the clock
// tick field 22 of its stat holds, whatever its name's parentheses and
// blanks; without a boot id it is unknown.
func TestReadProcStart(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "123")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/bin/node", filepath.Join(dir, "exe")); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"cmdline": "pi\x00",
		"environ": "PATH=/bin\x00",
		// comm "a) b (c" with a space and parentheses, then fields 3..22.
		"stat": "123 (a) b (c) S 100 123 100 34816 123 4194560 1 0 0 0 0 0 0 0 20 0 1 0 98765 1000 10 18446744073709551615",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, ok := readProc(root, 123)
	if !ok || p.PPID != 100 || p.PGID != 123 || p.Start != "" {
		t.Fatalf("without a boot id: %+v %v, want ppid 100, pgid 123, no start", p, ok)
	}
	boot := filepath.Join(root, "sys", "kernel", "random")
	if err := os.MkdirAll(boot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(boot, "boot_id"), []byte("3f1c0e2a-7b4d-4e59-9a8b-1c2d3e4f5a6b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Spelt as procid spells a process's start, which the prompt compares.
	if p, _ := readProc(root, 123); p.Start != "3f1c0e2a-7b4d-4e59-9a8b-1c2d3e4f5a6b:98765" {
		t.Errorf("start %q", p.Start)
	}
}

// TestReadProcReported: an interpreter whose argv is its title alone takes
// the argv reported for its pid and start in the state directory; a report
// of another start (a process that had the pid before) is not taken, and a
// shell, or a process that shows its argv, reads no report. A poller reads
// a report it found once (Cached), until Forget.
func TestReadProcReported(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "123")
	boot := filepath.Join(root, "sys", "kernel", "random")
	for _, d := range []string{dir, boot} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/usr/bin/node", filepath.Join(dir, "exe")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(boot, "boot_id"): "b00t\n",
		filepath.Join(dir, "cmdline"):  "pi\x00",
		filepath.Join(dir, "environ"):  "PATH=/bin\x00",
		filepath.Join(dir, "stat"):     "123 (pi) S 100 123 100 34816 123 4194560 1 0 0 0 0 0 0 0 20 0 1 0 98765 1000 10 18446744073709551615",
	}
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(t.TempDir(), "kittymux")
	// The process as Records.ReadProc reads it, with r's report.
	read := func(r Records) recognize.Proc {
		t.Helper()
		p, ok := readProc(root, 123)
		if !ok {
			t.Fatal("process 123 not read")
		}
		p.Reported = r.reported(p)
		return p
	}
	argv := []string{"/usr/bin/node", "/lib/pi/cli.js", "--model", "m"}
	if err := procid.WriteArgv(state, procid.ID{PID: 123, Start: "b00t:98765"}, argv); err != nil {
		t.Fatal(err)
	}
	if p := read(Records{StateDir: state}); !slices.Equal(p.Reported, argv) || !slices.Equal(p.Argv, []string{"pi"}) {
		t.Errorf("titled, reported: %+v, want Reported %q", p, argv)
	}
	if p := read(Records{}); p.Reported != nil {
		t.Errorf("no state directory: reported %q", p.Reported)
	}
	if err := procid.WriteArgv(state, procid.ID{PID: 123, Start: "b00t:11111"}, argv); err != nil {
		t.Fatal(err)
	}
	if p := read(Records{StateDir: state}); p.Reported != nil {
		t.Errorf("a report of another start taken: %q", p.Reported)
	}
	if err := procid.WriteArgv(state, procid.ID{PID: 123, Start: "b00t:98765"}, argv); err != nil {
		t.Fatal(err)
	}
	// Only an interpreter's title is looked up: a shell or a native
	// program alone on its command line is read as it shows.
	if err := os.Remove(filepath.Join(dir, "exe")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/bin/bash", filepath.Join(dir, "exe")); err != nil {
		t.Fatal(err)
	}
	if p := read(Records{StateDir: state}); p.Reported != nil {
		t.Errorf("a shell took a report: %q", p.Reported)
	}
	if err := os.Remove(filepath.Join(dir, "exe")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/bin/node", filepath.Join(dir, "exe")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cmdline"), []byte("node\x00/lib/pi/cli.js\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := read(Records{StateDir: state}); p.Reported != nil {
		t.Errorf("a process showing its argv took a report: %q", p.Reported)
	}

	// A poller's Records reads a report found once, until Forget.
	if err := os.WriteFile(filepath.Join(dir, "cmdline"), []byte("pi\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	cached := Records{StateDir: state}.Cached()
	if p := read(cached); !slices.Equal(p.Reported, argv) {
		t.Fatalf("cached, first read: %q", p.Reported)
	}
	if err := os.RemoveAll(filepath.Join(state, procid.ArgvDirName)); err != nil {
		t.Fatal(err)
	}
	if p := read(cached); !slices.Equal(p.Reported, argv) {
		t.Errorf("cached, read again: %q, want the report found before", p.Reported)
	}
	cached.Forget(123)
	if p := read(cached); p.Reported != nil {
		t.Errorf("after Forget: %q, want none (the report is gone)", p.Reported)
	}
}
