// Package plan decides how each agent window comes back after a restart
// (Decide: the rules of the README's "Which conversation"), builds the resume argv of a decision,
// and validates a resume record read back from an editable session file.
// It reads the definitions and recognition of pkg/agents and the probe
// results of pkg/probe.
package plan

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// Mode is how a window's agent comes back.
type Mode string

const (
	ModeExact  Mode = "exact"  // the conversation with a known id
	ModeLatest Mode = "latest" // the agent's most recent conversation, where that is safe
	ModeNew    Mode = "new"    // a new conversation with the same flags
	// ModeChoose: several of the agent's conversations could be the
	// window's and nothing says which; the restore lists them and the user
	// picks one in one key (Argv is the new conversation's, for `n`).
	ModeChoose  Mode = "choose"
	ModeAsSaved Mode = "as-saved" // not rewritten: the saved command stays
)

// Decision is what a window's agent comes back as. Its views (the
// rewrite's outcome, `sessions list`, `recover`) embed it, so its JSON
// names are theirs.
type Decision struct {
	// WindowID is the kitty window's id, or its position where the
	// windows come from several kitties (DecideByPosition).
	WindowID int    `json:"window_id,omitempty"`
	Agent    string `json:"agent"`
	Mode     Mode   `json:"mode"`
	ID       string `json:"id,omitempty"`
	// Argv is nil for ModeAsSaved: the saved command stays.
	Argv   []string `json:"argv,omitempty"`
	Reason string   `json:"reason"`
	// Unsure: Argv keeps a word that may be a prompt (Command.Unsure says
	// why). The restore prompt shows the command and waits for a key, even
	// in auto mode.
	Unsure string `json:"unsure,omitempty"`
}

// Decide applies the rules (the README's "Which conversation") to every agent window:
//   - exact beats latest: an id in argv or a reported id is resumed;
//   - latest only where it cannot attach the wrong conversation: scope cwd
//     and the only window of that agent in that directory, or the single
//     window of that agent at all;
//   - never one conversation twice: the same id in two windows is resumed in
//     the lowest window id, the others start a new one; two windows of one
//     agent in one directory without ids start a new one each;
//   - one-shot runs, helpers, agents that cannot resume and agents whose
//     probe failed stay as saved.
//
// probes nil means not checked: the definitions are trusted.
func Decide(s *agents.Set, ws []live.AgentWindow, probes probe.Probes) []Decision {
	reparse := recognize.Reparser(s, probes.Grammar)
	ws = slices.Clone(ws)
	for i := range ws {
		ws[i].Cmd = reparse(ws[i].Cmd)
	}
	out, es := entries(s, ws)
	decideExact(es)
	decideLatest(es, groupWindows(es))
	for _, e := range es {
		finish(s, e, probes)
	}
	return out
}

// DecideByPosition decides windows of several kitties, whose window ids
// repeat: each window is decided as the window of its position in ws
// (from 1), and its decision's WindowID is that position. probes, when
// not nil, is asked for the agents the windows run.
func DecideByPosition(s *agents.Set, ws []live.AgentWindow, probes func(agents []string) probe.Probes) []Decision {
	ws = slices.Clone(ws)
	var names []string
	for i := range ws {
		ws[i].ID = i + 1
		names = append(names, ws[i].Cmd.Agent)
	}
	var p probe.Probes
	if probes != nil && len(names) > 0 {
		p = probes(names)
	}
	return Decide(s, ws, p)
}

// entries makes a decision for each agent window, in window order, and
// decides those that stay as saved whatever the other windows are; the
// others get the id they would resume, if any.
func entries(s *agents.Set, ws []live.AgentWindow) ([]Decision, []*entry) {
	cat := &catalog{s: s, agents: map[string]*agent{}}
	out := make([]Decision, 0, len(ws))
	for _, w := range ws {
		if w.Cmd.Agent != "" {
			out = append(out, Decision{WindowID: w.ID, Agent: w.Cmd.Agent})
		}
	}
	es := make([]*entry, 0, len(out))
	for _, w := range ws {
		if w.Cmd.Agent == "" {
			continue
		}
		i := len(es)
		e := &entry{i: i, w: w, a: cat.get(w.Cmd.Agent), d: &out[i]}
		e.where = e.dir()
		es = append(es, e)
		e.classify(s)
	}
	return out, es
}

// classify keeps e as saved when it holds no conversation to resume, or
// notes the id it would resume.
func (e *entry) classify(s *agents.Set) {
	w, c := e.w, e.w.Cmd
	switch {
	case e.a == nil:
		e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("no definition for %s", c.Agent)
	case c.OneShot:
		e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("one-shot run (%s), not a conversation", c.OneShotWhy)
	case c.Helper:
		e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("%s %s is a helper, not a conversation", e.a.name, c.HelperWhy)
	case !e.a.canResume:
		e.d.Mode, e.d.Reason = ModeAsSaved, fmt.Sprintf("%s cannot resume a conversation", e.a.name)
	case w.KnownID != "" && s.CheckID(e.a.name, w.KnownID) == nil:
		e.id, e.src = w.KnownID, cmp.Or(w.KnownIDFrom, "the recorded id")
	case c.ID != "":
		e.id, e.src = c.ID, c.IDFrom
	}
}

