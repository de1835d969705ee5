package userfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("plain", "font_size 12\n")
	big := write("big", "0123456789")
	link := filepath.Join(dir, "link")
	if err := os.Symlink("plain", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		max  int64
		want string
		err  error
	}{
		{"regular", plain, 100, "font_size 12\n", nil},
		{"exactly the cap", big, 10, "0123456789", nil},
		{"link to a regular file", link, 100, "font_size 12\n", nil},
		{"over the cap", big, 9, "", ErrTooLarge},
		// A FIFO with no writer would block the open itself.
		{"FIFO", fifo, 100, "", ErrNotRegular},
		{"device", os.DevNull, 100, "", ErrNotRegular},
		{"directory", dir, 100, "", ErrNotRegular},
		{"missing", filepath.Join(dir, "none"), 100, "", fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Read(tc.path, tc.max)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("Read = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
