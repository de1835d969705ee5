package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/probe"
)

// TestRetention: claude deletes transcripts older than cleanupPeriodDays
// (30 unless set) while the journal keeps 90 days; doctor says so and
// names the setting that keeps them, and is content when it is 90 or more.
func TestRetention(t *testing.T) {
	home := t.TempDir()
	f, _ := testFactory(t, nil)
	f.Getenv = func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	installed := []probe.AgentCheck{{Agent: "claude", Installed: true}, {Agent: "codex", Installed: true}}
	for _, c := range []struct {
		name, file string
		ok         bool
		want       string
	}{
		{"unset: claude's default", "", false, `deletes conversations after 30 days (its default; cleanupPeriodDays in ` + settings +
			` is not set), the journal keeps them 90: older ones cannot be resumed; set "cleanupPeriodDays": 90 in ` + settings + ` to keep them`},
		{"shorter", `{"cleanupPeriodDays": 7, "hooks": {}}`, false, "deletes conversations after 7 days (cleanupPeriodDays in " + settings + ")"},
		{"long enough", `{"cleanupPeriodDays": 365}`, true, "keeps conversations 365 days (cleanupPeriodDays in " + settings + "), the journal 90: ok"},
		{"not a number", `{"cleanupPeriodDays": "forever"}`, false, "cleanupPeriodDays is not a number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(filepath.Dir(settings))
			if c.file != "" {
				os.MkdirAll(filepath.Dir(settings), 0o700)
				if err := os.WriteFile(settings, []byte(c.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			rs := checkRetention(Options{}.From(f), installed)
			if len(rs) != 1 || rs[0].Agent != "claude" {
				t.Fatalf("reports %+v, want claude's only (codex deletes nothing on its own)", rs)
			}
			if rs[0].OK != c.ok || !strings.Contains(rs[0].Note, c.want) {
				t.Errorf("ok %v note %q, want ok %v and %q", rs[0].OK, rs[0].Note, c.ok, c.want)
			}
		})
	}
	// CLAUDE_CONFIG_DIR moves the settings file.
	f.Getenv = func(k string) string { return map[string]string{"HOME": home, "CLAUDE_CONFIG_DIR": "/cfg"}[k] }
	if rs := checkRetention(Options{}.From(f), installed); len(rs) != 1 || rs[0].File != "/cfg/settings.json" {
		t.Errorf("CLAUDE_CONFIG_DIR: %+v", rs)
	}
}
