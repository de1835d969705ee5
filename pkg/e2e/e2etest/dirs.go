package e2etest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// WorkDirs makes a directory of each name under one temp directory: the
// projects the agents of a test run in.
func WorkDirs(t *testing.T, names ...string) []string {
	t.Helper()
	work := t.TempDir()
	dirs := make([]string, len(names))
	for i, name := range names {
		dirs[i] = filepath.Join(work, name)
		if err := os.Mkdir(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// NeedCLI skips the test when the agent CLI name is not on PATH, or fails
// it under KITTYMUX_E2E=require.
func NeedCLI(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("%s is not on PATH; .ci/run installs it from npm", name)
		}
		t.Skipf("%s is not on PATH (KITTYMUX_E2E=require makes this fatal)", name)
	}
}
