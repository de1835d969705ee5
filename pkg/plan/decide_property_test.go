package plan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// The properties below are the rules (the README's "Which conversation"), held
// for every generated set of windows and probe results: what Decide must do
// whatever the windows are, not a copy of how it does it.

// windowLines are commands that exercise every rule: ids in argv, helpers,
// one-shot runs, cwd flags, agents without a per-directory latest, agents
// that cannot resume, a flag in no grammar.
var windowLines = []string{
	"claude", "claude --continue", "claude --resume 4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73",
	"claude --resume 0f0e0d0c-0b0a-4909-8807-060504030201", `claude -p "hi"`, "claude mcp list",
	"claude --session-id 4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "claude --made-up x",
	"codex", "codex -C /b", "codex --cd ../a", "codex exec hi", "codex resume 0199a213-81c0-7800-8aa1-bbab2a035a53",
	"opencode", "gemini --model pro", "pi", "aider", "amp", "mastracode",
}

var (
	cwds     = []string{"", "/a", "/a/", "/b", "/c/d"}
	knownIDs = []string{"", "", "", "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "11111111-2222-4333-8444-555555555555", "--bad"}
)

// randomWindows are n windows with distinct ids, as kitty numbers them.
func randomWindows(t testing.TB, s *agents.Set, r *rand.Rand, n int) []live.AgentWindow {
	ws := make([]live.AgentWindow, n)
	for i, id := range r.Perm(3 * n)[:n] {
		line := windowLines[r.IntN(len(windowLines))]
		c, ok := recognize.String(s, line)
		if !ok {
			t.Fatalf("%q not recognised", line)
		}
		if r.IntN(10) == 0 {
			c = recognize.Command{} // not an agent
		}
		ws[i] = live.AgentWindow{ID: id + 1, Cwd: cwds[r.IntN(len(cwds))], Cmd: c, KnownID: knownIDs[r.IntN(len(knownIDs))]}
	}
	return ws
}

// randomProbes are probe results for some agents, nil (not checked) half
// the time: passed, missing a flag of a template, failed, not installed.
func randomProbes(s *agents.Set, r *rand.Rand) probe.Probes {
	if r.IntN(2) == 0 {
		return nil
	}
	p := probe.Probes{}
	for _, n := range []string{"claude", "codex", "opencode", "gemini", "pi", "amp"} {
		def, _ := s.Definition(n)
		flags := templateFlagsOf(def)
		switch r.IntN(6) {
		case 0: // not checked
		case 1:
			p[n] = probe.AgentCheck{Agent: n, Installed: true, Missing: []string{flags[r.IntN(len(flags))]}}
		case 2:
			p[n] = probe.AgentCheck{Agent: n, Installed: true, Error: n + " --help: exit status 1"}
			if r.IntN(2) == 0 {
				p[n] = probe.AgentCheck{Agent: n, Installed: true, Error: n + " --help: no answer within 6s", TimedOut: true}
			}
		case 3:
			p[n] = probe.AgentCheck{Agent: n}
		default:
			p[n] = probe.AgentCheck{Agent: n, Installed: true, OK: true}
		}
	}
	return p
}

func templateFlagsOf(def agents.Definition) []string {
	var out []string
	for _, w := range slices.Concat(def.Exact, def.Latest) {
		if f, _, _ := strings.Cut(w, "="); strings.HasPrefix(f, "-") {
			out = append(out, f)
		}
	}
	return out
}

// TestDecideProperties holds Decide to the rules on random windows.
func TestDecideProperties(t *testing.T) {
	s, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		ws := randomWindows(t, s, r, 1+r.IntN(10))
		probes := randomProbes(s, r)
		ds := Decide(s, ws, probes)
		in := inputs(s, ws)
		if len(ds) != len(in) {
			t.Fatalf("%d decisions for %d agent windows", len(ds), len(in))
		}
		for i, d := range ds {
			for _, prop := range decisionProperties {
				if why := prop(s, in, i, d, probes); why != "" {
					t.Fatalf("window %d (%+v), probes %v: %s\ndecided %+v\nwindows %+v", d.WindowID, in[i].w, probes, why, d, ws)
				}
			}
		}
		for _, prop := range planProperties {
			if why := prop(s, ws, in, ds, probes); why != "" {
				t.Fatalf("probes %v: %s\ndecided %+v\nwindows %+v", probes, why, ds, ws)
			}
		}
	}
}

// input is an agent window as the rules see it.
type input struct {
	w       live.AgentWindow
	defined bool
	def     agents.Definition
	id      string // the id it holds: a valid reported one, else its argv's
	dir     string // where its latest looks
}

// eligible: the window holds a conversation its agent can resume.
func (in input) eligible(s *agents.Set) bool {
	c := in.w.Cmd
	return in.defined && !c.OneShot && !c.Helper && s.CanResume(c.Agent)
}

// conversational: the window may hold the agent's latest conversation.
func (in input) conversational() bool { return in.defined && !in.w.Cmd.Helper }

