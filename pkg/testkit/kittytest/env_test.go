//go:build linux

package kittytest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The test kitty's windows get the environment of a user's desktop, not of
// the machine the tests run on: no other kitty, display or state, and no CI
// marks (gemini runs headless under CI=true).
func TestIsolatedEnv(t *testing.T) {
	in := []string{"PATH=/usr/bin", "CI=true", "GITHUB_ACTIONS=true", "GITHUB_WORKSPACE=/w", "CI_JOB_ID=7",
		"KITTY_PID=1", "KITTYMUX_E2E=require", "HOME=/root", "XDG_STATE_HOME=/s", "DISPLAY=:0", "LANG=C.UTF-8",
		"CIRCLECI=true", "BUILD_NUMBER=3", "CIPHER=x"}
	want := []string{"PATH=/usr/bin", "LANG=C.UTF-8", "CIPHER=x"}
	if diff := cmp.Diff(want, isolatedEnv(in)); diff != "" {
		t.Errorf("isolatedEnv (-want +got):\n%s", diff)
	}
}