// decideExact resumes each id in the lowest window holding it; the other
// windows with that id start a new conversation.
func decideExact(es []*entry) {
	byID := map[string][]*entry{}
	for _, e := range es {
		if e.d.Mode == "" && e.id != "" {
			k := e.a.name + "\x00" + e.id
			byID[k] = append(byID[k], e)
		}
	}
	for _, same := range byID {
		sort.Slice(same, func(i, j int) bool { return same[i].w.ID < same[j].w.ID })
		first := same[0]
		first.d.Mode, first.d.ID = ModeExact, first.id
		first.d.Reason = fmt.Sprintf("id %s from %s", ids.Short(first.id), first.src)
		for _, e := range same[1:] {
			e.d.Mode = ModeNew
			e.d.Reason = fmt.Sprintf("id %s is resumed in window %d: new conversation", ids.Short(e.id), first.w.ID)
		}
	}
}

// groups are the windows that may hold a conversation, by agent and by the
// agent's directory: the "latest" rules look at every window of the agent,
// or of the agent in the window's directory, grouped once so that a save of
// many windows of one agent in one directory stays linear.
type groups struct {
	byAgent    map[*agent]*group
	byDir      map[dirKey]*group
	unknownDir map[*agent]*group // may be in any directory of the agent
}

// groupWindows groups the windows that can hold a conversation. Helpers
// never hold one; one-shot runs may have written the directory's most
// recent conversation, so they count.
func groupWindows(es []*entry) *groups {
	gs := &groups{byAgent: map[*agent]*group{}, byDir: map[dirKey]*group{}, unknownDir: map[*agent]*group{}}
	for _, e := range es {
		if e.a == nil || e.w.Cmd.Helper {
			continue
		}
		groupOf(gs.byAgent, e.a).add(e)
		if e.where == "" {
			groupOf(gs.unknownDir, e.a).add(e)
		} else {
			groupOf(gs.byDir, dirKey{e.a, e.where}).add(e)
		}
	}
	return gs
}

// decideLatest decides the windows without an id: the agent's latest
// conversation where it cannot be another window's, else a new one.
func decideLatest(es []*entry, gs *groups) {
	for _, e := range es {
		switch {
		case e.d.Mode != "":
		case len(e.a.def.Latest) == 0:
			e.d.Mode, e.d.Reason = ModeNew, fmt.Sprintf("no id and %s has no latest: new conversation", e.a.name)
		case e.a.def.LatestScope == agents.ScopeCwd && e.where != "":
			g := gs.byDir[dirKey{e.a, e.where}]
			g.decideDir(e.a, e.where, groupOf(gs.unknownDir, e.a))
			e.d.Mode, e.d.Reason = g.mode, g.reason
		default:
			e.d.Mode, e.d.Reason = latestAnywhere(e.a, len(gs.byAgent[e.a].all))
			if e.d.Mode == ModeNew && e.where != "" && e.a.chooses() {
				e.d.Mode = ModeChoose
				e.d.Reason = fmt.Sprintf("%d %s windows and no id for this one: the restore lists %s's conversations of %s to choose from",
					len(gs.byAgent[e.a].all), e.a.name, e.a.name, e.where)
			}
		}
	}
}

// decideDir decides, once for all of them, the undecided windows of a in
// dir (g holds them: undecided windows are conversational); u are a's
// windows whose directory is unknown, which may be in this one.
func (g *group) decideDir(a *agent, dir string, u *group) {
	if g.mode != "" {
		return
	}
	latest := strings.Join(a.def.Latest, " ")
	same, withID := len(g.all)+len(u.all), len(g.withID)+len(u.withID)
	switch {
	case same == 1:
		g.mode = ModeLatest
		g.reason = fmt.Sprintf("only %s window in %s: %s is per directory", a.name, dir, latest)
	case a.chooses():
		g.mode = ModeChoose
		g.reason = fmt.Sprintf("%d %s windows in %s and no id for this one: the restore lists %s's conversations of %s to choose from",
			same, a.name, dir, a.name, dir)
	case withID == 0:
		g.mode = ModeNew
		g.reason = fmt.Sprintf("%d %s windows in %s and no ids: new conversation each", same, a.name, dir)
	default:
		g.mode = ModeNew
		g.reason = fmt.Sprintf("%d %s windows in %s, %s: %s could attach another window's conversation, new conversation",
			same, a.name, dir, windowsWithIDs(g.withID, u.withID), latest)
	}
}

