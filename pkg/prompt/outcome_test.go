package prompt_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
)

// TestOutcomeRecorded: each answer is written to the journal before the
// window becomes it, for `sessions restore` to report.
func TestOutcomeRecorded(t *testing.T) {
	piRecord := []string{"--agent", "pi", "--mode", "exact", "--id", uuid, "--", "pi", "--session", uuid}
	const ses = "ses_2b9f0c4e1ffeJq7yYV3xQm2Lk8"
	opencodeRecord := []string{"--agent", "opencode", "--mode", "exact", "--id", ses, "--", "opencode", "--session", ses}
	cases := []struct {
		name   string
		args   []string
		keys   string
		ask    bool
		env    []string
		want   journal.Restore
		wantBy string // the outcome's why says this (and is not compared whole); "" for none
	}{
		{"Enter", claudeRecord(), "\r", true, nil,
			journal.Restore{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api work", Outcome: journal.OutcomeResumed, Asked: true}, ""},
		{"n", claudeRecord(), "n", true, nil,
			journal.Restore{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api work", Outcome: journal.OutcomeNew, Asked: true}, ""},
		{"s", claudeRecord(), "s", true, nil,
			journal.Restore{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api work", Outcome: journal.OutcomeShell, Why: "chosen", Asked: true}, ""},
		{"auto", claudeRecord(), "", false, []string{"KITTYMUX_RESUME=auto", "KITTY_PID=77", "KITTY_WINDOW_ID=5"},
			journal.Restore{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api work", Outcome: journal.OutcomeResumed, KittyPID: 77, WindowID: 5}, ""},
		{"agent missing", piRecord, "", false, nil,
			journal.Restore{Agent: "pi", Mode: "exact", ID: uuid, Outcome: journal.OutcomeAgentMissing}, "pi"},
		{"not checked", opencodeRecord, "\r", true, nil,
			journal.Restore{Agent: "opencode", Mode: "exact", ID: ses, Outcome: journal.OutcomeResumed, Asked: true},
			"not checked that opencode still has it: opencode keeps its sessions in an SQLite database"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.extraEnv = c.env
			start := time.Now().Add(-time.Second)
			r := w.runPTY(w.seal(c.args), c.keys, c.ask)
			j := journal.New(filepath.Join(w.state, "agent-sessions.json"), false)
			got, err := j.RestoresSince(start)
			if err != nil || len(got) != 1 {
				t.Fatalf("restores: %+v, %v\n%s", got, err, r.out)
			}
			g := got[0]
			if g.At.Before(start) || g.Dir != w.cwd {
				t.Errorf("at %v (after %v), dir %q (want %q)", g.At, start, g.Dir, w.cwd)
			}
			if c.wantBy != "" && !strings.Contains(g.Why, c.wantBy) {
				t.Errorf("why = %q", g.Why)
			}
			// The prompt's pid, which the agent it execs keeps: the restore
			// report finds the agent's record by it.
			if g.PID <= 0 {
				t.Errorf("no pid recorded: %+v", g)
			}
			g.At, g.Dir, g.PID = time.Time{}, "", 0
			if c.wantBy != "" {
				g.Why = ""
			}
			if diff := cmp.Diff(c.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s\n%s", diff, r.out)
			}
		})
	}
}
