package published

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Everything but a regular file under the cap is refused before it is read,
// and at once: the test fails rather than hangs if a refusal blocks.
func TestReadRawRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.kitty-session")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxRawSize+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       error
		wantText   string
	}{
		{"endless device", "/dev/zero", ErrNotRegular, "a character device"},
		{"FIFO with no writer", fifo, ErrNotRegular, "a FIFO"},
		{"directory", dir, ErrNotRegular, "a directory"},
		{"oversized", big, ErrTooLarge, "16777217 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := ReadRaw(tc.path)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.wantText) || !strings.Contains(err.Error(), tc.path) {
					t.Errorf("ReadRaw(%s) = %v, want %v naming %q and the path", tc.path, err, tc.want, tc.wantText)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadRaw(%s) blocked", tc.path)
			}
		})
	}
}

func TestReadRawReadsRegularFiles(t *testing.T) {
	dir := t.TempDir()
	for _, data := range []string{"new_tab\nlaunch\n", strings.Repeat("x", MaxRawSize)} {
		path := filepath.Join(dir, "raw.kitty-session")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadRaw(path)
		if err != nil || string(got) != data {
			t.Errorf("ReadRaw of %d bytes: %d bytes, %v", len(data), len(got), err)
		}
	}
	if _, err := ReadRaw(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
