package scanner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// The lock is held from Lock to Unlock: Current sees it running, a second
// Lock is told one runs; once released, the next Lock takes it.
func TestLock(t *testing.T) {
	state := filepath.Join(t.TempDir(), "kittymux")
	if st := Current(state); st.Running || st.Problem != "" {
		t.Fatalf("no state directory: %+v", st)
	}
	held, err := Lock(t.Context(), state)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(LockPath(state)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v %v", fi, err)
	}
	if st := Current(state); !st.Running || st.Problem != "" {
		t.Errorf("held: %+v", st)
	}
	if _, err := Lock(t.Context(), state); !errors.Is(err, ErrRunning) {
		t.Errorf("second Lock: %v, want ErrRunning", err)
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	if st := Current(state); st.Running || st.Problem != "" {
		t.Errorf("released: %+v", st)
	}
	again, err := Lock(t.Context(), state)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Unlock()
}

// A FIFO at the lock's path (or a link to one, or a link out of the state
// directory) is refused by Lock and reported by Current, at once: the lock
// file is opened by the state directory's rules before it is locked, never
// handed by name to a library that opens it (and blocks on a FIFO).
func TestLockRefusesWhatIsNotAFile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		place func(path string) error
		want  error
	}{
		{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }, userfile.ErrNotRegular},
		{"link to a FIFO", func(p string) error {
			if err := syscall.Mkfifo(p+".fifo", 0o600); err != nil {
				return err
			}
			return os.Symlink(filepath.Base(p)+".fifo", p)
		}, userfile.ErrNotRegular},
		{"link out of the state directory", func(p string) error {
			out := filepath.Join(filepath.Dir(filepath.Dir(p)), "elsewhere.lock")
			if err := os.WriteFile(out, nil, 0o600); err != nil {
				return err
			}
			return os.Symlink(out, p)
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "kittymux")
			d, err := statefile.Make(state)
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			if err := tc.place(LockPath(state)); err != nil {
				t.Fatal(err)
			}
			type result struct {
				lock error
				st   State
			}
			done := make(chan result, 1)
			go func() {
				_, err := Lock(context.Background(), state)
				done <- result{err, Current(state)}
			}()
			select {
			case r := <-done:
				if r.lock == nil || tc.want != nil && !errors.Is(r.lock, tc.want) {
					t.Errorf("Lock: %v, want it refused (%v)", r.lock, tc.want)
				}
				if r.st.Running || !strings.Contains(r.st.Problem, "scanner lock") {
					t.Errorf("Current: %+v", r.st)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still blocked on the lock's path after 20 s")
			}
		})
	}
}
