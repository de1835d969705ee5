package live_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// procs is a process table for AgentWindowsFrom.
type procs map[int]recognize.Proc

func (p procs) read(pid int) (recognize.Proc, bool) {
	pr, ok := p[pid]
	return pr, ok
}

// TestAgentWindowsTrust: what a terminal shows (kitty's reported command
// line, another process's argv) never picks the program, flags or
// environment; the window's outermost agent process does.
func TestAgentWindowsTrust(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exe := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("elf"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	claude, forged, sleep := exe("bin/claude"), exe("repo/tools/claude"), exe("usr/bin/sleep")
	pathEnv := "PATH=" + filepath.Join(root, "bin")
	const shell, agent = 100, 101
	// The window: a shell (100) running claude (101), plain.
	base := procs{
		shell: {PID: shell, PPID: 1, PGID: shell, Exe: exe("bin/bash"), Argv: []string{"bash"}},
		agent: {PID: agent, PPID: shell, PGID: agent, Exe: claude, Argv: []string{"claude", "--model", "opus"},
			Env: []string{pathEnv, "FOO=1"}, Cwd: "/w"},
	}
	window := func(report string, fg ...int) []kitty.OSWindow {
		w := kitty.Window{ID: 7, PID: shell, Cwd: "/w", LastReportedCmdline: report}
		for _, pid := range fg {
			w.ForegroundProcesses = append(w.ForegroundProcesses, kitty.Process{PID: pid, Cmdline: base[pid].Argv, Cwd: "/w"})
		}
		return []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{w}}}}}
	}
	with := func(extra ...recognize.Proc) procs {
		p := procs{}
		for k, v := range base {
			p[k] = v
		}
		for _, e := range extra {
			p[e.PID] = e
		}
		return p
	}
	type got struct {
		Program, Flags, Env, Seen []string
		PID                       int
		Unverified                bool
	}
	plain := got{[]string{"claude"}, []string{"--model", "opus"}, nil, []string{claude}, agent, false}
	for _, c := range []struct {
		name   string
		report string
		extra  []recognize.Proc
		fg     []int
		want   got
	}{
		{"plain", "claude --model opus", nil, []int{agent}, plain},
		{"a printed cmdline_url picks no program or flag",
			root + "/repo/node_modules/.bin/claude --dangerously-skip-permissions", nil, []int{agent}, plain},
		{"a printed env sets no variable", "NODE_OPTIONS=--require=/repo/x.js BASH_ENV=/repo/x claude --model opus", nil, []int{agent}, plain},
		{"typed env the process holds is kept", "FOO=1 claude --model opus", nil, []int{agent},
			got{plain.Program, plain.Flags, []string{"FOO=1"}, plain.Seen, agent, false}},
		{"a forged child of the agent never replaces it", "",
			[]recognize.Proc{{PID: 102, PPID: agent, PGID: agent, Exe: forged, Argv: []string{forged, "--dangerously-skip-permissions", "--mcp-config", "x"}}},
			[]int{102, agent}, plain},
		{"argv reads claude, it runs sleep: no agent", "",
			[]recognize.Proc{{PID: 99, PPID: shell, PGID: 99, Exe: sleep, Argv: []string{"/repo/tools/claude", "--dangerously-skip-permissions"}}},
			[]int{99, agent}, plain},
		{"a sibling of the same command started first: the job's leader wins", "",
			[]recognize.Proc{{PID: 99, PPID: shell, PGID: agent, Exe: claude, Argv: []string{"claude", "--model", "opus"}, Env: []string{pathEnv}}},
			[]int{99, agent}, plain},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := with(c.extra...)
			ls := window(c.report, c.fg...)
			for i, fp := range ls[0].Tabs[0].Windows[0].ForegroundProcesses {
				ls[0].Tabs[0].Windows[0].ForegroundProcesses[i].Cmdline = p[fp.PID].Argv
			}
			ws := live.AgentWindowsFrom(set, ls, p.read)
			if len(ws) != 1 {
				t.Fatalf("%d agent windows", len(ws))
			}
			w := ws[0]
			g := got{w.Cmd.Program, w.Cmd.Flags, w.Cmd.Env, w.Seen, w.PID, w.Unverified != ""}
			if diff := cmp.Diff(c.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// The agent's own children count for its records (codex's
			// native binary holds the rollout); nothing beside it does.
			if len(w.PIDs) == 0 || w.PIDs[0] != agent || slices.Contains(w.PIDs, 99) {
				t.Errorf("PIDs %v, want the agent's first and none beside it", w.PIDs)
			}
		})
	}
	t.Run("the window's own process is the agent: its child never replaces it", func(t *testing.T) {
		// A window kitty started with the agent, no shell (a restored
		// one: the restore prompt execs the agent in its place), whose
		// child runs the agent too (codex's node launcher and its native
		// binary). The child's parent is the window's own process.
		p := procs{
			agent: {PID: agent, PPID: 50, PGID: agent, Exe: claude, Argv: []string{"claude", "--model", "opus"},
				Env: []string{pathEnv}, Cwd: "/w"},
			102: {PID: 102, PPID: agent, PGID: agent, Exe: claude, Argv: []string{"claude", "--model", "sonnet"}, Cwd: "/w"},
			50:  {PID: 50, PPID: 1, PGID: 50, Exe: exe("bin/kitty"), Argv: []string{"kitty"}},
		}
		w := kitty.Window{ID: 7, PID: agent, Cwd: "/w"}
		for _, pid := range []int{agent, 102} {
			w.ForegroundProcesses = append(w.ForegroundProcesses, kitty.Process{PID: pid, Cmdline: p[pid].Argv, Cwd: "/w"})
		}
		ws := live.AgentWindowsFrom(set, []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{w}}}}}, p.read)
		if len(ws) != 1 {
			t.Fatalf("%d agent windows", len(ws))
		}
		if ws[0].PID != agent || ws[0].Unverified != "" || !slices.Equal(ws[0].Cmd.Flags, []string{"--model", "opus"}) {
			t.Errorf("window: pid %d, flags %q, unverified %q; want the window's own process %d, --model opus, verified",
				ws[0].PID, ws[0].Cmd.Flags, ws[0].Unverified, agent)
		}
		if !slices.Equal(ws[0].PIDs, []int{agent, 102}) {
			t.Errorf("PIDs %v, want [%d 102]: the agent, then its child", ws[0].PIDs, agent)
		}
	})
	t.Run("two different agent commands equally near the shell: unverified", func(t *testing.T) {
		// A forged process started as the job's leader beside the agent.
		p := with(recognize.Proc{PID: 99, PPID: shell, PGID: 99, Exe: forged, Argv: []string{forged, "--dangerously-skip-permissions"}},
			recognize.Proc{PID: agent, PPID: shell, PGID: 99, Exe: claude, Argv: []string{"claude", "--model", "opus"}, Env: []string{pathEnv}})
		ls := window("", 99, agent)
		ls[0].Tabs[0].Windows[0].ForegroundProcesses[0].Cmdline = p[99].Argv
		ws := live.AgentWindowsFrom(set, ls, p.read)
		if len(ws) != 1 || ws[0].Unverified == "" || ws[0].Seen != nil {
			t.Errorf("windows %+v: want one, unverified", ws)
		}
	})
	t.Run("argv not what kitty listed for the pid: unverified", func(t *testing.T) {
		// A pid reused, or a title changed, between kitty's ls and the read.
		ls := window("", agent)
		ls[0].Tabs[0].Windows[0].ForegroundProcesses[0].Cmdline = []string{"claude", "--model", "sonnet"}
		ws := live.AgentWindowsFrom(set, ls, with().read)
		if len(ws) != 1 || ws[0].Unverified == "" || ws[0].Seen != nil {
			t.Errorf("windows %+v: want one, unverified", ws)
		}
	})
	t.Run("a process that cannot be read: unverified, no sealed environment", func(t *testing.T) {
		ws := live.AgentWindowsFrom(set, window("NODE_OPTIONS=--require=/x.js KITTY_PID=4 FOO=1 claude", agent), procs{}.read)
		if len(ws) != 1 || ws[0].Unverified == "" || ws[0].Seen != nil {
			t.Fatalf("windows %+v: want one, unverified", ws)
		}
		if diff := cmp.Diff([]string{"FOO=1"}, ws[0].Cmd.Env); diff != "" {
			t.Errorf("env (-want +got):\n%s", diff)
		}
	})
}

