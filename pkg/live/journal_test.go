package live_test

import (
	"strconv"
	"testing"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
)

const hookID = "9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b"

// TestOpenRecordsKittyNamedByTo: `sessions list --to SOCKET` knows the
// kitty by its socket only (pid 0); a hook's record of a window there is
// still found, while one of another kitty's socket, or of a process that
// no longer runs in the window, is not.
func TestOpenRecordsKittyNamedByTo(t *testing.T) {
	const socket = "unix:/tmp/k-7"
	win := &kitty.Window{ID: 3, ForegroundProcesses: []kitty.Process{{PID: 40, Cmdline: []string{"claude"}}}}
	aw := live.AgentWindow{Ref: kitty.WindowRef{Window: win}, PID: 40, PIDs: []int{40}}
	aw.Cmd.Agent = "claude"
	rec := func(socket string, kittyPID, pid int) journal.Record {
		return journal.Record{Key: socket + strconv.Itoa(pid), Agent: "claude", ID: hookID, IDFrom: journal.FromHook,
			Open: true, KittySocket: socket, KittyPID: kittyPID, WindowID: 3, PID: pid}
	}
	for _, tc := range []struct {
		name     string
		rec      journal.Record
		kittyPID int
		found    bool
	}{
		{"pid known", rec(socket, 7, 40), 7, true},
		{"named by --to", rec(socket, 7, 40), 0, true},
		{"another kitty's socket", rec("unix:/tmp/k-8", 8, 40), 0, false},
		{"another pid of this socket", rec(socket, 7, 40), 8, false},
		{"a process gone from the window", rec(socket, 7, 41), 0, false},
		{"the same process, by its start", withStart(rec(socket, 7, 40), "boot/100"), 7, true},
		{"another process that got its pid", withStart(rec(socket, 7, 40), "boot/90"), 7, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			aw := aw
			aw.Start = "boot/100"
			got := live.OpenRecords(&journal.File{Records: []journal.Record{tc.rec}}, socket, tc.kittyPID, []live.AgentWindow{aw})
			if (got[0] != nil) != tc.found {
				t.Errorf("found %v, want %v", got[0], tc.found)
			}
		})
	}
}

func withStart(r journal.Record, start string) journal.Record {
	r.Start = start
	return r
}
