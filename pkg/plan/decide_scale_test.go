package plan

import (
	stdcmp "cmp"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/probe"
)

// decideQuadratic is Decide as it was before windows were grouped: every
// window compared with every other. It stays as the oracle the grouped
// Decide must agree with.
func decideQuadratic(s *agents.Set, ws []agents.Window, probes probe.Probes) []Decision {
	cat := &catalog{s: s, agents: map[string]*agent{}}
	var es []*entry
	out := make([]Decision, 0, len(ws))
	for _, w := range ws {
		if w.Cmd.Agent == "" {
			continue
		}
		out = append(out, Decision{WindowID: w.ID, Agent: w.Cmd.Agent})
	}
	i := 0
	for _, w := range ws {
		if w.Cmd.Agent == "" {
			continue
		}
		e := &entry{i: i, w: w, a: cat.get(w.Cmd.Agent), d: &out[i]}
		e.where = e.dir()
		i++
		es = append(es, e)
		if e.a == nil {
			e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("no definition for %s", w.Cmd.Agent)
			continue
		}
		c := w.Cmd
		switch {
		case c.OneShot:
			e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("one-shot run (%s), not a conversation", c.OneShotWhy)
		case c.Helper:
			e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("%s %s is a helper, not a conversation", e.a.name, c.HelperWhy)
		case !e.a.canResume:
			e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("%s cannot resume a conversation", e.a.name)
		case w.KnownID != "" && s.CheckID(e.a.name, w.KnownID) == nil:
			e.id, e.src = w.KnownID, stdcmp.Or(w.KnownIDFrom, "the recorded id")
		case c.ID != "":
			e.id, e.src = c.ID, c.IDFrom
		}
	}

	// Windows of one agent that can hold a conversation, for the "latest"
	// and "twice" rules. Helpers never hold one; one-shot runs may have
	// written the directory's most recent conversation, so they count.
	conversational := func(e *entry) bool { return e.a != nil && !e.w.Cmd.Helper }

	// Exact ids, lowest window id first.
	byID := map[string][]*entry{}
	for _, e := range es {
		if e.d.Mode == "" && e.id != "" {
			k := e.a.name + "\x00" + e.id
			byID[k] = append(byID[k], e)
		}
	}
	for _, group := range byID {
		sort.Slice(group, func(i, j int) bool { return group[i].w.ID < group[j].w.ID })
		first := group[0]
		first.d.Mode, first.d.ID = ModeExact, first.id
		first.d.Reason = fmt.Sprintf("id %s from %s", ids.Short(first.id), first.src)
		for _, e := range group[1:] {
			e.d.Mode = ModeNew
			e.d.Reason = fmt.Sprintf("id %s is resumed in window %d: new conversation", ids.Short(e.id), first.w.ID)
		}
	}

	for _, e := range es {
		if e.d.Mode != "" {
			continue
		}
		a := e.a
		if len(a.def.Latest) == 0 {
			e.d.Mode, e.d.Reason = ModeNew, fmt.Sprintf("no id and %s has no latest: new conversation", a.name)
			continue
		}
		latest := strings.Join(a.def.Latest, " ")
		if a.def.LatestScope == agents.ScopeCwd && e.where != "" {
			dir := e.where
			var same, withID []*entry
			for _, o := range es {
				// A window whose directory is unknown may be in this one.
				if o.a == a && conversational(o) && (o.where == dir || o.where == "") {
					same = append(same, o)
					if o.id != "" {
						withID = append(withID, o)
					}
				}
			}
			switch {
			case len(same) == 1:
				e.d.Mode = ModeLatest
				e.d.Reason = fmt.Sprintf("only %s window in %s: %s is per directory", a.name, dir, latest)
			case len(withID) == 0:
				e.d.Mode = ModeNew
				e.d.Reason = fmt.Sprintf("%d %s windows in %s and no ids: new conversation each", len(same), a.name, dir)
			default:
				e.d.Mode = ModeNew
				e.d.Reason = fmt.Sprintf("%d %s windows in %s, %s: %s could attach another window's conversation, new conversation",
					len(same), a.name, dir, windowsWithIDs(withID, nil), latest)
			}
			continue
		}
		var all []*entry
		for _, o := range es {
			if o.a == a && conversational(o) {
				all = append(all, o)
			}
		}
		switch {
		case len(all) == 1 && a.def.LatestScope == agents.ScopeCwd:
			e.d.Mode = ModeLatest
			e.d.Reason = fmt.Sprintf("only %s window (directory unknown)", a.name)
		case len(all) == 1:
			e.d.Mode = ModeLatest
			e.d.Reason = fmt.Sprintf("only %s window: %s is not per directory", a.name, latest)
		case a.def.LatestScope == agents.ScopeCwd:
			e.d.Mode = ModeNew
			e.d.Reason = fmt.Sprintf("%d %s windows and the directory is unknown: new conversation", len(all), a.name)
		default:
			e.d.Mode = ModeNew
			e.d.Reason = fmt.Sprintf("%d %s windows and %s is not per directory: new conversation", len(all), a.name, latest)
		}
	}

	for _, e := range es {
		d := e.d
		if d.Mode == ModeAsSaved || e.a == nil {
			continue
		}
		if why := refuse(probes, e.a, d.Mode); why != "" {
			d.Mode, d.ID, d.Reason = ModeAsSaved, "", why
			continue
		}
		argv, err := ResumeArgv(s, e.w.Cmd, d.Mode, d.ID)
		if err != nil {
			d.Mode, d.ID, d.Reason = ModeAsSaved, "", err.Error()
			continue
		}
		d.Argv = argv
		if e.w.Cmd.PromptDropped {
			d.Reason += "; prompt dropped"
		}
	}
	return out
}

