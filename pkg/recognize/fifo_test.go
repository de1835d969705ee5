package recognize

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// A script that may be an agent may be a FIFO any program of the user put there:
// each reader passes over it, or says it is not a file, at once, where a
// plain read would wait for a writer that never comes.
func TestScriptRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := func(rel string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		read func() error // nil: passed over; else the error, which must say what is there
	}{
		{"a script", func() error {
			if _, ok := shebang(fifo("script")); ok {
				return errors.New("a FIFO taken for a script")
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- tc.read() }()
			select {
			case err := <-done:
				if err != nil && !errors.Is(err, userfile.ErrNotRegular) && !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
					t.Errorf("err = %v", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still blocked on the FIFO after 20 s")
			}
		})
	}
}
