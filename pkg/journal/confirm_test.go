package journal

import "testing"

// TestBecame: the record of the process a restore prompt became is found
// by kitty, window and pid; only an id the agent reported counts.
func TestBecame(t *testing.T) {
	f := &File{Records: []Record{
		{Agent: "claude", ID: "a", IDFrom: "command line --resume", KittyPID: 1, WindowID: 7, PID: 40},
		{Agent: "claude", ID: "b", IDFrom: FromHook, KittyPID: 1, WindowID: 7, PID: 41},
		{Agent: "claude", ID: "c", IDFrom: "claude sessions/42.json", KittyPID: 2, WindowID: 7, PID: 42},
	}}
	for _, c := range []struct {
		o        Restore
		id, from string
	}{
		{Restore{Agent: "claude", KittyPID: 1, WindowID: 7, PID: 40}, "", ""},
		{Restore{Agent: "claude", KittyPID: 1, WindowID: 7, PID: 41}, "b", FromHook},
		{Restore{Agent: "claude", KittyPID: 2, WindowID: 7, PID: 42}, "c", "claude sessions/42.json"},
		{Restore{Agent: "claude", KittyPID: 1, WindowID: 7, PID: 42}, "", ""},
		{Restore{Agent: "codex", KittyPID: 1, WindowID: 7, PID: 41}, "", ""},
		{Restore{Agent: "claude", KittyPID: 1, WindowID: 7}, "", ""},
	} {
		if id, from := f.Became(c.o).ReportedID(); id != c.id || from != c.from {
			t.Errorf("%+v: %q from %q, want %q from %q", c.o, id, from, c.id, c.from)
		}
	}
}
