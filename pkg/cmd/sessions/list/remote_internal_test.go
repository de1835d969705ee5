package list

import (
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/remote"
)

// sessions list names remote agents with their host: one its host's hook
// reported, and one only the host's shell reported (kittymux not set up
// there: it says that installing it would bring the agent back).
func TestListRemoteWindows(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	hint := remote.Hint{Agent: "claude", ID: "abc", Dir: "/home/u/api", Host: "devbox.lan"}
	procs := map[int]recognize.Proc{
		10: {PID: 10, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "devbox"}},
		20: {PID: 20, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "gpu"}},
		30: {PID: 30, Exe: "/usr/bin/ssh", Argv: []string{"ssh", "plain"}},
	}
	ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Title: "api", Windows: []kitty.Window{
		{ID: 1, UserVars: map[string]string{remote.Var: hint.Encode()}, ForegroundProcesses: []kitty.Process{{PID: 10}}},
		{ID: 2, LastReportedCmdline: "claude --model opus", ForegroundProcesses: []kitty.Process{{PID: 20}}},
		{ID: 3, LastReportedCmdline: "ls", ForegroundProcesses: []kitty.Process{{PID: 30}}},
	}}}}}
	got := remoteListed(set, "unix:/k", ls, func(pid int) (recognize.Proc, bool) { p, ok := procs[pid]; return p, ok })
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	if w := got[0]; w.Host != "devbox" || w.ReportedBy != "devbox.lan" || w.ID != "abc" || w.Agent != "claude" || w.Command != "/usr/bin/ssh devbox" || w.Tab != "api" {
		t.Errorf("window 1: %+v", w)
	}
	if w := got[1]; w.Host != "gpu" || w.Agent != "claude" || w.ID != "" || !strings.Contains(w.Reason, "kittymux setup --remote` on gpu would bring its agents back") {
		t.Errorf("window 2: %+v", w)
	}
}
