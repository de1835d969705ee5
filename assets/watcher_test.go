package assets

import (
	"os"
	"os/exec"
	"testing"
)

// TestWatcherPython runs kitty_watcher_test.py: the watcher loaded as kitty
// loads it, on_quit called as kitty calls it (a fake boss), the processes
// it starts recorded by a fake kittymux. kitty itself runs on Python, so
// wherever kitty is, python3 is.
func TestWatcherPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("python3 is needed to test kitty's watcher: %v (KITTYMUX_E2E=require)", err)
		}
		t.Skipf("python3 is needed to test kitty's watcher: %v; KITTYMUX_E2E=require makes this fatal", err)
	}
	cmd := exec.Command(py, "-m", "unittest", "-v", "kitty_watcher_test")
	// No __pycache__ left in the repository.
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest kitty_watcher_test: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
