package background

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/save"
)

// TestWarmProbes: the probes run once as the scanner starts; a save after
// the warm-up finds them cached (the CLI is not run again) and usable.
func TestWarmProbes(t *testing.T) {
	bin := t.TempDir()
	runs := filepath.Join(t.TempDir(), "runs")
	// A gemini whose --help says what the definition's probe expects, and
	// which notes each run.
	script := "#!/bin/sh\necho run >> '" + runs + "'\necho 'Usage: gemini [options]'\necho '  -r, --resume  Resume a previous session'\n"
	if err := os.WriteFile(filepath.Join(bin, "gemini"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := paths.Paths{StateDir: t.TempDir(), ConfigDir: t.TempDir()}
	getenv := func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}
	lookPath := func(name string) (string, error) {
		p := filepath.Join(bin, name)
		_, err := os.Stat(p)
		return p, err
	}
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, format) }
	warmProbes(t.Context(), Options{Paths: p, Getenv: getenv, LookPath: lookPath, Logf: logf}, set)()
	b, _ := os.ReadFile(runs)
	ran := strings.Count(string(b), "run")
	if ran == 0 {
		t.Fatalf("the warm-up did not run gemini's probe (logged %q)", logged)
	}
	probes := save.Probes(t.Context(), set, save.ProbeOptions{Paths: p, LookPath: lookPath}, []string{"gemini"})
	g := probes["gemini"]
	if !g.Installed || !g.Cached || g.Error != "" || len(g.Missing) > 0 {
		t.Errorf("a save after the warm-up probes gemini as %+v, want it cached and usable", g)
	}
	if b, _ := os.ReadFile(runs); strings.Count(string(b), "run") != ran {
		t.Errorf("a save after the warm-up ran gemini again")
	}
}
