package recovery

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// An agent that ran on a host reached over ssh, whose kitty went away,
// comes back as a tab in the home directory whose window runs its ssh
// command as the scanner saw it, sealed, and asks the host to resume its
// id in its directory there; one still running in a live kitty, and one
// whose record holds a remote command, do not.
func TestBuildRemote(t *testing.T) {
	set, _ := agents.Load("")
	key := bytes.Repeat([]byte{7}, resumerecord.KeySize)
	remoteRec := func(key, id string, argv ...string) journal.Record {
		r := rec(key, "claude", id, "/home/me/api", 5, argv...)
		r.Host, r.ReportedBy, r.IDFrom, r.Exe = "devbox", "devbox.lan", "the host's hook", []string{argv[0]}
		return r
	}
	gone := remoteRec("gone", idA, "/usr/bin/ssh", "-p", "2222", "me@devbox")
	running := remoteRec("running", idB, "/usr/bin/ssh", "devbox")
	running.Open, running.CloseReason, running.KittySocket, running.KittyPID = true, "", "unix:/tmp/live", 30
	withCommand := remoteRec("cmd", idC, "/usr/bin/ssh", "devbox", "rm", "-rf", "/")
	p, err := Build(Options{Agents: set, Journal: &journal.File{Version: 1}, Clock: clock.NewFake(now), Since: time.Hour,
		ResumeBin: "/bin/kittymux-resume", Key: key, Live: []LiveKitty{{Socket: "unix:/tmp/live", PID: 30}},
		Remote: &journal.File{Version: 1, Records: []journal.Record{gone, running, withCommand}}, Home: "/home/local"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tabs) != 1 || p.Tabs[0].Key != "gone" || p.Tabs[0].Host != "devbox" || p.Tabs[0].ReportedBy != "devbox.lan" ||
		p.Tabs[0].Dir != "/home/me/api" || p.Tabs[0].ID != idA {
		t.Fatalf("tabs %+v\nskipped %+v", p.Tabs, p.Skipped)
	}
	var skipped []string
	for _, s := range p.Skipped {
		skipped = append(skipped, s.Key)
		if s.Host != "devbox" {
			t.Errorf("skipped without its host: %+v", s)
		}
	}
	if !slices.Equal(skipped, []string{"running", "cmd"}) {
		t.Errorf("skipped %+v", p.Skipped)
	}
	f, err := sessionfile.Parse(p.Data)
	if err != nil {
		t.Fatal(err)
	}
	ws := f.Windows()
	if len(ws) != 1 || ws[0].Cwd != "/home/local" {
		t.Fatalf("windows %+v\n%s", ws, p.Data)
	}
	got, err := resumerecord.ParseArgs(ws[0].Line.Launch.Argv[1:])
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Verify(key); err != nil {
		t.Errorf("seal: %v", err)
	}
	if got.Remote != "devbox.lan" || got.RemoteDir != "/home/me/api" || got.ID != idA || got.Agent != "claude" ||
		strings.Join(got.Argv, " ") != "/usr/bin/ssh -p 2222 me@devbox" {
		t.Errorf("record %+v", got)
	}
}