func inputs(s *agents.Set, ws []live.AgentWindow) []input {
	var out []input
	for _, w := range ws {
		if w.Cmd.Agent == "" {
			continue
		}
		in := input{w: w, dir: windowDir(w.Cwd, w.Cmd.Dir)}
		in.def, in.defined = s.Definition(w.Cmd.Agent)
		in.id = w.Cmd.ID
		if w.KnownID != "" && s.CheckID(w.Cmd.Agent, w.KnownID) == nil {
			in.id = w.KnownID
		}
		out = append(out, in)
	}
	return out
}

// refused says whether the probes forbid the agent's mode: failed, not
// checked, or missing a token the mode's template uses. A probe that did
// not answer in time forbids nothing.
func refused(in input, mode Mode, probes probe.Probes) bool {
	if probes == nil {
		return false
	}
	r, ok := probes[in.w.Cmd.Agent]
	switch {
	case !ok:
		return true
	case !r.Installed, r.TimedOut: // no evidence against the definition
		return false
	case r.Error != "":
		return true
	}
	tmpl := map[Mode][]string{ModeExact: in.def.Exact, ModeLatest: in.def.Latest, ModeNew: in.def.New}[mode]
	for _, w := range tmpl {
		if f, _, _ := strings.Cut(w, "="); slices.Contains(r.Missing, f) {
			return true
		}
	}
	return false
}

// sameIDElsewhere: another window of the agent holds the same id as
// window i (which then starts a new one); false for a window without one.
func sameIDElsewhere(in []input, i int) bool {
	for j, o := range in {
		if j != i && in[i].id != "" && o.id == in[i].id && o.w.Cmd.Agent == in[i].w.Cmd.Agent {
			return true
		}
	}
	return false
}

// latestIsSafe: the agent's latest conversation can only be this window's.
func latestIsSafe(in input, all []input) bool {
	var same int
	for _, o := range all {
		if !o.conversational() || o.w.Cmd.Agent != in.w.Cmd.Agent {
			continue
		}
		if in.def.LatestScope != agents.ScopeCwd || in.dir == "" || o.dir == "" || o.dir == in.dir {
			same++
		}
	}
	return same == 1
}

type decisionProperty func(s *agents.Set, in []input, i int, d Decision, probes probe.Probes) string

var decisionProperties = []decisionProperty{
	// One decision per agent window, in window order.
	func(_ *agents.Set, in []input, i int, d Decision, _ probe.Probes) string {
		if d.WindowID != in[i].w.ID || d.Agent != in[i].w.Cmd.Agent {
			return fmt.Sprintf("decision %d is for window %d (%s)", i, d.WindowID, d.Agent)
		}
		return ""
	},
	// One-shot runs, helpers, agents that cannot resume or are not defined
	// stay as saved.
	func(s *agents.Set, in []input, i int, d Decision, _ probe.Probes) string {
		if !in[i].eligible(s) && d.Mode != ModeAsSaved {
			return "a window holding no conversation to resume is rewritten"
		}
		return ""
	},
	// As saved has no argv and no id; every other mode has the argv kittymux
	// builds, which the restore prompt's validation accepts.
	func(s *agents.Set, in []input, i int, d Decision, _ probe.Probes) string {
		if d.Mode == ModeAsSaved {
			if d.Argv != nil || d.ID != "" {
				return "as saved with an argv or an id"
			}
			return ""
		}
		mode := d.Mode
		if mode == ModeChoose {
			mode = ModeNew
		}
		want, err := ResumeArgv(s, in[i].w.Cmd, mode, d.ID)
		if err != nil || !slices.Equal(want, d.Argv) {
			return fmt.Sprintf("argv %q, ResumeArgv gives %q (%v)", d.Argv, want, err)
		}
		if err := Validate(s, d.Agent, d.Mode, d.ID, d.Argv); err != nil && in[i].w.Cmd.Unsure == "" {
			return fmt.Sprintf("the restore prompt refuses the argv: %v", err)
		}
		return ""
	},
	// Exact beats latest: exact only with the window's own id, which is a
	// valid id of the agent; a window with an id never resumes "latest".
	func(s *agents.Set, in []input, i int, d Decision, _ probe.Probes) string {
		switch {
		case d.Mode == ModeExact && (d.ID == "" || d.ID != in[i].id || s.CheckID(d.Agent, d.ID) != nil):
			return fmt.Sprintf("exact with id %q, the window's is %q", d.ID, in[i].id)
		case d.Mode == ModeLatest && in[i].id != "":
			return "latest for a window with an id"
		case d.Mode != ModeExact && d.ID != "":
			return "an id with mode " + string(d.Mode)
		}
		return ""
	},
	// Latest only where it cannot attach the wrong conversation, and there
	// unless the probes refuse it.
	func(s *agents.Set, in []input, i int, d Decision, probes probe.Probes) string {
		safe := in[i].eligible(s) && in[i].id == "" && len(in[i].def.Latest) > 0 && latestIsSafe(in[i], in)
		switch {
		case d.Mode == ModeLatest && !safe:
			return "latest where another window may hold the latest conversation"
		case safe && d.Mode != ModeLatest && !(d.Mode == ModeAsSaved && refused(in[i], ModeLatest, probes)):
			return "not latest where it is safe and the probes allow it"
		}
		return ""
	},
	// Never a flag the agent's help lacks: the probes' word decides.
	func(_ *agents.Set, in []input, i int, d Decision, probes probe.Probes) string {
		switch {
		case d.Mode == ModeChoose && (refused(in[i], ModeExact, probes) || refused(in[i], ModeNew, probes)):
			return "choose where the probes refuse an exact resume or a new conversation"
		case d.Mode != ModeAsSaved && d.Mode != ModeChoose && refused(in[i], d.Mode, probes):
			return "a mode the probes refuse"
		}
		return ""
	},
	// Choose only for a window without an id whose latest is not safe, of
	// an agent whose conversations kittymux can list; and always there
	// instead of a new conversation, unless the probes refuse it.
	func(s *agents.Set, in []input, i int, d Decision, probes probe.Probes) string {
		can := in[i].eligible(s) && in[i].id == "" && s.Chooses(d.Agent) && len(in[i].def.Exact) > 0 && len(in[i].def.Latest) > 0 &&
			in[i].dir != "" && !latestIsSafe(in[i], in)
		switch {
		case d.Mode == ModeChoose && !can:
			return "choose where the window has an id, its latest is safe, or its conversations cannot be listed"
		case can && d.Mode == ModeNew && !refused(in[i], ModeExact, probes) && !sameIDElsewhere(in, i):
			return "a new conversation where the user could choose among the directory's"
		}
		return ""
	},
	// A word that may be a prompt makes the restore ask first.
	func(_ *agents.Set, in []input, i int, d Decision, _ probe.Probes) string {
		if d.Mode != ModeAsSaved && d.Unsure != in[i].w.Cmd.Unsure {
			return fmt.Sprintf("unsure %q, the command's %q", d.Unsure, in[i].w.Cmd.Unsure)
		}
		return ""
	},
}

