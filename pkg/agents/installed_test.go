package agents_test

import (
	"strings"
	"testing"
)

// CheckInstalled accepts an installed agent; the error of another says
// whether it is defined, and names the agents installed.
func TestCheckInstalled(t *testing.T) {
	s := loadShipped(t)
	installed := map[string]string{"codex": "/bin/codex", "claude": "/bin/claude"}
	if err := s.CheckInstalled(installed, "claude"); err != nil {
		t.Errorf("installed: %v", err)
	}
	err := s.CheckInstalled(map[string]string{"codex": "/bin/codex"}, "claude")
	if err == nil || !strings.Contains(err.Error(), "agent claude is not installed (not on PATH); installed: codex") {
		t.Errorf("defined, not installed: %v", err)
	}
	err = s.CheckInstalled(nil, "nope")
	if err == nil || err.Error() != `unknown agent "nope"; none is installed` {
		t.Errorf("unknown: %v", err)
	}
}
