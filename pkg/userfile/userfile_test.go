package userfile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
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

// specials makes, in dir, one of each kind of file Open must refuse, and
// links to some of them; /dev/null stands for a device.
func specials(t *testing.T, dir string) map[string]string {
	t.Helper()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	for name, target := range map[string]string{"link-to-fifo": "fifo", "link-to-null": os.DevNull, "link-to-dir": "."} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{"FIFO": "fifo", "socket": "sock", "device": os.DevNull, "directory": ".",
		"link to a FIFO": "link-to-fifo", "link to a device": "link-to-null", "link to a directory": "link-to-dir"}
}

// Open refuses at once, and says what is there, anything but a regular
// file, whatever the path leads to.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plain"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if f, err := Open(filepath.Join(dir, "plain")); err != nil {
		t.Errorf("a regular file: %v", err)
	} else {
		f.Close()
	}
	for what, name := range specials(t, dir) {
		t.Run(what, func(t *testing.T) {
			path := name
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, name)
			}
			f, err := Open(path)
			if err == nil {
				f.Close()
			}
			if !errors.Is(err, ErrNotRegular) && !errors.Is(err, syscall.ENXIO) {
				t.Fatalf("err = %v, want it refused", err)
			}
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("err = %v: does not say what is there", err)
			}
		})
	}
}

// OpenInRoot opens as a state file is opened (read, read-write, created,
// appended; with O_NOFOLLOW a link is refused) and refuses the same kinds
// of file as Open, for each way of opening: a FIFO opened to write has no
// reader, and is refused by name all the same.
func TestOpenInRootRefuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plain"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	sp := specials(t, dir)
	if err := os.Symlink("plain", filepath.Join(dir, "link-to-plain")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// A link to a regular file is followed unless O_NOFOLLOW says not to,
	// which os.Root alone does not heed inside the root.
	if f, err := OpenInRoot(root, "link-to-plain", os.O_RDWR, 0); err != nil {
		t.Errorf("a link to a regular file: %v", err)
	} else {
		f.Close()
	}
	if f, err := OpenInRoot(root, "link-to-plain", os.O_RDWR|syscall.O_NOFOLLOW, 0); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("a link to a regular file, O_NOFOLLOW: %v, want ELOOP", err)
		if err == nil {
			f.Close()
		}
	}
	for _, flag := range []int{os.O_RDONLY, os.O_RDWR, os.O_RDWR | os.O_CREATE, os.O_WRONLY | os.O_APPEND | os.O_CREATE} {
		for _, nofollow := range []int{0, syscall.O_NOFOLLOW} {
			f, err := OpenInRoot(root, "plain", flag|nofollow, 0o600)
			if err != nil {
				t.Errorf("flag %#x: a regular file: %v", flag|nofollow, err)
			} else {
				f.Close()
			}
			for what, name := range sp {
				if filepath.IsAbs(name) || what == "link to a device" {
					continue // outside the root: os.Root refuses it
				}
				f, err := OpenInRoot(root, name, flag|nofollow, 0o600)
				if err == nil {
					f.Close()
				}
				link := strings.HasPrefix(what, "link")
				switch {
				case link && nofollow != 0 && errors.Is(err, syscall.ELOOP):
				case errors.Is(err, ErrNotRegular):
				case what == "directory" || what == "link to a directory":
					// A directory does not open for writing: EISDIR.
					if err == nil || flag == os.O_RDONLY {
						t.Errorf("flag %#x: %s: err = %v, want it refused", flag|nofollow, what, err)
					}
				default:
					t.Errorf("flag %#x: %s: err = %v, want it refused as not a regular file", flag|nofollow, what, err)
				}
			}
		}
	}
}

// Glob finds what filepath.Glob finds, a FIFO among the matches included
// (it is listed, not opened), and passes over a FIFO where a pattern's
// directory would be.
func TestGlob(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"x/1/a.conf", "x/2/b.conf", "x/2/c.txt", "y/3/d.conf"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"x/3", "x/2/e.conf"} {
		if err := syscall.Mkfifo(filepath.Join(dir, p), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, pat := range []string{"*/*/*.conf", "x/*/*", "x/2/*.conf", "x/[12]/?.conf", "x/2/b.conf", "x/9/b.conf", "*", "x/3/*"} {
		got, err := Glob(filepath.Join(dir, pat))
		want, werr := filepath.Glob(filepath.Join(dir, pat))
		if err != nil || werr != nil || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("Glob(%s) = %q, %v; filepath.Glob: %q, %v", pat, got, err, want, werr)
		}
	}
	if _, err := Glob(filepath.Join(dir, "[")); !errors.Is(err, filepath.ErrBadPattern) {
		t.Errorf("bad pattern: err = %v", err)
	}
}
