package restore

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

const (
	uuid  = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	other = "9d1c0b7e-2f4a-4e8b-8c6d-5a3b1e0f9c27"
)

// reports is an agent that reports id (pending: not yet, but it may).
func reports(id string, pending bool) confirmer {
	return func(journal.Restore) (string, string, bool) {
		if pending {
			return "", "", true
		}
		return id, "claude sessions/42.json", false
	}
}

// TestReportConfirms: "resumed" only when the agent reports the
// conversation asked for; another id is "started a different
// conversation"; none yet waits while the agent may still report, and
// says so when it has not.
func TestReportConfirms(t *testing.T) {
	r := resumerecord.Record{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Direct: true, Argv: []string{"claude", "--resume", uuid}}
	ws := []published.Restored{{Record: r, Dir: "/w/api", Auto: true}}
	o := []journal.Restore{{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Dir: "/w/api", Outcome: journal.OutcomeResumed, PID: 42, WindowID: 3}}
	for _, c := range []struct {
		name    string
		confirm confirmer
		want    string
		done    bool
	}{
		{"the same id", reports(uuid, false), "resumed without asking", true},
		{"another id", reports(other, false), "started a different conversation 9d1c0b7e without asking (asked for 4f9e2a51; " +
			"claude sessions/42.json reports " + other + ")", true},
		{"not yet", reports("", true), "resume run without asking, not confirmed: claude has not reported its conversation", false},
		{"never", reports("", false), "resume run without asking, not confirmed: claude has not reported its conversation", true},
		{"nothing to ask", nil, "resume run without asking, not confirmed: claude has not reported its conversation", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines, done := outcomeLines(ws, o, c.confirm)
			if want := "claude 4f9e2a51      /w/api  " + c.want; len(lines) != 1 || lines[0] != want || done != c.done {
				t.Errorf("got %q done %v, want %q done %v", lines, done, want, c.done)
			}
		})
	}
}

// TestReport: each agent window of a restored file is paired with the
// outcome its prompt recorded; those that run without asking are waited
// for, the others say they wait for a key.
func TestReport(t *testing.T) {
	claude := resumerecord.Record{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Argv: []string{"claude", "--resume", uuid}}
	codex := resumerecord.Record{Agent: "codex", Mode: "latest", Argv: []string{"codex", "resume", "--last"}}
	unsure := resumerecord.Record{Agent: "gemini", Mode: "new", Confirm: true, Argv: []string{"gemini", "-m", "x"}}
	ws := []published.Restored{{Record: claude, Dir: "/w/api", Auto: true}, {Record: codex, Dir: "/w/cli", Auto: true},
		{Record: unsure, Dir: "/w/gem"}, {Record: claude, Dir: "/w/old"}}

	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	resumed := journal.Restore{At: at, Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Dir: "/w/api", Outcome: journal.OutcomeResumed}
	shell := journal.Restore{At: at, Agent: "codex", Mode: "latest", Dir: "/w/cli", Outcome: journal.OutcomeShell, Why: "chosen", Asked: true}
	cases := []struct {
		name     string
		outcomes []journal.Restore
		want     []string
		done     bool
	}{
		{"nothing yet", nil, []string{
			"claude 4f9e2a51      /w/api  no word from its prompt yet",
			"codex                /w/cli  no word from its prompt yet",
			"gemini               /w/gem  waiting at its prompt for a key",
			"claude 4f9e2a51      /w/old  waiting at its prompt for a key",
		}, false},
		{"all that run without asking reported, one answered", []journal.Restore{shell, resumed}, []string{
			"claude 4f9e2a51      /w/api  resumed without asking",
			"codex                /w/cli  shell: chosen",
			"gemini               /w/gem  waiting at its prompt for a key",
			"claude 4f9e2a51      /w/old  waiting at its prompt for a key",
		}, true},
		{"an outcome of another window (its tab differs) is not this one's", []journal.Restore{resumed, shell,
			{At: at, Agent: "claude", Mode: "exact", ID: uuid, Dir: "/w/old", Outcome: journal.OutcomeAgentMissing, Why: "claude is not installed"}}, []string{
			"claude 4f9e2a51      /w/api  resumed without asking",
			"codex                /w/cli  shell: chosen",
			"gemini               /w/gem  waiting at its prompt for a key",
			"claude 4f9e2a51      /w/old  waiting at its prompt for a key",
		}, true},
		{"each outcome is used once", []journal.Restore{resumed, shell,
			{At: at, Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Dir: "/w/old", Outcome: journal.OutcomeAgentMissing, Why: "claude is not installed"}}, []string{
			"claude 4f9e2a51      /w/api  resumed without asking",
			"codex                /w/cli  shell: chosen",
			"gemini               /w/gem  waiting at its prompt for a key",
			"claude 4f9e2a51      /w/old  agent missing, a shell: claude is not installed",
		}, true},
		{"a conversation gone, a resume in its own directory", []journal.Restore{shell,
			{At: at, Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Dir: "/w/api", Outcome: journal.OutcomeNew, Asked: true,
				Why: "conversation no longer exists (not in ~/.claude/projects)"},
			{At: at, Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Dir: "/w/old", Outcome: journal.OutcomeResumed, Asked: true,
				Why: "in its own directory /w/api"}}, []string{
			"claude 4f9e2a51      /w/api  new conversation as answered: conversation no longer exists (not in ~/.claude/projects)",
			"codex                /w/cli  shell: chosen",
			"gemini               /w/gem  waiting at its prompt for a key",
			"claude 4f9e2a51      /w/old  resumed as answered: in its own directory /w/api",
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, done := outcomeLines(ws, c.outcomes, reports(uuid, false))
			if diff := cmp.Diff(c.want, got); diff != "" || done != c.done {
				t.Errorf("done %v, want %v (-want +got):\n%s", done, c.done, diff)
			}
		})
	}
}

// An agent on a host reached over ssh is reported with its host and its
// directory there.
func TestReportRemote(t *testing.T) {
	rec := resumerecord.Record{Agent: "claude", Mode: "exact", ID: uuid, Remote: "devbox.lan", RemoteDir: "/home/me/api",
		Argv: []string{"/usr/bin/ssh", "-p", "2222", "me@devbox"}}
	got, _ := outcomeLines([]published.Restored{{Record: rec, Dir: "/home/local"}}, nil, nil)
	if want := []string{"claude on devbox 4f9e2a51 /home/me/api  waiting at its prompt for a key"}; !cmp.Equal(want, got) {
		t.Errorf("got %q, want %q", got, want)
	}
}
