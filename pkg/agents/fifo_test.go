package agents

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

// envProcs is a process whose environment is env.
type envProcs map[string]string

func (e envProcs) Env(_ int, k string) string { return e[k] }
func (envProcs) OpenFiles(int) []string       { return nil }

// The agents' own files (claude's sessions/<pid>.json, codex's config.toml)
// may be a FIFO any program of the user put there:
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
	for _, tc := range []struct {
		name string
		read func() error // nil: passed over; else the error, which must say what is there
	}{
		{"claude's sessions/<pid>.json", func() error {
			fifo("claude/sessions/4242.json")
			if _, ok := claudeReadID(envProcs{"CLAUDE_CONFIG_DIR": filepath.Join(dir, "claude")}, []int{4242}); ok {
				return errors.New("read an id from a FIFO")
			}
			return nil
		}},
		{"codex's config.toml", func() error {
			fifo("codex/config.toml")
			if trusted, why := codexTrust(filepath.Join(dir, "codex", "hooks.json"), []HookGroup{{Event: "Stop"}}); trusted || why != "" {
				return errors.New(why)
			}
			return errors.New("trusted, or no reason given")
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
