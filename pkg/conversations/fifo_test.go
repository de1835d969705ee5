package conversations

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// The agents' own files (claude's settings.json, a background roster, a
// conversation file) may be a FIFO any program of the user put there:
// each reader passes over it, or says it is not a file, at once, where a
// plain read would wait for a writer that never comes.
func TestReadersRefuseFIFOs(t *testing.T) {
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
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		read func() error // nil: passed over; else the error, which must say what is there
	}{
		{"claude's settings.json", func() error {
			fifo("home/.claude/settings.json")
			k, ok := Retention(set, "claude", func(k string) string { return map[string]string{"HOME": filepath.Join(dir, "home")}[k] })
			if !ok {
				return errors.New("no retention for claude")
			}
			if k.Err == nil {
				return errors.New("no error for a FIFO")
			}
			return k.Err
		}},
		{"a background roster", func() error {
			fifo("bg/roster.json")
			if h := heldBy(filepath.Join(dir, "bg"), &agents.Background{Roster: "roster.json"}, "a21e57a7"); h != nil {
				return errors.New("held, by a FIFO")
			}
			return nil
		}},
		{"a conversation file", func() error {
			if d := recordedDir(fifo("conv.jsonl"), []string{"cwd"}); d != "" {
				return errors.New("a directory read from a FIFO")
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