// windowLines are commands that exercise every rule: ids in argv, helpers,
// one-shot runs, cwd flags, agents without a per-directory latest, agents
// that cannot resume.
var windowLines = []string{
	"claude", "claude --continue", "claude --resume 4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73",
	"claude --resume 0f0e0d0c-0b0a-4909-8807-060504030201", `claude -p "hi"`, "claude mcp list",
	"codex", "codex -C /b", "codex --cd ../a", "codex exec hi", "codex resume 0199a213-81c0-7800-8aa1-bbab2a035a53",
	"opencode", "gemini --model pro", "pi", "aider", "amp", "mastracode",
}

var (
	cwds     = []string{"", "/a", "/a/", "/b", "/c/d"}
	knownIDs = []string{"", "", "", "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "11111111-2222-4333-8444-555555555555", "--bad"}
)

func randomWindows(t testing.TB, s *agents.Set, r *rand.Rand, n int) []agents.Window {
	ws := make([]agents.Window, n)
	for i := range ws {
		line := windowLines[r.IntN(len(windowLines))]
		c, ok := s.RecognizeString(line)
		if !ok {
			t.Fatalf("%q not recognised", line)
		}
		if r.IntN(10) == 0 {
			c = agents.Command{} // not an agent
		}
		ws[i] = agents.Window{ID: r.IntN(2 * n), Cwd: cwds[r.IntN(len(cwds))], Cmd: c, KnownID: knownIDs[r.IntN(len(knownIDs))]}
	}
	return ws
}

// Grouping the windows changes no decision.
func TestDecideMatchesPairwise(t *testing.T) {
	s, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	probes := probe.Probes{"claude": {Agent: "claude", Installed: true, OK: true}, "codex": {Agent: "codex", Installed: true, Missing: []string{"--last"}}}
	for round := range 2000 {
		ws := randomWindows(t, s, r, 1+r.IntN(12))
		var p probe.Probes
		if round%2 == 0 {
			p = probes
		}
		if diff := cmp.Diff(decideQuadratic(s, ws, p), Decide(s, ws, p)); diff != "" {
			t.Fatalf("windows %+v: (-pairwise +grouped):\n%s", ws, diff)
		}
	}
}

// BenchmarkDecide shows Decide's cost per window staying flat as the
// windows of one agent in one directory grow.
func BenchmarkDecide(b *testing.B) {
	s, err := agents.Load("")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100, 1000, 10000, 100000} {
		ws := make([]agents.Window, n)
		for i := range ws {
			line := "claude --model opus"
			if i%2 == 0 {
				line = fmt.Sprintf("claude --resume 4f9e2a51-3c1d-4b7a-9e0f-%012d", i)
			}
			c, _ := s.RecognizeString(line)
			ws[i] = agents.Window{ID: i + 1, Cwd: "/home/u/code/api", Cmd: c}
		}
		b.Run(fmt.Sprintf("windows=%d", n), func(b *testing.B) {
			for b.Loop() {
				Decide(s, ws, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/window")
		})
	}
}
