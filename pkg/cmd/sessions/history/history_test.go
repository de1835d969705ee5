package history_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/history"
	"github.com/kittymux/kittymux/pkg/journal"
)

// An agent that ran on a host reached over ssh (the remote journal) is
// listed beside those that ran here, as "claude on HOST" with its directory
// there; --json names its host and the name its hook gave.
func TestHistoryShowsRemoteAgents(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Second)
	f, out, _ := factorytest.New(t)
	f.Agents = func() (*agents.Set, error) { return agents.Load("") }
	write := func(path string, r journal.Record) {
		t.Helper()
		if _, err := journal.New(path, false).Update(func(jf *journal.File) error { jf.Upsert(r); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	write(f.Paths.Journal(), journal.Record{Key: "here", Agent: "codex", Dir: "/home/me/web", Argv: []string{"codex"},
		FirstSeen: now.Add(-time.Hour), LastSeen: now.Add(-time.Minute), Open: true, State: "idle"})
	closed := now.Add(-2 * time.Minute)
	write(f.Paths.RemoteJournal(), journal.Record{Key: "there", Agent: "claude", ID: "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73",
		Dir: "/home/me/api", Argv: []string{"/usr/bin/ssh", "devbox"}, Host: "devbox", ReportedBy: "devbox.lan",
		FirstSeen: now.Add(-time.Hour), LastSeen: closed, ClosedAt: &closed, CloseReason: journal.ClosedKittyGone})

	o := history.HistoryOptions{Since: 24 * time.Hour, Clock: clock.NewFake(now)}.From(f)
	o.IO.IsTTY = true
	if err := history.History(o); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "codex ") || !strings.Contains(lines[2], "claude on devbox") ||
		!strings.Contains(lines[2], "4f9e2a51") || !strings.Contains(lines[2], "/home/me/api") || !strings.Contains(lines[2], "kitty gone") {
		t.Errorf("history:\n%s", out)
	}

	out.Reset()
	o.JSON = true
	if err := history.History(o); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Sessions []struct {
			Agent, Dir, Host string
			ReportedBy       string `json:"reported_by"`
		}
	}
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Sessions) != 2 || got.Sessions[0].Host != "" || got.Sessions[1].Host != "devbox" || got.Sessions[1].ReportedBy != "devbox.lan" ||
		got.Sessions[1].Dir != "/home/me/api" {
		t.Errorf("--json: %+v\n%s", got, out)
	}
}
