package lease

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// A FIFO among the leases (the registry's lock, a lease file, the file an
// earlier kittymux wrote its holder to) never blocks Take or Find: the
// registry's is refused with an error that says so, the others are passed
// over, and the lease is taken.
func TestFIFOsAmongLeases(t *testing.T) {
	// A live process (not this one) whose lease the test holds: its
	// holder is read from other.json when other.lock holds nothing.
	other := strconv.Itoa(os.Getppid())
	for _, tc := range []struct {
		name  string
		fifo  string
		held  bool // other.lock is there, empty, and held
		taken bool // Take succeeds
	}{
		{"the registry", paths.LeasesRegistryName, false, false},
		{"a lease file", other + ".lock", false, true},
		{"an earlier holder's file", other + ".json", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "kittymux")
			dir := filepath.Join(state, paths.LeasesName)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(dir, tc.fifo), 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.held {
				f, err := os.OpenFile(filepath.Join(dir, other+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
					t.Fatal(err)
				}
			}
			type result struct {
				found *Holder
				l     *Lease
				err   error
			}
			done := make(chan result, 1)
			go func() {
				found := Find(state, "claude", "a21e57a7")
				l, _, err := Take(state, Holder{Agent: "claude", ID: "a21e57a7", PID: os.Getpid()})
				done <- result{found, l, err}
			}()
			select {
			case r := <-done:
				defer r.l.Release()
				if r.found != nil {
					t.Errorf("Find = %+v, want none", r.found)
				}
				if tc.taken && r.err != nil {
					t.Errorf("Take: %v", r.err)
				}
				if !tc.taken && !errors.Is(r.err, userfile.ErrNotRegular) {
					t.Errorf("Take: %v, want the FIFO refused", r.err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still blocked on the FIFO after 20 s")
			}
		})
	}
}
