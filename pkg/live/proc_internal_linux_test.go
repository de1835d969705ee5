package live

import (
	"os"
	"path/filepath"
	"testing"
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