// TestAgentWindowsTypedEnv: of the assignments a report shows (any program
// can print one: `OSC 133;C;cmdline_url=KITTY_WINDOW_ID%3D3…`), only those
// the user typed stand: the agent's environment holds them and its shell's
// does not. The window's own variables never; a process kitty started
// itself had nothing typed.
func TestAgentWindowsTypedEnv(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(root, "claude")
	if err := os.WriteFile(claude, []byte("elf"), 0o755); err != nil {
		t.Fatal(err)
	}
	const shell, agent = 100, 101
	inherited := []string{"PATH=" + root, "KITTY_WINDOW_ID=3", "KITTY_PID=9", "TERM=xterm-kitty", "WINDOWID=5", "FOO=1"}
	argv := []string{"claude", "--model", "opus"}
	for _, c := range []struct {
		name              string
		report            string
		agentEnv          []string
		windowPID, parent int
		want              []string
	}{
		{"an inherited variable a report names is not typed",
			"KITTY_WINDOW_ID=3 KITTY_PID=9 TERM=xterm-kitty WINDOWID=5 FOO=1 BAR=2 claude --model opus",
			append(slices.Clone(inherited), "BAR=2"), shell, shell, []string{"BAR=2"}},
		{"kitty's and kittymux's variables are never kept, even typed",
			"KITTY_LISTEN_ON=unix:/tmp/x KITTYMUX_RESUME=auto BAR=2 claude --model opus",
			append(slices.Clone(inherited), "KITTY_LISTEN_ON=unix:/tmp/x", "KITTYMUX_RESUME=auto", "BAR=2"), shell, shell, []string{"BAR=2"}},
		{"a parent that cannot be read: nothing typed is known", "BAR=2 claude --model opus",
			append(slices.Clone(inherited), "BAR=2"), shell, 55, nil},
		{"the window's own process: kitty started it, nothing was typed", "BAR=2 claude --model opus",
			append(slices.Clone(inherited), "BAR=2"), agent, shell, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := procs{
				shell: {PID: shell, PPID: 1, PGID: shell, Exe: claude + "-bash", Argv: []string{"bash"}, Env: inherited},
				agent: {PID: agent, PPID: c.parent, PGID: agent, Exe: claude, Argv: argv, Env: c.agentEnv, Cwd: "/w", Start: "boot/42"},
			}
			w := kitty.Window{ID: 7, PID: c.windowPID, Cwd: "/w", LastReportedCmdline: c.report,
				ForegroundProcesses: []kitty.Process{{PID: agent, Cmdline: argv, Cwd: "/w"}}}
			ws := live.AgentWindowsFrom(set, []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{w}}}}}, p.read)
			if len(ws) != 1 || ws[0].Unverified != "" {
				t.Fatalf("windows %+v: want one, verified", ws)
			}
			if diff := cmp.Diff(c.want, ws[0].Cmd.Env); diff != "" {
				t.Errorf("env (-want +got):\n%s", diff)
			}
			if ws[0].PID != agent || ws[0].Start != "boot/42" {
				t.Errorf("process %d started %q, want %d started boot/42", ws[0].PID, ws[0].Start, agent)
			}
		})
	}
}

