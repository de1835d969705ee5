package factory_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/kitty"
)

// TestLazy: the seal key and the agent definitions are made on first use
// and once; a command that needs neither (here --help) makes neither.
func TestLazy(t *testing.T) {
	f, _, errOut := factorytest.New(t)
	if err := os.MkdirAll(f.Paths.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	// A bad user file: the shipped definitions still load, with a warning.
	if err := os.WriteFile(f.Paths.UserAgents(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := root.Main(f, []string{"sessions", "save", "--help"}); code != 0 {
		t.Fatalf("--help: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(f.Paths.ResumeKey()); !os.IsNotExist(err) {
		t.Errorf("--help made the seal key (stat: %v)", err)
	}
	if errOut.Len() != 0 {
		t.Errorf("--help read the agent definitions: %q", errOut)
	}

	for range 2 {
		if set, err := f.Agents(); err != nil || set == nil {
			t.Fatalf("agents: %v", err)
		}
	}
	if n := strings.Count(errOut.String(), "warning"); n != 1 {
		t.Errorf("the bad definitions were reported %d times, want once:\n%s", n, errOut)
	}
	k1, err := f.SealKey()
	if err != nil {
		t.Fatal(err)
	}
	// Gone from disk: the Factory keeps the key it made, and makes none.
	if err := os.Remove(f.Paths.ResumeKey()); err != nil {
		t.Fatal(err)
	}
	k2, err := f.SealKey()
	if err != nil || !bytes.Equal(k1, k2) {
		t.Errorf("the second SealKey is %x (%v), want the first, %x", k2, err, k1)
	}
	if _, err := os.Stat(f.Paths.ResumeKey()); !os.IsNotExist(err) {
		t.Errorf("the second SealKey made the key again (stat: %v)", err)
	}
}

// TestReportHint: an error that a kitty of one's own is not reachable gets
// the setup hint; another user's socket does not, its error says what to do.
func TestReportHint(t *testing.T) {
	for _, c := range []struct {
		err  error
		hint bool
	}{
		{fmt.Errorf("connect: %w", kitty.ErrNoSocket), true},
		{fmt.Errorf("ls: %w", kitty.ErrRefused), true},
		{fmt.Errorf("kitty socket: belongs to nobody: %w", kitty.ErrNotYours), false},
		{fmt.Errorf("ls: %w", kitty.ErrTimeout), false},
	} {
		var b strings.Builder
		if code := factory.ReportHint(&b, c.err, "HINT: run kittymux setup"); code != factory.ExitError {
			t.Errorf("%v: exit %d", c.err, code)
		}
		if got := strings.Contains(b.String(), "HINT"); got != c.hint {
			t.Errorf("%v: hint %v, want %v:\n%s", c.err, got, c.hint, b.String())
		}
	}
}
