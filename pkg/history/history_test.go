package history

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
)

func TestEntries(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(ago time.Duration) time.Time { return now.Add(-ago) }
	closed := at(3 * time.Hour)
	f := &journal.File{Version: 1, Records: []journal.Record{
		{Key: "old", Agent: "claude", ID: "aaaaaaaa-1", LastSeen: at(30 * 24 * time.Hour), ClosedAt: &closed, CloseReason: journal.ClosedKittyGone},
		{Key: "gone", Agent: "claude", ID: "4f9e2a51-3c1d", Dir: "/w/api", TabTitle: "api", Argv: []string{"claude"},
			RunsFinished: 3, WorkingSeconds: 600, FirstSeen: at(5 * time.Hour), LastSeen: at(3 * time.Hour),
			ClosedAt: &closed, CloseReason: journal.ClosedKittyGone},
		{Key: "again", Agent: "claude", ID: "4f9e2a51-3c1d", Dir: "/w/api", FirstSeen: at(time.Hour), LastSeen: at(time.Minute),
			Open: true, State: agents.StateIdle, WindowID: 7},
		{Key: "exited", Agent: "codex", Dir: "/w/cli", FirstSeen: at(2 * time.Hour), LastSeen: at(2 * time.Hour),
			ClosedAt: &closed, CloseReason: journal.ClosedWindow, CloseDetail: "the agent exited; its window stayed open"},
		{Key: "stale-open", Agent: "gemini", LastSeen: at(20 * 24 * time.Hour), Open: true, State: agents.StateWorking},
	}}
	got := Entries(f, now, 7*24*time.Hour)
	var keys, status []string
	for _, e := range got {
		keys = append(keys, e.Key)
		status = append(status, e.Status())
	}
	if diff := cmp.Diff([]string{"again", "exited", "gone", "stale-open"}, keys); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"running (idle)", "agent exited", "kitty gone, restored as window 7", "running (working)"}, status); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	if e := got[2]; e.ShortID != "4f9e2a51" || e.RestoredAs != "again" || e.RunsFinished != 3 || e.WorkingSeconds != 600 {
		t.Errorf("gone: %+v", e)
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{45 * time.Second, "45s"},
		{12 * time.Minute, "12m"},
		{80 * time.Minute, "1h20m"},
		{2 * time.Hour, "2h"},
		{76 * time.Hour, "3d4h"},
		{48 * time.Hour, "2d"},
	} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// Ago reads in a sentence ("last saved at 15:48 (just now)"), not only in a
// table column.
func TestAgo(t *testing.T) {
	now := time.Date(2026, 12, 1, 15, 49, 0, 0, time.UTC)
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "just now"},
		{59 * time.Second, "just now"},
		{time.Minute, "1m ago"},
		{80 * time.Minute, "1h20m ago"},
	} {
		if got := Ago(now, now.Add(-tc.d)); got != tc.want {
			t.Errorf("Ago(%v before) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
