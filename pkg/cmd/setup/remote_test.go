package setup_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	cmdsetup "github.com/kittymux/kittymux/pkg/cmd/setup"
)

// setup --remote on a host: the agents' hooks and the state directory,
// and nothing of kitty (no kitty.conf, no watcher, no scanner unit).
func TestRemoteInstallsHooksWithoutKitty(t *testing.T) {
	f, out, root := testFactory(t, "")
	home := f.Getenv("HOME")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	o := cmdsetup.Options{Integrations: "yes", Remote: true, Systemd: noSystemd{}}.From(f)
	if err := cmdsetup.Run(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if !strings.Contains(string(b), "/opt/kittymux/bin/kittymux hook claude") {
		t.Errorf("hooks not installed:\n%s\n%s", out, b)
	}
	if fi, err := os.Stat(f.Paths.StateDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state directory: %v %v", fi, err)
	}
	for p := range tree(t, root) {
		if strings.Contains(p, filepath.Join(".config", "kitty")+string(filepath.Separator)) || strings.HasSuffix(p, ".service") ||
			strings.Contains(p, filepath.Join(".config", "kittymux")) {
			t.Errorf("setup --remote wrote %s", p)
		}
	}
	if !strings.Contains(out.String(), "kittymux-resume is not beside /opt/kittymux/bin/kittymux") {
		t.Errorf("output:\n%s", out)
	}
}
