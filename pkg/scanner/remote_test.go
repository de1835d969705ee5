package scanner_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/scanner"
)

// A window whose ssh process reaches a host whose hook reported claude is
// a session of claude there, in the remote journal (never the journal of
// the agents here), with the ssh command as the process ran it; it closes
// with its window. A hint in a window running no ssh records nothing.
func TestRemoteSessions(t *testing.T) {
	procs := map[int]recognize.Proc{
		501: {PID: 501, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "-p", "2222", "me@devbox"}, Start: "11"},
		502: {PID: 502, Exe: "/usr/bin/bash", Argv: []string{"ssh", "evil"}, Start: "12"},
	}
	var rj *journal.Journal
	r := newRig(t, kitty.Version{Major: 0, Minor: 48, Patch: 2}, func(o *scanner.Options) {
		rj = journal.New(filepath.Join(filepath.Dir(o.Journal.Path), "remote-agent-sessions.json"), false)
		rj.Clock = o.Clock
		o.RemoteJournal = rj
		o.ReadProc = func(pid int) (recognize.Proc, bool) { p, ok := procs[pid]; return p, ok }
	})
	hint := remote.Hint{Agent: "claude", ID: uuidArgv, Dir: "/home/me/api", Host: "devbox.lan"}
	forged := remote.Hint{Agent: "claude", ID: uuidRec, Dir: "/tmp", Host: "evil"}
	r.kitty.set(lsOf(
		win{id: 1, pid: 501, argv: []string{"ssh", "-p", "2222", "me@devbox"}, cwd: "/home/me", vars: map[string]string{remote.Var: hint.Encode()}},
		win{id: 2, pid: 502, argv: []string{"ssh", "evil"}, cwd: "/home/me", vars: map[string]string{remote.Var: forged.Encode()}},
	), nil)
	r.poll(t)
	f, err := rj.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 1 {
		t.Fatalf("remote journal: %+v", f.Records)
	}
	got := f.Records[0]
	if got.Agent != "claude" || got.ID != uuidArgv || got.Dir != "/home/me/api" || got.Host != "devbox" || got.ReportedBy != "devbox.lan" ||
		!slices.Equal(got.Argv, []string{"/usr/bin/ssh", "-p", "2222", "me@devbox"}) || got.IDFrom != scanner.IDFromHost || !got.Open {
		t.Errorf("remote record: %+v", got)
	}
	for _, rec := range r.records(t) {
		if rec.Host != "" || rec.ID == uuidArgv || rec.ID == uuidRec {
			t.Errorf("the journal of the agents here holds %+v", rec)
		}
	}
	r.kitty.set(lsOf(win{id: 2, pid: 502, argv: []string{"ssh", "evil"}, cwd: "/home/me"}), nil)
	r.clock.Advance(2e9)
	r.poll(t)
	if f, err = rj.Read(); err != nil || len(f.Records) != 1 {
		t.Fatalf("%v %+v", err, f)
	}
	if got := f.Records[0]; got.Open || got.CloseReason != journal.ClosedWindow {
		t.Errorf("the window closed: %+v", got)
	}
}