// latestAnywhere decides a window of a whose latest is not per directory,
// or whose directory is unknown, among all conversational windows of a.
func latestAnywhere(a *agent, all int) (Mode, string) {
	latest := strings.Join(a.def.Latest, " ")
	switch {
	case all == 1 && a.def.LatestScope == agents.ScopeCwd:
		return ModeLatest, fmt.Sprintf("only %s window (directory unknown)", a.name)
	case all == 1:
		return ModeLatest, fmt.Sprintf("only %s window: %s is not per directory", a.name, latest)
	case a.def.LatestScope == agents.ScopeCwd:
		return ModeNew, fmt.Sprintf("%d %s windows and the directory is unknown: new conversation", all, a.name)
	}
	return ModeNew, fmt.Sprintf("%d %s windows and %s is not per directory: new conversation", all, a.name, latest)
}

// finish builds the argv of e's decision, or keeps e as saved when the
// probes refuse its mode or no argv can be built.
func finish(s *agents.Set, e *entry, probes probe.Probes) {
	d := e.d
	if d.Mode == ModeAsSaved || e.a == nil {
		return
	}
	mode := d.Mode
	if mode == ModeChoose {
		// Choosing resumes an exact id; its argv is the new
		// conversation's, what `n` runs.
		if why := refuse(probes, e.a, ModeExact); why != "" {
			d.Mode, d.Reason = ModeNew, d.Reason+"; "+why+": new conversation"
		}
		mode = ModeNew
	}
	if why := refuse(probes, e.a, mode); why != "" {
		d.Mode, d.ID, d.Reason = ModeAsSaved, "", why
		return
	}
	argv, err := ResumeArgv(s, e.w.Cmd, mode, d.ID)
	if err != nil {
		d.Mode, d.ID, d.Reason = ModeAsSaved, "", err.Error()
		return
	}
	d.Argv = argv
	if note := unanswered(probes, e.a); note != "" {
		d.Reason += "; " + note
	}
	if e.w.Cmd.PromptDropped {
		d.Reason += "; prompt dropped"
	}
	if e.w.Cmd.Unsure != "" {
		d.Unsure = e.w.Cmd.Unsure
		d.Reason += "; " + e.w.Cmd.Unsure + ", so the restore asks first"
	}
}

// entry is a window under decision.
type entry struct {
	i     int // its place in the windows decided
	w     live.AgentWindow
	a     *agent
	id    string // the id it resumes, if any
	src   string // where the id came from
	where string // dir(), computed once
	d     *Decision
}

// dir is where "latest" looks for this window: the window's directory, or
// the one a cwd flag moved the agent to.
func (e *entry) dir() string { return windowDir(e.w.Cwd, e.w.Cmd.Dir) }

type dirKey struct {
	a   *agent
	dir string
}

// group is windows of one agent (in one directory) that may hold a
// conversation, in window order. All of a directory's undecided windows
// come out the same, so mode and reason are decided once per group.
type group struct {
	all, withID []*entry
	mode        Mode
	reason      string
}

func (g *group) add(e *entry) {
	g.all = append(g.all, e)
	if e.id != "" {
		g.withID = append(g.withID, e)
	}
}

// groupOf returns m's group for k, made empty when there is none.
func groupOf[K comparable](m map[K]*group, k K) *group {
	g := m[k]
	if g == nil {
		g = &group{}
		m[k] = g
	}
	return g
}

// maxListed caps the windows a reason names: a reason per window that named
// every other window would make the output quadratic in windows.
const maxListed = 5

// windowsWithIDs names the windows of a and b (each in window order) in
// window order, the first maxListed of them.
func windowsWithIDs(a, b []*entry) string {
	n := len(a) + len(b)
	var ids []string
	for len(ids) < min(n, maxListed) {
		var e *entry
		if len(b) == 0 || (len(a) > 0 && a[0].i < b[0].i) {
			e, a = a[0], a[1:]
		} else {
			e, b = b[0], b[1:]
		}
		ids = append(ids, strconv.Itoa(e.w.ID))
	}
	list := strings.Join(ids, ", ")
	switch {
	case n == 1:
		return "window " + list + " has an id"
	case n > maxListed:
		return fmt.Sprintf("windows %s and %d more have ids", list, n-maxListed)
	}
	return "windows " + list + " have ids"
}

// windowDir resolves a cwd flag against the window's directory.
func windowDir(cwd, flagDir string) string {
	switch {
	case flagDir == "":
		if cwd == "" {
			return ""
		}
		return filepath.Clean(cwd)
	case filepath.IsAbs(flagDir):
		return filepath.Clean(flagDir)
	case cwd == "":
		return ""
	default:
		return filepath.Join(cwd, flagDir)
	}
}