// TestJournalIDs: user vars give no id; the journal's record of the same
// kitty, window and process does, unless it took the id from a user var.
func TestJournalIDs(t *testing.T) {
	const id, other = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"
	w := kitty.Window{ID: 3, UserVars: map[string]string{"kittymux_agent": "claude", "kittymux_session": other, "kittymux_pid": "40"},
		ForegroundProcesses: []kitty.Process{{PID: 40}}}
	ws := func() []live.AgentWindow {
		return []live.AgentWindow{{Ref: kitty.WindowRef{Window: &w}, PID: 40, ID: 3, Cmd: recognize.Command{Agent: "claude"}}}
	}
	rec := journal.Record{Agent: "claude", ID: id, IDFrom: "claude sessions/40.json", Open: true, KittyPID: 9, KittySocket: "unix:/k", WindowID: 3, PID: 40}
	for _, c := range []struct {
		name string
		recs []journal.Record
		want string
	}{
		{"no journal record", nil, ""},
		{"the journal's id", []journal.Record{rec}, id},
		{"another window's record", []journal.Record{func() journal.Record { r := rec; r.WindowID = 4; return r }()}, ""},
		{"another process's record", []journal.Record{func() journal.Record { r := rec; r.PID = 41; return r }()}, ""},
		{"an id from a user var", []journal.Record{func() journal.Record { r := rec; r.IDFrom = "kitty user var kittymux_session"; return r }()}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			aws := ws()
			live.JournalIDs(aws, live.OpenRecords(&journal.File{Records: c.recs}, "unix:/k", 9, aws))
			if aws[0].KnownID != c.want {
				t.Errorf("id %q, want %q", aws[0].KnownID, c.want)
			}
		})
	}
}

