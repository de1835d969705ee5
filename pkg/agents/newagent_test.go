package agents_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/hookinstall"
	"github.com/kittymux/kittymux/pkg/hookrun"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// tinkerDefinition is a made-up agent's entry, as it would be added to
// assets/resume-agents.json (here in the user's resume.json, which takes
// the same entries).
const tinkerDefinition = `{"tinker": {
	"programs": ["tinker"],
	"id_pattern": "[0-9a-f]{8}",
	"exact": ["--resume", "{id}"],
	"strip_with_value": ["--resume"],
	"value_flags": ["--model"],
	"probes": [{"args": ["--help"], "expect": ["--resume"]}]
}}`

// tinker is the made-up agent's code, as its file pkg/agents/tinker.go
// would hold it: its running process names its conversation in its
// environment, and its hooks go in ~/.tinker/settings.json under names of
// its own.
var tinker = &agents.Code{
	Name:     "tinker",
	Binaries: []string{"tinker"},
	ReadID: func(p agents.Procs, pids []int) (agents.ProcRecord, bool) {
		id := p.Env(pids[0], "TINKER_SESSION")
		return agents.ProcRecord{ID: id, IDFrom: "tinker's environment"}, id != ""
	},
	Hooks: &agents.Hooks{
		Settings: func(_ func(string) string, home string) string {
			return filepath.Join(home, ".tinker", "settings.json")
		},
		Start: []string{"SessionStart"}, Working: []string{"TinkerBusy"}, Idle: []string{"TinkerDone"},
	},
}

// TestAddAgent: an agent is added with one definition entry and one Code
// value, and nothing else: it is recognised in a window, the id its
// process gives is read, its hooks install, and its hook events are
// recorded.
func TestAddAgent(t *testing.T) {
	dir := t.TempDir()
	userFile := filepath.Join(dir, "resume.json")
	if err := os.WriteFile(userFile, []byte(tinkerDefinition), 0o600); err != nil {
		t.Fatal(err)
	}
	set, err := agents.Load(userFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(agents.Register(tinker))

	// Recognised in a window, and its id read from its process.
	proc := filepath.Join(dir, "proc")
	if err := os.MkdirAll(filepath.Join(proc, "42"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proc, "42", "environ"), []byte("HOME=/h\x00TINKER_SESSION=0badc0de\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{{ID: 2, PID: 41, Cwd: "/w",
		ForegroundProcesses: []kitty.Process{{PID: 42, Cmdline: []string{"tinker", "--model", "m1"}, Cwd: "/w"}}}}}}}}
	ws := live.AgentWindowsFrom(set, ls, func(int) (recognize.Proc, bool) { return recognize.Proc{}, false })
	if len(ws) != 1 || ws[0].Cmd.Agent != "tinker" || ws[0].PID != 42 {
		t.Fatalf("windows %+v: want one running tinker (pid 42)", ws)
	}
	recs := live.Records{ProcRoot: proc}
	recs.ReadIDs(ws)
	if ws[0].KnownID != "0badc0de" || !recs.Reports("tinker") {
		t.Errorf("id %q from %q: want 0badc0de from its process", ws[0].KnownID, ws[0].KnownIDFrom)
	}

	// Its hooks install into its settings, for its own events.
	a, ok := hookinstall.Find("tinker")
	if !ok {
		t.Fatalf("hookinstall does not know tinker; it knows %s", strings.Join(hookinstall.Names(), ", "))
	}
	env := hookinstall.Env{Getenv: func(string) string { return "" }, Home: dir, Exe: "/opt/kittymux/bin/kittymux"}
	if _, err := hookinstall.Install(a, env); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".tinker", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{"SessionStart", "TinkerBusy", "TinkerDone"} {
		if !strings.Contains(string(data), hookinstall.Command(env.Exe, "tinker", ev)) {
			t.Errorf("settings lack the %s hook:\n%s", ev, data)
		}
	}
	if st := hookinstall.StatusOf(a, env); st.State != hookinstall.Installed {
		t.Errorf("status %+v", st)
	}

	// The hook records its events by their own names.
	if !hookrun.Known("TinkerBusy") || agents.HookState("tinker", "TinkerBusy") != agents.HookWorking ||
		agents.HookState("tinker", "TinkerDone") != agents.HookIdle {
		t.Errorf("tinker's hook events are not known")
	}
}