type planProperty func(s *agents.Set, ws []live.AgentWindow, in []input, ds []Decision, probes probe.Probes) string

var planProperties = []planProperty{
	// Never one conversation twice, and the id stays in the lowest window
	// holding it unless the probes refuse its resume.
	func(s *agents.Set, _ []live.AgentWindow, in []input, ds []Decision, probes probe.Probes) string {
		lowest := map[string]int{} // agent and id → index of the lowest window
		for i, x := range in {
			k := x.w.Cmd.Agent + " " + x.id
			if j, seen := lowest[k]; x.eligible(s) && x.id != "" && (!seen || x.w.ID < in[j].w.ID) {
				lowest[k] = i
			}
		}
		for i, d := range ds {
			k := d.Agent + " " + d.ID
			if d.Mode == ModeExact && lowest[k] != i {
				return fmt.Sprintf("id %s resumed in window %d, not in the lowest window holding it", d.ID, d.WindowID)
			}
		}
		for _, i := range lowest {
			if d := ds[i]; d.Mode != ModeExact && !(d.Mode == ModeAsSaved && refused(in[i], ModeExact, probes)) {
				return fmt.Sprintf("window %d holds id %s and does not resume it", d.WindowID, in[i].id)
			}
		}
		return ""
	},
	// Same input, same plan, whatever the order of the windows.
	func(s *agents.Set, ws []live.AgentWindow, _ []input, ds []Decision, probes probe.Probes) string {
		shuffled := slices.Clone(ws)
		slices.Reverse(shuffled)
		again := Decide(s, shuffled, probes)
		byWindow := map[int]Decision{}
		for _, d := range again {
			d.Reason = ""
			byWindow[d.WindowID] = d
		}
		for _, d := range ds {
			d.Reason = ""
			if diff := cmp.Diff(d, byWindow[d.WindowID]); diff != "" {
				return "another order of the windows decides otherwise:\n" + diff
			}
		}
		if diff := cmp.Diff(ds, Decide(s, ws, probes)); diff != "" {
			return "deciding again gives another plan:\n" + diff
		}
		return ""
	},
}

// BenchmarkDecide shows Decide's cost per window staying flat as the
// windows of one agent in one directory grow.
func BenchmarkDecide(b *testing.B) {
	s, err := agents.Load("")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100, 1000, 10000, 100000} {
		ws := make([]live.AgentWindow, n)
		for i := range ws {
			line := "claude --model opus"
			if i%2 == 0 {
				line = fmt.Sprintf("claude --resume 4f9e2a51-3c1d-4b7a-9e0f-%012d", i)
			}
			c, _ := recognize.String(s, line)
			ws[i] = live.AgentWindow{ID: i + 1, Cwd: "/home/u/code/api", Cmd: c}
		}
		b.Run(fmt.Sprintf("windows=%d", n), func(b *testing.B) {
			for b.Loop() {
				Decide(s, ws, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/window")
		})
	}
}