// TestAgentWindowsTitled: pi sets its process title, so the OS shows `pi`
// alone. Run by the interpreter its #! line names, it is pi, unverified: the
// command is the typed line kitty reported (the restore asks, showing it
// whole), or the name alone with its flags hidden; never sealed. Unless
// its integration reported the argv it started with, which is then read
// as any process's argv is.
func TestAgentWindowsTitled(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, content string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	node := write("node/bin/node", "elf")
	python := write("usr/bin/python3", "elf")
	piJS := write("lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "#!/usr/bin/env node\n")
	if err := os.Symlink(piJS, filepath.Join(root, "node/bin/pi")); err != nil {
		t.Fatal(err)
	}
	pathEnv := "PATH=" + filepath.Join(root, "node/bin")
	const shell, agent = 100, 101
	p := procs{
		shell: {PID: shell, PPID: 1, PGID: shell, Exe: write("bin/bash", "elf"), Argv: []string{"bash"}, Env: []string{pathEnv}},
		agent: {PID: agent, PPID: shell, PGID: agent, Exe: node, Argv: []string{"pi"}, Env: []string{pathEnv, "FOO=1"}, Cwd: "/w"},
	}
	window := func(report string) []kitty.OSWindow {
		w := kitty.Window{ID: 7, PID: shell, Cwd: "/w", LastReportedCmdline: report,
			ForegroundProcesses: []kitty.Process{{PID: agent, Cmdline: []string{"pi"}, Cwd: "/w"}}}
		return []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{w}}}}}
	}
	ws := live.AgentWindowsFrom(set, window("FOO=1 pi --model openai/gpt-4o"), p.read)
	if len(ws) != 1 {
		t.Fatalf("%d agent windows", len(ws))
	}
	w := ws[0]
	if w.Unverified == "" || w.Seen != nil || !slices.Equal(w.Cmd.Program, []string{"pi"}) ||
		!slices.Equal(w.Cmd.Flags, []string{"--model", "openai/gpt-4o"}) || !slices.Equal(w.Cmd.Env, []string{"FOO=1"}) {
		t.Errorf("pi with a report: %+v, want unverified pi --model openai/gpt-4o with FOO=1", w)
	}
	ws = live.AgentWindowsFrom(set, window(""), p.read)
	if len(ws) != 1 || ws[0].Unverified == "" || !ws[0].Cmd.FlagsHidden || len(ws[0].Cmd.Flags) != 0 {
		t.Errorf("pi without a report: %+v, want unverified, its flags hidden", ws)
	}

	// pi's integration reported the argv the process started with
	// (procid.ReadArgv, this pid and start): the process is read by it, as
	// any other, its program checked against the file it executes. The
	// flags are the process's own, whatever the typed line said; the
	// prompt is dropped; it is verified, so a save seals it.
	reported := func(argv ...string) live.AgentWindow {
		t.Helper()
		q := p[agent]
		q.Reported = argv
		p[agent] = q
		ws := live.AgentWindowsFrom(set, window("pi --model typed/other"), p.read)
		if len(ws) != 1 {
			t.Fatalf("reported %q: %d agent windows", argv, len(ws))
		}
		return ws[0]
	}
	w = reported(node, filepath.Join(root, "node/bin/pi"), "--model", "openai/gpt-4o", "--thinking", "off", "Remember ORCHID")
	if w.Unverified != "" || w.Seen == nil || w.Cmd.FlagsHidden || !slices.Equal(w.Cmd.Flags, []string{"--model", "openai/gpt-4o", "--thinking", "off"}) ||
		len(w.Cmd.Program) != 2 || w.Cmd.Program[0] != node {
		t.Errorf("pi with its argv reported: %+v, want verified node …/pi --model openai/gpt-4o --thinking off", w)
	}
	// A report whose program is not what the process executes, or not
	// pi's script, is not taken: the window is pi with its flags hidden,
	// as without one.
	for _, argv := range [][]string{
		{python, piJS, "--model", "x"},
		{node, write("lib/evil.js", "#!/usr/bin/env node\n"), "--model", "x"},
		{node},
		{"--extension", "/tmp/evil.ts"},
	} {
		if w := reported(argv...); w.Unverified == "" || w.Seen != nil || !slices.Equal(w.Cmd.Program, []string{"pi"}) {
			t.Errorf("pi reporting %q: %+v, want unverified pi", argv, w)
		}
	}

	// `exec -a pi python3`: not pi at all.
	p[agent] = recognize.Proc{PID: agent, PPID: shell, PGID: agent, Exe: python, Argv: []string{"pi"}, Env: []string{pathEnv}, Cwd: "/w",
		Reported: []string{node, piJS}}
	if ws := live.AgentWindowsFrom(set, window("pi --model x"), p.read); len(ws) != 0 {
		t.Errorf("python named pi is an agent window: %+v", ws)
	}
}
