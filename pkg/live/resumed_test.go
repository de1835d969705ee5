package live

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/kittymux/kittymux/pkg/journal"
)

const (
	uuid  = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	other = "9d1c0b7e-2f4a-4e8b-8c6d-5a3b1e0f9c27"
)

// TestResumed: the restore report's check of a resume reads the journal's record
// of the process the prompt became (its hook or the agent's record), else
// claude's own sessions/<pid>.json now, never the command line.
func TestResumed(t *testing.T) {
	home := t.TempDir()
	pid := os.Getpid() // a live process: claude's record is read for it
	o := journal.Restore{Agent: "claude", ID: uuid, Outcome: journal.OutcomeResumed, KittyPID: 100, WindowID: 7, PID: pid}
	// No /proc to read the process's environment from: the HOME given is used.
	recs := Records{ProcRoot: filepath.Join(home, "noproc"), Getenv: func(k string) string { return map[string]string{"HOME": home}[k] }}
	jf := &journal.File{Records: []journal.Record{{Agent: "claude", ID: uuid, IDFrom: "command line --resume", KittyPID: 100, WindowID: 7, PID: pid}}}
	if id, _, pending := recs.Resumed(jf, o); id != "" || !pending {
		t.Errorf("command line only: id %q pending %v, want none yet and pending (claude writes its record)", id, pending)
	}
	dir := filepath.Join(home, ".claude", "sessions")
	os.MkdirAll(dir, 0o700)
	body := `{"pid":` + strconv.Itoa(pid) + `,"sessionId":"` + other + `","cwd":"/w","status":"idle"}`
	if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(pid)+".json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if id, from, _ := recs.Resumed(jf, o); id != other || from != "claude sessions/"+strconv.Itoa(pid)+".json" {
		t.Errorf("claude's record: id %q from %q, want %s from it", id, from, other)
	}
	jf.Records[0].ID, jf.Records[0].IDFrom = uuid, journal.FromHook
	if id, from, _ := recs.Resumed(jf, o); id != uuid || from != journal.FromHook {
		t.Errorf("hook in the journal: id %q from %q, want the hook's", id, from)
	}
	o.Agent = "gemini"
	if id, _, pending := recs.Resumed(jf, o); id != "" || pending {
		t.Errorf("an agent with no record and no hook: id %q pending %v, want nothing, not pending", id, pending)
	}
}
