package recover_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/recover"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/probe"
)

// An agent that ran on a host reached over ssh and whose kitty went away is
// recovered, said as "claude on HOST" with its directory there.
func TestRecoverShowsRemoteAgents(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Second)
	f, out, errOut := factorytest.New(t)
	f.Agents = func() (*agents.Set, error) { return agents.Load("") }
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return nil, nil }
	f.ResumeBin = func() (string, error) { return "/bin/kittymux-resume", nil }
	f.Probes = func(context.Context, *agents.Set, []string) probe.Probes { return nil }
	f.Getenv = func(k string) string {
		if k == "HOME" {
			return "/home/local"
		}
		return ""
	}
	closed := now.Add(-2 * time.Minute)
	r := journal.Record{Key: "there", Agent: "claude", ID: "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", Dir: "/home/me/api",
		Argv: []string{"/usr/bin/ssh", "devbox"}, Exe: []string{"/usr/bin/ssh"}, Host: "devbox", ReportedBy: "devbox.lan",
		FirstSeen: now.Add(-time.Hour), LastSeen: closed, ClosedAt: &closed, CloseReason: journal.ClosedKittyGone,
		KittySocket: "unix:/tmp/gone", KittyPID: 10, WindowID: 3}
	if _, err := journal.New(f.Paths.RemoteJournal(), false).Update(func(jf *journal.File) error { jf.Upsert(r); return nil }); err != nil {
		t.Fatal(err)
	}
	o := recover.RecoverOptions{Since: time.Hour, DryRun: true, Name: recover.DefaultName}.From(f)
	if err := recover.Recover(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(errOut.String()), " ")
	if !strings.Contains(flat, "would recover 1 conversation(s)") || !strings.Contains(flat, "claude on devbox exact /usr/bin/ssh devbox") ||
		!strings.Contains(flat, "/home/me/api on devbox") || !strings.Contains(out.String(), "--remote devbox.lan") {
		t.Errorf("recover:\n%s\n%s", errOut, out)
	}
}
