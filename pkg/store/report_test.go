package store_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/restorerec"
	"github.com/kittymux/kittymux/pkg/store"
)

const uuid = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"

var key = bytes.Repeat([]byte{3}, restorerec.KeySize)

// file writes a session of one window per record, each in its directory.
func file(t *testing.T, dirs []string, recs []restorerec.Record) []byte {
	var b strings.Builder
	b.WriteString("new_tab\nlaunch 'kitty-unserialize-data={\"id\": 99}' --cwd=/w/docs\n")
	for i, r := range recs {
		fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d}' --cwd=%s /opt/bin/kittymux-resume", i+1, dirs[i])
		for _, a := range r.Args() {
			q, err := syntax.Quote(a, syntax.LangPOSIX)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(" " + q)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// reports is an agent that reports id (pending: not yet, but it may).
func reports(id string, pending bool) store.Confirm {
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
	r := restorerec.Record{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Direct: true, Argv: []string{"claude", "--resume", uuid}}
	ws, err := store.AgentWindows(file(t, []string{"/w/api"}, []restorerec.Record{r.Sealed(key)}), key, false)
	if err != nil {
		t.Fatal(err)
	}
	o := []journal.Restore{{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Dir: "/w/api", Outcome: journal.OutcomeResumed, PID: 42, WindowID: 3}}
	other := "9d1c0b7e-2f4a-4e8b-8c6d-5a3b1e0f9c27"
	for _, c := range []struct {
		name    string
		confirm store.Confirm
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
			lines, done := store.Report(ws, o, c.confirm)
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
	claude := restorerec.Record{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Argv: []string{"claude", "--resume", uuid}}
	direct := claude
	direct.Direct = true
	codex := restorerec.Record{Agent: "codex", Mode: "latest", Argv: []string{"codex", "resume", "--last"}}
	unsure := restorerec.Record{Agent: "gemini", Mode: "new", Confirm: true, Argv: []string{"gemini", "-m", "x"}}
	direct.Dir, codex.Dir, unsure.Dir = "/w/api", "/w/cli", "/w/gem"
	recs := []restorerec.Record{direct.Sealed(key), codex.Sealed(key), unsure.Sealed(key), claude}
	dirs := []string{"/w/api", "/w/cli", "/w/gem", "/w/old"}
	data := file(t, dirs, recs)

	ws, err := store.AgentWindows(data, key, false)
	if err != nil {
		t.Fatal(err)
	}
	var auto []bool
	for _, w := range ws {
		auto = append(auto, w.Auto)
	}
	// --direct and sealed runs without asking; the others ask.
	if diff := cmp.Diff([]bool{true, false, false, false}, auto); diff != "" {
		t.Errorf("auto without KITTYMUX_RESUME=auto (-want +got):\n%s", diff)
	}
	ws, _ = store.AgentWindows(data, key, true)
	auto = nil
	for _, w := range ws {
		auto = append(auto, w.Auto)
	}
	// Auto mode: sealed records run; --confirm and unsealed ones still ask.
	if diff := cmp.Diff([]bool{true, true, false, false}, auto); diff != "" {
		t.Errorf("auto with KITTYMUX_RESUME=auto (-want +got):\n%s", diff)
	}

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
			got, done := store.Report(ws, c.outcomes, reports(uuid, false))
			if diff := cmp.Diff(c.want, got); diff != "" || done != c.done {
				t.Errorf("done %v, want %v (-want +got):\n%s", done, c.done, diff)
			}
		})
	}
}

// TestStaggerWait: the report waits for the last start of the agent with
// the most windows that run without asking.
func TestStaggerWait(t *testing.T) {
	auto := func(agent string) store.Restored {
		return store.Restored{Record: restorerec.Record{Agent: agent}, Auto: true}
	}
	asks := store.Restored{Record: restorerec.Record{Agent: "claude"}}
	ws := []store.Restored{auto("claude"), auto("claude"), auto("codex"), auto("claude"), asks, auto("codex")}
	if got := store.StaggerWait(ws, time.Second); got != 2*time.Second {
		t.Errorf("three claude, two codex: %v, want 2s", got)
	}
	if got := store.StaggerWait(ws[2:3], time.Second); got != 0 {
		t.Errorf("one window: %v, want 0", got)
	}
}
