package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
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
			rs := retentionWith(t, f, installed, settings, c.file)
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

// TestRetentionGemini: gemini deletes chats older than
// general.sessionRetention.maxAge ("30d" unless set), keeps only maxCount
// when that is set, and deletes nothing when enabled is false (its docs
// and its code, 0.61.0).
func TestRetentionGemini(t *testing.T) {
	home := t.TempDir()
	f, _ := testFactory(t, nil)
	f.Getenv = func(k string) string { return map[string]string{"HOME": home}[k] }
	settings := filepath.Join(home, ".gemini", "settings.json")
	installed := []probe.AgentCheck{{Agent: "gemini", Installed: true}}
	for _, c := range []struct {
		name, file string
		ok         bool
		days       int
		want       string
	}{
		{"unset: gemini's default", "", false, 30, `deletes conversations after 30 days (its default; general.sessionRetention.maxAge in ` +
			settings + ` is not set), the journal keeps them 90: older ones cannot be resumed; set general.sessionRetention.maxAge to "90d" in ` + settings},
		{"weeks", `{"general": {"sessionRetention": {"maxAge": "2w"}}}`, false, 14, "deletes conversations after 14 days (general.sessionRetention.maxAge in " + settings + ")"},
		{"hours: a part of a day is a day", `{"general": {"sessionRetention": {"maxAge": "36h"}}}`, false, 2, "deletes conversations after 2 days"},
		{"months", `{"general": {"sessionRetention": {"maxAge": "4m"}}}`, true, 120, "keeps conversations 120 days"},
		{"off", `{"general": {"sessionRetention": {"enabled": false, "maxAge": "1d"}}}`, true, 1, "deletes no conversations (general.sessionRetention.enabled is false in " + settings + "): ok"},
		{"a count", `{"general": {"sessionRetention": {"maxAge": "365d", "maxCount": 50}}}`, false, 365, "keeps only its 50 most recent conversations (general.sessionRetention.maxCount in " + settings + ")"},
		{"no unit", `{"general": {"sessionRetention": {"maxAge": "30"}}}`, false, 30, `general.sessionRetention.maxAge is not a number and a unit (h, d, w or m): "30"`},
		{"another shape", `{"general": "x"}`, false, 30, "deletes conversations after 30 days (its default"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs := retentionWith(t, f, installed, settings, c.file)
			if len(rs) != 1 || rs[0].Agent != "gemini" {
				t.Fatalf("reports %+v, want gemini's", rs)
			}
			if rs[0].OK != c.ok || rs[0].Days != c.days || !strings.Contains(rs[0].Note, c.want) {
				t.Errorf("ok %v days %d note %q, want ok %v, %d days and %q", rs[0].OK, rs[0].Days, rs[0].Note, c.ok, c.days, c.want)
			}
		})
	}
}

// retentionWith is doctor's retention check with the agent's settings file
// holding content ("": no file).
func retentionWith(t *testing.T, f *factory.Factory, installed []probe.AgentCheck, settings, content string) []RetentionReport {
	t.Helper()
	if err := os.RemoveAll(filepath.Dir(settings)); err != nil {
		t.Fatal(err)
	}
	if content != "" {
		if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(settings, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return checkRetention(Options{}.From(f), installed)
}
