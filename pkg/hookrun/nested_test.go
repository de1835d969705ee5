package hookrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
)

func start(id string) string {
	return fmt.Sprintf(`{"session_id":%q,"cwd":"/home/u/api","hook_event_name":"SessionStart","source":"startup"}`, id)
}

// TestNestedRun: a tool of the window's claude runs `claude -p …` (or
// another agent): its hooks fire in the same window with another id. Only
// the window's own agent (the outermost below kitty) moves the window's
// id, user vars and lease; the nested run is recorded as its own session.
// /clear in the window's claude still moves the id.
func TestNestedRun(t *testing.T) {
	const a, b, c = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"
	window := []Proc{{4300, "sh"}, {4242, "claude"}, {4000, "bash"}}
	inner := []Proc{{5300, "sh"}, {5200, "claude"}, {5100, "bash"}, {4242, "claude"}, {4000, "bash"}}
	o, clk, calls := setup(t, nil)
	var procs []Proc
	o.Ancestors = func(int) []Proc { return procs }
	run := func(ps []Proc, agent, in string) Result {
		t.Helper()
		procs = ps
		clk.Advance(time.Minute)
		res, err := Run(context.Background(), o, agent, "SessionStart", strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	window1 := run(window, "claude", start(a))
	if window1.Nested || window1.AgentPID != 4242 {
		t.Fatalf("the window's claude: %+v", window1)
	}
	if res := run(inner, "claude", start(b)); !res.Nested || res.AgentPID != 5200 {
		t.Errorf("claude -p inside it: %+v, want nested, pid 5200", res)
	}
	// The window's record keeps its id; the nested run has its own record.
	recs := readJournal(t, o)
	byPID := map[int]journal.Record{}
	for _, r := range recs {
		byPID[r.PID] = r
	}
	if w := byPID[4242]; w.ID != a || w.Nested || len(w.PreviousIDs) != 0 {
		t.Errorf("window's record: %+v, want id %s only", w, a)
	}
	if n := byPID[5200]; n.ID != b || !n.Nested || n.WindowID != 4 {
		t.Errorf("nested record: %+v, want id %s, nested, in window 4", n, b)
	}
	if len(*calls) != 1 {
		t.Errorf("user vars set %d times, want once (the window's claude only): %q", len(*calls), *calls)
	}
	// /clear in the window's claude: its own hook moves the id.
	if res := run(window, "claude", start(c)); res.Nested {
		t.Errorf("/clear in the window's claude taken as nested")
	}
	if w := readByPID(t, o, 4242); w.ID != c || len(w.PreviousIDs) != 1 || w.PreviousIDs[0] != a {
		t.Errorf("after /clear: %+v, want id %s after %s", w, c, a)
	}
	// Another agent nested in a window the journal knows as codex's: the
	// codex record above it makes it nested, whatever its name.
	o2, _, calls2 := setup(t, nil)
	o2.Ancestors = func(int) []Proc {
		return []Proc{{7300, "sh"}, {7200, "node"}, {7100, "bash"}, {6200, "codex"}, {6100, "node"}, {4000, "bash"}}
	}
	j := journal.New(o2.Paths.Journal(), false)
	if _, err := j.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: journal.Key("unix:/tmp/kitty-777", 777, 4, 6100), Agent: "codex", Argv: []string{}, Open: true,
			KittyPID: 777, KittySocket: "unix:/tmp/kitty-777", WindowID: 4, PID: 6100})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), o2, "gemini", "SessionStart", strings.NewReader(start(b)))
	if err != nil || !res.Nested || len(*calls2) != 0 {
		t.Errorf("gemini inside codex: %+v %v, vars %q; want nested, no vars", res, err, *calls2)
	}
}

func readByPID(t *testing.T, o Options, pid int) journal.Record {
	t.Helper()
	for _, r := range readJournal(t, o) {
		if r.PID == pid {
			return r
		}
	}
	return journal.Record{}
}

// TestOwnChain: the agent that ran the hook is the nearest process that
// is not a shell, with those right above it that are not shells either.
func TestOwnChain(t *testing.T) {
	for _, c := range []struct {
		name   string
		procs  []Proc
		chain  []int
		nested bool
	}{
		{"claude in a shell", []Proc{{3, "sh"}, {2, "claude"}, {1, "zsh"}}, []int{2}, false},
		{"codex's native binary under its node", []Proc{{4, "sh"}, {3, "codex"}, {2, "node"}, {1, "-zsh"}}, []int{3, 2}, false},
		{"npx: npm's node past a shell is no agent", []Proc{{5, "sh"}, {4, "claude"}, {3, "sh"}, {2, "npm exec"}, {1, "zsh"}}, []int{4}, false},
		{"claude -p in claude's Bash tool", []Proc{{5, "sh"}, {4, "claude"}, {3, "bash"}, {2, "claude"}, {1, "zsh"}}, []int{4}, true},
		{"codex's native binary below its launcher, both named codex", []Proc{{4, "sh"}, {3, "codex"}, {2, "codex"}, {1, "zsh"}}, []int{3, 2}, false},
		{"claude inside codex", []Proc{{5, "sh"}, {4, "claude"}, {3, "bash"}, {2, "codex"}}, []int{4}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			chain, nested := ownChain(c.procs, "claude", shippedPrograms)
			if fmt.Sprint(chain) != fmt.Sprint(c.chain) || nested != c.nested {
				t.Errorf("chain %v nested %v, want %v %v", chain, nested, c.chain, c.nested)
			}
		})
	}
}

// The agents that make a run nested are those of the definitions, a
// user's own included: a claude run from a tool of the user's myagent is
// nested, and myagent is no agent where only the shipped ones are known.
func TestOwnChainKnowsTheUsersAgents(t *testing.T) {
	user := filepath.Join(t.TempDir(), "resume.json")
	if err := os.WriteFile(user, []byte(`{ "myagent": {
    "latest_scope": "unstated",
    "exact": ["--resume", "{id}"], "latest": ["--continue"],
    "strip_with_value": ["--resume"], "strip": ["--continue"],
    "helpers": ["mcp", "login"],
    "probe": { "args": ["--help"], "expect": ["--resume", "--continue"] } } }`), 0o600); err != nil {
		t.Fatal(err)
	}
	procs := []Proc{{5, "sh"}, {4, "claude"}, {3, "bash"}, {2, "myagent"}, {1, "zsh"}}
	if _, nested := ownChain(procs, "claude", agentPrograms(user)); !nested {
		t.Error("claude inside the user's myagent: not nested")
	}
	if _, nested := ownChain(procs, "claude", shippedPrograms); nested {
		t.Error("myagent taken for an agent without the user's definition")
	}
	for _, comm := range []string{"gemini", "opencode", "cursor-agent", "goose", "aider"} {
		if !shippedPrograms(comm) {
			t.Errorf("%s is no agent's program", comm)
		}
	}
}
