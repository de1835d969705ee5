package plan_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// fixtureWindows reads kitty's ls output and recognises each window the way
// the scanner does: the typed line when shell integration reported one, the
// foreground processes otherwise.
func fixtureWindows(t *testing.T, s *agents.Set, file string) []live.AgentWindow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kitty", file))
	if err != nil {
		t.Fatal(err)
	}
	var ls []struct {
		Tabs []struct {
			Windows []struct {
				ID                  int    `json:"id"`
				Cwd                 string `json:"cwd"`
				LastReportedCmdline string `json:"last_reported_cmdline"`
				ForegroundProcesses []struct {
					Cmdline []string `json:"cmdline"`
				} `json:"foreground_processes"`
			} `json:"windows"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal(data, &ls); err != nil {
		t.Fatal(err)
	}
	var ws []live.AgentWindow
	for _, o := range ls {
		for _, tab := range o.Tabs {
			for _, win := range tab.Windows {
				var c recognize.Command
				var ok bool
				if win.LastReportedCmdline != "" {
					c, ok = recognize.String(s, win.LastReportedCmdline)
				} else {
					var procs [][]string
					for _, p := range win.ForegroundProcesses {
						procs = append(procs, p.Cmdline)
					}
					c, ok = recognize.Processes(s, procs)
				}
				if ok {
					ws = append(ws, live.AgentWindow{ID: win.ID, Cwd: win.Cwd, Cmd: c})
				}
			}
		}
	}
	return ws
}

func TestDecideKitty0482Fixture(t *testing.T) {
	s := loadShipped(t)
	ws := fixtureWindows(t, s, "0.48.2/ls.json")
	const api, web = "/home/u/code/api", "/home/u/code/web"
	want := []plan.Decision{
		{
			WindowID: 1, Agent: "claude", Mode: plan.ModeLatest,
			Argv:   w("claude", "--model", "opus", "--dangerously-skip-permissions", "--continue"),
			Reason: "only claude window in " + api + ": --continue is per directory",
		},
		{
			WindowID: 2, Agent: "codex", Mode: plan.ModeExact, ID: agentstest.CodexID,
			Argv:   w("/home/u/.local/bin/codex", "resume", agentstest.CodexID),
			Reason: "id bbab2a035a53 from resume",
		},
		{
			WindowID: 4, Agent: "claude", Mode: plan.ModeExact, ID: agentstest.UUID,
			Argv:   w("claude", "--model", "sonnet", "--resume", agentstest.UUID),
			Reason: "id 4f9e2a51 from --resume",
		},
		{
			// Window 4 is claude in the same directory: --continue could
			// pick its conversation, so the user chooses at restore.
			WindowID: 5, Agent: "claude", Mode: plan.ModeChoose,
			Argv:   w("claude"),
			Reason: "2 claude windows in " + web + " and no id for this one: the restore lists claude's conversations of " + web + " to choose from",
		},
		{
			// opencode does not say --continue is per directory, so latest
			// is safe only for the single opencode window at all, which
			// window 6 is. The prompt "fix the tests" is dropped.
			WindowID: 6, Agent: "opencode", Mode: plan.ModeLatest,
			Argv:   w("opencode", "-m", "anthropic/claude", "--continue"),
			Reason: "only opencode window: --continue is not per directory; prompt dropped",
		},
	}
	got := plan.Decide(s, ws, nil)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// With window 5's id known (hook or journal) it is exact.
	const known = "9a8b7c6d-1111-4222-8333-444455556666"
	for i := range ws {
		if ws[i].ID == 5 {
			ws[i].KnownID, ws[i].KnownIDFrom = known, "kittymux_session"
		}
	}
	got = plan.Decide(s, ws, nil)
	want[3] = plan.Decision{
		WindowID: 5, Agent: "claude", Mode: plan.ModeExact, ID: known,
		Argv:   w("claude", "--resume", known),
		Reason: "id 9a8b7c6d from kittymux_session",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("with a known id (-want +got):\n%s", diff)
	}
}

func TestDecideKitty0265Fixture(t *testing.T) {
	s := loadShipped(t)
	ws := fixtureWindows(t, s, "0.26.5-ls.json")
	want := []plan.Decision{
		{
			WindowID: 2, Agent: "claude", Mode: plan.ModeLatest,
			Argv:   w("/home/u/.local/bin/claude", "--model", "opus", "--continue"),
			Reason: "only claude window in /home/u/code/api: --continue is per directory",
		},
		{
			WindowID: 3, Agent: "codex", Mode: plan.ModeExact, ID: agentstest.CodexID,
			Argv:   w("/home/u/.local/bin/codex", "resume", agentstest.CodexID),
			Reason: "id bbab2a035a53 from resume",
		},
	}
	if diff := cmp.Diff(want, plan.Decide(s, ws, nil)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// alike is decision d for each of the windows ids.
func alike(d plan.Decision, ids ...int) []plan.Decision {
	out := make([]plan.Decision, len(ids))
	for i, id := range ids {
		out[i] = d
		out[i].WindowID = id
	}
	return out
}

// inDir are windows 1, 2, ... in dir running cmds.
func inDir(dir string, cmds ...recognize.Command) []live.AgentWindow {
	out := make([]live.AgentWindow, len(cmds))
	for i, c := range cmds {
		out[i] = live.AgentWindow{ID: i + 1, Cwd: dir, Cmd: c}
	}
	return out
}

func TestDecideRules(t *testing.T) {
	s := loadShipped(t)
	c := func(line string) recognize.Command { return recognised(t, s, line) }
	const other = "0f0e0d0c-0b0a-4909-8807-060504030201"
	tests := []struct {
		name   string
		ws     []live.AgentWindow
		probes probe.Probes
		want   []plan.Decision
	}{
		{
			name: "two plain claude in one directory: new each",
			ws:   []live.AgentWindow{{ID: 7, Cwd: "/d", Cmd: c("claude")}, {ID: 8, Cwd: "/d/", Cmd: c("claude --continue")}},
			want: alike(plan.Decision{Agent: "claude", Mode: plan.ModeChoose, Argv: w("claude"), Reason: "2 claude windows in /d and no id for this one: the restore lists claude's conversations of /d to choose from"}, 7, 8),
		},
		{
			name: "claude in two directories: latest each",
			ws: []live.AgentWindow{
				{ID: 1, Cwd: "/a", Cmd: c("claude")},
				{ID: 2, Cwd: "/b", Cmd: c("claude")},
			},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeLatest, Argv: w("claude", "--continue"), Reason: "only claude window in /a: --continue is per directory"},
				{WindowID: 2, Agent: "claude", Mode: plan.ModeLatest, Argv: w("claude", "--continue"), Reason: "only claude window in /b: --continue is per directory"},
			},
		},
		{
			name: "the same id in two windows: the lowest window id keeps it",
			ws: []live.AgentWindow{
				{ID: 9, Cwd: "/a", Cmd: c("claude --resume " + agentstest.UUID)},
				{ID: 3, Cwd: "/b", Cmd: c("claude"), KnownID: agentstest.UUID, KnownIDFrom: "the journal"},
			},
			want: []plan.Decision{
				{WindowID: 9, Agent: "claude", Mode: plan.ModeNew, Argv: w("claude"), Reason: "id 4f9e2a51 is resumed in window 3: new conversation"},
				{WindowID: 3, Agent: "claude", Mode: plan.ModeExact, ID: agentstest.UUID, Argv: w("claude", "--resume", agentstest.UUID), Reason: "id 4f9e2a51 from the journal"},
			},
		},
		{
			name: "a known id wins over the id in argv",
			ws: []live.AgentWindow{
				{ID: 1, Cwd: "/a", Cmd: c("claude --resume " + agentstest.UUID), KnownID: other},
			},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeExact, ID: other, Argv: w("claude", "--resume", other), Reason: "id 0f0e0d0c from the recorded id"},
			},
		},
		{
			name: "a known id that is not an id is ignored",
			ws: []live.AgentWindow{
				{ID: 1, Cwd: "/a", Cmd: c("claude --resume " + agentstest.UUID), KnownID: "--dangerously-skip-permissions"},
			},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeExact, ID: agentstest.UUID, Argv: w("claude", "--resume", agentstest.UUID), Reason: "id 4f9e2a51 from --resume"},
			},
		},
		{
			name: "global scope: two copilot windows in different directories are new",
			ws:   []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: c("copilot")}, {ID: 2, Cwd: "/b", Cmd: c("copilot")}},
			want: alike(plan.Decision{Agent: "copilot", Mode: plan.ModeNew, Argv: w("copilot"), Reason: "2 copilot windows and --continue is not per directory: new conversation"}, 1, 2),
		},
		{
			name: "global scope, listed by its CLI: two opencode windows in different directories choose",
			ws:   []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: c("opencode")}, {ID: 2, Cwd: "/b", Cmd: c("opencode")}},
			want: []plan.Decision{
				{WindowID: 1, Agent: "opencode", Mode: plan.ModeChoose, Argv: w("opencode"), Reason: "2 opencode windows and no id for this one: the restore lists opencode's conversations of /a to choose from"},
				{WindowID: 2, Agent: "opencode", Mode: plan.ModeChoose, Argv: w("opencode"), Reason: "2 opencode windows and no id for this one: the restore lists opencode's conversations of /b to choose from"},
			},
		},
		{
			name: "gemini per project is treated as global",
			ws: []live.AgentWindow{
				{ID: 1, Cwd: "/a", Cmd: c("gemini --model pro")},
			},
			want: []plan.Decision{
				{WindowID: 1, Agent: "gemini", Mode: plan.ModeLatest, Argv: w("gemini", "--model", "pro", "--resume", "latest"), Reason: "only gemini window: --resume latest is not per directory"},
			},
		},
		{
			name: "codex -C moves the directory the rule looks at",
			ws: []live.AgentWindow{
				{ID: 1, Cwd: "/a", Cmd: c("codex -C /x")},
				{ID: 2, Cwd: "/b", Cmd: c("codex --cd ../x")},
				{ID: 3, Cwd: "/x", Cmd: c("codex exec hi")},
			},
			want: []plan.Decision{
				{WindowID: 1, Agent: "codex", Mode: plan.ModeChoose, Argv: w("codex", "-C", "/x"), Reason: "3 codex windows in /x and no id for this one: the restore lists codex's conversations of /x to choose from"},
				{WindowID: 2, Agent: "codex", Mode: plan.ModeChoose, Argv: w("codex", "--cd", "../x"), Reason: "3 codex windows in /x and no id for this one: the restore lists codex's conversations of /x to choose from"},
				{WindowID: 3, Agent: "codex", Mode: plan.ModeAsSaved, Reason: "one-shot run (exec), not a conversation"},
			},
		},
		{
			name: "one-shot, helper and no-resume agents stay as saved",
			ws:   inDir("/a", c(`claude -p "hi"`), c("claude mcp list"), c("mastracode"), c("aider")),
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeAsSaved, Reason: "one-shot run (-p), not a conversation"},
				{WindowID: 2, Agent: "claude", Mode: plan.ModeAsSaved, Reason: "claude mcp is a helper, not a conversation"},
				{WindowID: 3, Agent: "mastracode", Mode: plan.ModeAsSaved, Reason: "mastracode cannot resume a conversation"},
				{WindowID: 4, Agent: "aider", Mode: plan.ModeAsSaved, Reason: "aider cannot resume a conversation"},
			},
		},
		{
			name: "a one-shot run in the directory blocks latest, a helper does not",
			ws: []live.AgentWindow{
				{ID: 1, Cwd: "/a", Cmd: c(`claude -p "hi"`)},
				{ID: 2, Cwd: "/a", Cmd: c("claude")},
				{ID: 3, Cwd: "/b", Cmd: c("claude doctor")},
				{ID: 4, Cwd: "/b", Cmd: c("claude")},
			},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeAsSaved, Reason: "one-shot run (-p), not a conversation"},
				{WindowID: 2, Agent: "claude", Mode: plan.ModeChoose, Argv: w("claude"), Reason: "2 claude windows in /a and no id for this one: the restore lists claude's conversations of /a to choose from"},
				{WindowID: 3, Agent: "claude", Mode: plan.ModeAsSaved, Reason: "claude doctor is a helper, not a conversation"},
				{WindowID: 4, Agent: "claude", Mode: plan.ModeLatest, Argv: w("claude", "--continue"), Reason: "only claude window in /b: --continue is per directory"},
			},
		},
		{
			name: "probe missing the latest flag: as saved; exact still fine",
			ws: []live.AgentWindow{
				{ID: 1, Cwd: "/a", Cmd: c("claude")},
				{ID: 2, Cwd: "/b", Cmd: c("claude --resume " + agentstest.UUID)},
			},
			probes: probe.Probes{"claude": {Agent: "claude", Installed: true, Missing: []string{"--continue"}}},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeAsSaved, Reason: "probe: flag --continue not in claude --help"},
				{WindowID: 2, Agent: "claude", Mode: plan.ModeExact, ID: agentstest.UUID, Argv: w("claude", "--resume", agentstest.UUID), Reason: "id 4f9e2a51 from --resume"},
			},
		},
		{
			name:   "probe missing --resume",
			ws:     []live.AgentWindow{{ID: 2, Cwd: "/b", Cmd: c("claude --resume " + agentstest.UUID)}},
			probes: probe.Probes{"claude": {Agent: "claude", Installed: true, Missing: []string{"--resume", "--continue"}}},
			want: []plan.Decision{
				{WindowID: 2, Agent: "claude", Mode: plan.ModeAsSaved, Reason: "probe: flag --resume not in claude --help"},
			},
		},
		{
			name:   "codex subcommand probe",
			ws:     []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: c("codex")}},
			probes: probe.Probes{"codex": {Agent: "codex", Installed: true, Missing: []string{"--last"}}},
			want: []plan.Decision{
				{WindowID: 1, Agent: "codex", Mode: plan.ModeAsSaved, Reason: "probe: flag --last not in codex resume --help"},
			},
		},
		{
			name:   "probe failed, not installed, not checked",
			ws:     []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: c("claude")}, {ID: 2, Cwd: "/a", Cmd: c("codex")}, {ID: 3, Cwd: "/a", Cmd: c("gemini")}},
			probes: probe.Probes{"claude": {Agent: "claude", Installed: true, Error: "claude --help: timed out after 20s"}, "codex": {Agent: "codex"}},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeAsSaved, Reason: "probe: claude --help: timed out after 20s"},
				// Not installed here: not probed, so the definition is trusted.
				{WindowID: 2, Agent: "codex", Mode: plan.ModeLatest, Argv: w("codex", "resume", "--last"), Reason: "only codex window in /a: resume --last is per directory"},
				{WindowID: 3, Agent: "gemini", Mode: plan.ModeAsSaved, Reason: "probe: gemini was not checked"},
			},
		},
		{
			name:   "probe OK",
			ws:     []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: c("claude")}},
			probes: probe.Probes{"claude": {Agent: "claude", Installed: true, OK: true}},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeLatest, Argv: w("claude", "--continue"), Reason: "only claude window in /a: --continue is per directory"},
			},
		},
		{
			name: "unrecognised windows are skipped",
			ws:   []live.AgentWindow{{ID: 1, Cwd: "/a"}, {ID: 2, Cwd: "/a", Cmd: c("amp")}},
			want: []plan.Decision{
				{WindowID: 2, Agent: "amp", Mode: plan.ModeLatest, Argv: w("amp", "threads", "continue", "--last"), Reason: "only amp window: threads continue --last is not per directory"},
			},
		},
		{
			name: "no directory: it may be any directory",
			ws:   []live.AgentWindow{{ID: 1, Cmd: c("claude")}, {ID: 2, Cwd: "/b", Cmd: c("claude")}, {ID: 3, Cmd: c("pi")}},
			want: []plan.Decision{
				{WindowID: 1, Agent: "claude", Mode: plan.ModeNew, Argv: w("claude"), Reason: "2 claude windows and the directory is unknown: new conversation"},
				{WindowID: 2, Agent: "claude", Mode: plan.ModeChoose, Argv: w("claude"), Reason: "2 claude windows in /b and no id for this one: the restore lists claude's conversations of /b to choose from"},
				{WindowID: 3, Agent: "pi", Mode: plan.ModeLatest, Argv: w("pi", "--continue"), Reason: "only pi window (directory unknown)"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := plan.Decide(s, tc.ws, tc.probes)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
