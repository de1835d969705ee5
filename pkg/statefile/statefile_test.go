package statefile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/userfile"
)

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// Directories end 0700 and files 0600 whatever the umask and whatever modes
// were there before. Umask is per process: these subtests do not run in
// parallel.
func TestWriteFileModes(t *testing.T) {
	for _, umask := range []int{0, 0o022, 0o777} {
		t.Run(fs.FileMode(umask).String(), func(t *testing.T) {
			old := syscall.Umask(umask)
			defer syscall.Umask(old)
			state := filepath.Join(t.TempDir(), "home", "state", "kittymux")
			file := filepath.Join(state, "sessions", "work.kitty-session")
			if err := WriteFile(state, file, []byte("one\n")); err != nil {
				t.Fatal(err)
			}
			got := []fs.FileMode{mode(t, state), mode(t, filepath.Dir(file)), mode(t, file)}
			if diff := cmp.Diff([]fs.FileMode{0o700, 0o700, 0o600}, got); diff != "" {
				t.Errorf("new: (-want +got):\n%s", diff)
			}
			// Loose modes left by something else are tightened.
			syscall.Umask(0)
			for _, p := range []string{state, filepath.Dir(file)} {
				if err := os.Chmod(p, 0o777); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chmod(file, 0o666); err != nil {
				t.Fatal(err)
			}
			syscall.Umask(umask)
			if err := WriteFile(state, file, []byte("two\n")); err != nil {
				t.Fatal(err)
			}
			got = []fs.FileMode{mode(t, state), mode(t, filepath.Dir(file)), mode(t, file)}
			if diff := cmp.Diff([]fs.FileMode{0o700, 0o700, 0o600}, got); diff != "" {
				t.Errorf("rewritten: (-want +got):\n%s", diff)
			}
			if b, _ := os.ReadFile(file); string(b) != "two\n" {
				t.Errorf("content %q", b)
			}
		})
	}
}

// snapshot records every name, mode and content under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			v += " " + string(b)
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A state directory, or a directory under it, that is a link is refused
// with its name, and what the link points at is left exactly as it was.
func TestSymlinkedDirectoriesRefused(t *testing.T) {
	tests := []struct {
		name string
		link func(state, target string) error // makes the link, returns nothing
		bad  func(state string) string        // the directory the error must name
	}{
		{
			name: "state directory",
			link: func(state, target string) error { return os.Symlink(target, state) },
			bad:  func(state string) string { return state },
		},
		{
			name: "sessions directory",
			link: func(state, target string) error {
				if err := os.Mkdir(state, 0o700); err != nil {
					return err
				}
				return os.Symlink(target, filepath.Join(state, "sessions"))
			},
			bad: func(state string) string { return filepath.Join(state, "sessions") },
		},
		{
			name: "relative link inside the state directory",
			link: func(state, target string) error {
				if err := os.MkdirAll(filepath.Join(state, "real"), 0o700); err != nil {
					return err
				}
				return os.Symlink("real", filepath.Join(state, "sessions"))
			},
			bad: func(state string) string { return filepath.Join(state, "sessions") },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			target := filepath.Join(tmp, "elsewhere")
			if err := os.Mkdir(target, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(target, "mine"), []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			state := filepath.Join(tmp, "kittymux")
			if err := tc.link(state, target); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, tmp)
			err := WriteFile(state, filepath.Join(state, "sessions", "work.kitty-session"), []byte("x\n"))
			if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), tc.bad(state)+" ") {
				t.Errorf("err = %v, want %v naming %s", err, ErrSymlink, tc.bad(state))
			}
			if tc.name == "sessions directory" {
				// Making the parent alone still works: only the link is refused.
				d, err := Make(state)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := d.MakeSub("sessions"); !errors.Is(err, ErrSymlink) {
					t.Errorf("MakeSub: %v", err)
				}
				d.Close()
			}
			if diff := cmp.Diff(before, snapshot(t, tmp)); diff != "" {
				t.Errorf("something changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestNotADirectoryRefused(t *testing.T) {
	state := filepath.Join(t.TempDir(), "kittymux")
	if err := os.WriteFile(state, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Make(state); !errors.Is(err, ErrNotDir) || !strings.Contains(err.Error(), state) {
		t.Errorf("Make: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing directory: %v", err)
	}
}

func TestWriteFileRefusesPathsOutside(t *testing.T) {
	state := filepath.Join(t.TempDir(), "kittymux")
	for _, p := range []string{state, filepath.Dir(state) + "/x", state + "/../x", "/etc/passwd"} {
		if err := WriteFile(state, p, []byte("x")); err == nil {
			t.Errorf("WriteFile(%s) accepted", p)
		}
	}
	d, err := Make(state)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, rel := range []string{"..", "../x", "/abs"} {
		if _, err := d.MakeSub(rel); err == nil {
			t.Errorf("MakeSub(%s) accepted", rel)
		}
	}
	for _, name := range []string{"", ".", "..", "a/b"} {
		if err := d.WriteFile(name, []byte("x")); err == nil {
			t.Errorf("WriteFile(%q) accepted", name)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(state), "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file was written outside: %v", err)
	}
}

// A temp file a killed writer left is removed by the next write in its
// directory; one a live writer holds (locked) is not; other files stay.
func TestStaleTempFilesRemoved(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "sessions")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(".work.kitty-session5577006791947779410")
	write(".resume-check.json12")
	write("..new-kitty-work.kitty-session42") // the temp of a dot-file
	live := write(".other.kitty-session8674665223082153551")
	write(".raw-work-123.kitty-session") // save's own temp: not renameio's naming
	write("keep.kitty-session")
	write(".hidden")
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(state, filepath.Join(dir, "work.kitty-session"), []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	want := []string{".hidden", ".other.kitty-session8674665223082153551", ".raw-work-123.kitty-session", "keep.kitty-session", "work.kitty-session"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// No temp file is made outside the destination's directory, whatever TMPDIR
// says.
func TestNoTempFileElsewhere(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	state := filepath.Join(t.TempDir(), "kittymux")
	for i := range 3 {
		if err := WriteFile(state, filepath.Join(state, "f.json"), []byte{byte('0' + i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{tmp, state} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if e.Name() != "f.json" {
				t.Errorf("left in %s: %s", d, e.Name())
			}
		}
	}
}

// A FIFO where a state file, a lock or a log is expected is refused at
// once: opening one for reading would block until a writer came.
func TestFIFOsRefused(t *testing.T) {
	d, err := Make(filepath.Join(t.TempDir(), "kittymux"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := syscall.Mkfifo(filepath.Join(d.Path(), "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		open func() error
	}{
		{"ReadFile", func() error { _, err := d.ReadFile("fifo"); return err }},
		{"OpenLock", func() error { _, err := d.OpenLock("fifo"); return err }},
		{"OpenInPlace", func() error { _, err := d.OpenInPlace("fifo", os.O_RDONLY); return err }},
		{"OpenInPlace to append", func() error {
			_, err := d.OpenInPlace("fifo", os.O_WRONLY|os.O_APPEND|os.O_CREATE)
			return err
		}},
		{"OpenRead", func() error { _, err := d.OpenRead("fifo"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- tc.open() }()
			select {
			case err := <-done:
				if !errors.Is(err, userfile.ErrNotRegular) {
					t.Errorf("err = %v, want not a regular file", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still blocked on the FIFO after 20 s")
			}
		})
	}
}

// Flock waits for a lock another open holds only until ctx ends.
func TestFlockBounded(t *testing.T) {
	d, err := Make(filepath.Join(t.TempDir(), "kittymux"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	holder, err := d.OpenLock("x.lock")
	if err != nil {
		t.Fatal(err)
	}
	if err := Flock(context.Background(), holder, syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	other, err := d.OpenLock("x.lock")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := Flock(ctx, other, syscall.LOCK_EX); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v while another holds it, want the deadline", err)
	}
	if ok, err := TryFlock(other, syscall.LOCK_EX); ok || err != nil {
		t.Fatalf("TryFlock = %v, %v while another holds it", ok, err)
	}
	holder.Close()
	if err := Flock(context.Background(), other, syscall.LOCK_EX); err != nil {
		t.Fatalf("err = %v once it is free", err)
	}
	other.Close()
	third, err := d.OpenLock("x.lock")
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	if ok, err := TryFlock(third, syscall.LOCK_EX); !ok || err != nil {
		t.Fatalf("TryFlock = %v, %v once it is free", ok, err)
	}
}

// otherOwner is a directory's FileInfo as another user's directory shows.
type otherOwner struct{ fs.FileInfo }

func (o otherOwner) Sys() any {
	st := *o.FileInfo.Sys().(*syscall.Stat_t)
	st.Uid = uint32(os.Geteuid() + 1)
	return &st
}

// A state directory another user owns (a shared /tmp, an XDG_STATE_HOME
// that points into someone else's home, kittymux run under sudo) is
// refused: that user could read, replace or link what is written there.
func TestOtherUsersDirectoryRefused(t *testing.T) {
	dir := t.TempDir()
	fi, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkDir(dir, fi); err != nil {
		t.Fatalf("the user's own directory: %v", err)
	}
	err = checkDir(dir, otherOwner{fi})
	if !errors.Is(err, ErrNotOwned) || !strings.Contains(err.Error(), dir+" (uid ") {
		t.Errorf("another user's directory: %v, want %v naming it", err, ErrNotOwned)
	}
	if os.Geteuid() != 0 {
		return // only root can give a directory away: the rest is CI's
	}
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(filepath.Join(state, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(filepath.Join(state, "sessions"), 65534, 65534); err != nil {
		t.Fatal(err)
	}
	top, err := Make(state)
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	if _, err := top.MakeSub("sessions"); !errors.Is(err, ErrNotOwned) {
		t.Errorf("a sub-directory another user owns: %v, want %v", err, ErrNotOwned)
	}
	if err := os.Chown(state, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := Make(state); !errors.Is(err, ErrNotOwned) {
		t.Errorf("a state directory another user owns: %v, want %v", err, ErrNotOwned)
	}
}
