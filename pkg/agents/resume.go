package agents

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/ids"
)

// Mode is how a window's agent comes back.
type Mode string

const (
	ModeExact   Mode = "exact"    // the conversation with a known id
	ModeLatest  Mode = "latest"   // the agent's most recent conversation, where that is safe
	ModeNew     Mode = "new"      // a new conversation with the same flags
	ModeAsSaved Mode = "as-saved" // not rewritten: the saved command stays
)

// Sentinel errors of resume argv building and validation.
var (
	ErrUnknownAgent = errors.New("unknown agent")
	ErrNoResume     = errors.New("agent cannot resume a conversation")
	ErrBadID        = errors.New("not a plain conversation id")
)

func (a *agent) checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: the id is empty", ErrBadID)
	case strings.HasPrefix(id, "-"):
		return fmt.Errorf("%w: %q starts with '-', so %s would read it as an option", ErrBadID, id, a.name)
	case strings.ContainsAny(id, " \t\n\r\v\f"):
		return fmt.Errorf("%w: %q holds whitespace", ErrBadID, id)
	case !isPlainToken(id):
		return fmt.Errorf("%w: %q holds characters other than letters, digits, '.', '_' and '-'", ErrBadID, id)
	case a.idRE != nil && !a.idRE().MatchString(id):
		return fmt.Errorf("%w: %q does not match the id form of %s (%s)", ErrBadID, id, a.name, a.def.IDPattern)
	}
	return nil
}

// ResumeArgv builds the argv that brings c back in mode: the program, the
// kept flags and the template of the mode. A flag-style template goes after
// the kept flags (before a "--"), a subcommand-style one right after the
// program. The old resume flags were stripped when c was recognised, so none
// is doubled, and prompts were dropped then, so none is replayed. Env is not
// part of the argv.
func (s *Set) ResumeArgv(c Command, mode Mode, id string) ([]string, error) {
	a, ok := s.agents[c.Agent]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownAgent, c.Agent)
	}
	if !a.canResume {
		return nil, fmt.Errorf("%s: %w", a.name, ErrNoResume)
	}
	if len(c.Program) == 0 {
		return nil, fmt.Errorf("%s: the command has no program", a.name)
	}
	var tmpl []string
	switch mode {
	case ModeExact:
		if err := a.checkID(id); err != nil {
			return nil, err
		}
		for _, w := range a.def.Exact {
			tmpl = append(tmpl, strings.Replace(w, idPlaceholder, id, 1))
		}
	case ModeLatest:
		if len(a.def.Latest) == 0 {
			return nil, fmt.Errorf("%s has no way to resume its latest conversation", a.name)
		}
		tmpl = a.def.Latest
	case ModeNew:
		tmpl = a.def.New
	case ModeAsSaved:
		return nil, errors.New("as-saved keeps the saved command: there is no resume argv to build")
	default:
		return nil, fmt.Errorf("unknown mode %q", mode)
	}
	if err := a.refusedBeside(c.Flags, mode); err != nil {
		return nil, err
	}
	return assemble(c.Program, c.Flags, tmpl), nil
}

func assemble(program, flags, tmpl []string) []string {
	out := slices.Clone(program)
	if len(tmpl) > 0 && !strings.HasPrefix(tmpl[0], "-") {
		return slices.Concat(out, tmpl, flags)
	}
	at := slices.Index(flags, "--")
	if at < 0 {
		at = len(flags)
	}
	return slices.Concat(out, flags[:at], tmpl, flags[at:])
}

// Validate checks a resume record read from an editable session file before
// the restore prompt runs it. It is valid only when argv is exactly what
// kittymux writes for that agent, mode and id: a changed program, an id that
// is an option, words after the id, an env or sh -c wrapper, a prompt or a
// secret all fail.
func (s *Set) Validate(agentName string, mode Mode, id string, argv []string) error {
	a, ok := s.agents[agentName]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownAgent, agentName)
	}
	if !a.canResume {
		return fmt.Errorf("%s: %w", a.name, ErrNoResume)
	}
	switch mode {
	case ModeExact, ModeLatest, ModeNew:
	case ModeAsSaved:
		return errors.New("mode as-saved has no resume command to check")
	default:
		return fmt.Errorf("unknown mode %q", mode)
	}
	if mode == ModeExact {
		if err := a.checkID(id); err != nil {
			return err
		}
	} else if id != "" {
		return fmt.Errorf("mode %s takes no id, got %q", mode, id)
	}
	if len(argv) == 0 {
		return errors.New("the command is empty")
	}
	for i, w := range argv {
		if w == "" {
			return fmt.Errorf("word %d of the command is empty", i+1)
		}
		if strings.ContainsFunc(w, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return fmt.Errorf("word %d of the command holds a control character", i+1)
		}
	}
	c, ok := s.RecognizeArgv(argv)
	if !ok {
		return fmt.Errorf("program %q is not a known agent", argv[0])
	}
	if c.Agent != a.name {
		return fmt.Errorf("program %q is %s, not %s", argv[0], c.Agent, a.name)
	}
	switch {
	case c.OneShot:
		return fmt.Errorf("the command is a one-shot run (%s), not a conversation", c.OneShotWhy)
	case c.Helper:
		return fmt.Errorf("the command is a helper (%s), not a conversation", c.HelperWhy)
	case c.PromptDropped:
		return errors.New("the command holds a prompt argument")
	case c.SecretDropped:
		return errors.New("the command holds a secret flag")
	}
	want, err := s.ResumeArgv(c, mode, id)
	if err != nil {
		return err
	}
	if !slices.Equal(want, argv) {
		return fmt.Errorf("the command is not what kittymux writes for %s %s: got %q, want %q", a.name, mode, argv, want)
	}
	return nil
}

// Window is one agent window as the scanner or the rewriter sees it.
type Window struct {
	ID  int
	Cwd string
	Cmd Command
	// KnownID is the conversation id reported for the window's agent
	// process (its own records, its hook, kittymux's journal; never a user
	// var alone). It wins over an id in argv:
	// the agent reports the id it is in now, which changes after /clear or
	// /resume, while argv keeps the one it started with.
	KnownID string
	// KnownIDFrom names the source of KnownID for reasons ("journal").
	KnownIDFrom string
	// Seen are the files the window's agent process ran (its executable
	// and, for an interpreter, the agent's script), symlinks resolved, as
	// read from the OS: what a sealed record may name as its program.
	Seen []string
	// Unverified says why Cmd rests on kitty's word rather than on the
	// process read from the OS (no /proc, a process that could not be
	// read); a record made from it is not sealed and asks first.
	Unverified string
	// ProcEnv is the agent process's environment as read from the OS: an
	// environment a restore record set is kept only where the process
	// holds it.
	ProcEnv []string
}

// Decision is what a window's agent comes back as.
type Decision struct {
	WindowID int
	Agent    string
	Mode     Mode
	ID       string
	Argv     []string // nil for ModeAsSaved: the saved command stays
	Reason   string
	// Unsure: Argv keeps a word that may be a prompt (Command.Unsure says
	// why). The restore prompt shows the command and waits for a key, even
	// in auto mode.
	Unsure string
}

// Decide applies design.md's rules to every agent window:
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
func (s *Set) Decide(ws []Window, probes Probes) []Decision {
	ws = s.withGrammars(ws, probes)
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
		e := &entry{i: i, w: w, a: s.agents[w.Cmd.Agent], d: &out[i]}
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
		case w.KnownID != "" && e.a.checkID(w.KnownID) == nil:
			e.id, e.src = w.KnownID, cmp.Or(w.KnownIDFrom, "the recorded id")
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

	// The "latest" rules look at every window of the agent, or of the agent
	// in the window's directory: grouped once here, so that a save of many
	// windows of one agent in one directory stays linear.
	byAgent := map[*agent]*group{}
	byDir := map[dirKey]*group{}
	unknownDir := map[*agent]*group{} // may be in any directory of the agent
	for _, e := range es {
		e.where = e.dir()
		if !conversational(e) {
			continue
		}
		groupOf(byAgent, e.a).add(e)
		if e.where == "" {
			groupOf(unknownDir, e.a).add(e)
		} else {
			groupOf(byDir, dirKey{e.a, e.where}).add(e)
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
		if a.def.LatestScope == ScopeCwd && e.where != "" {
			dir := e.where
			// Undecided windows are conversational: the group holds e.
			g, u := byDir[dirKey{a, dir}], groupOf(unknownDir, a)
			if g.mode == "" {
				// A window whose directory is unknown may be in this one.
				same, withID := len(g.all)+len(u.all), len(g.withID)+len(u.withID)
				switch {
				case same == 1:
					g.mode = ModeLatest
					g.reason = fmt.Sprintf("only %s window in %s: %s is per directory", a.name, dir, latest)
				case withID == 0:
					g.mode = ModeNew
					g.reason = fmt.Sprintf("%d %s windows in %s and no ids: new conversation each", same, a.name, dir)
				default:
					g.mode = ModeNew
					g.reason = fmt.Sprintf("%d %s windows in %s, %s: %s could attach another window's conversation, new conversation",
						same, a.name, dir, windowsWithIDs(g.withID, u.withID), latest)
				}
			}
			e.d.Mode, e.d.Reason = g.mode, g.reason
			continue
		}
		all := len(byAgent[a].all)
		switch {
		case all == 1 && a.def.LatestScope == ScopeCwd:
			e.d.Mode = ModeLatest
			e.d.Reason = fmt.Sprintf("only %s window (directory unknown)", a.name)
		case all == 1:
			e.d.Mode = ModeLatest
			e.d.Reason = fmt.Sprintf("only %s window: %s is not per directory", a.name, latest)
		case a.def.LatestScope == ScopeCwd:
			e.d.Mode = ModeNew
			e.d.Reason = fmt.Sprintf("%d %s windows and the directory is unknown: new conversation", all, a.name)
		default:
			e.d.Mode = ModeNew
			e.d.Reason = fmt.Sprintf("%d %s windows and %s is not per directory: new conversation", all, a.name, latest)
		}
	}

	for _, e := range es {
		d := e.d
		if d.Mode == ModeAsSaved || e.a == nil {
			continue
		}
		if why := probes.refuse(e.a, d.Mode); why != "" {
			d.Mode, d.ID, d.Reason = ModeAsSaved, "", why
			continue
		}
		argv, err := s.ResumeArgv(e.w.Cmd, d.Mode, d.ID)
		if err != nil {
			d.Mode, d.ID, d.Reason = ModeAsSaved, "", err.Error()
			continue
		}
		d.Argv = argv
		if e.w.Cmd.PromptDropped {
			d.Reason += "; prompt dropped"
		}
		if e.w.Cmd.Unsure != "" {
			d.Unsure = e.w.Cmd.Unsure
			d.Reason += "; " + e.w.Cmd.Unsure + ", so the restore asks first"
		}
	}
	return out
}

// entry is a window under decision.
type entry struct {
	i     int // its place in the windows decided
	w     Window
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

// Quote renders argv for people to read, each word shell-quoted where it
// needs it. Nothing runs what it returns.
func Quote(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = strconv.Quote(a)
		}
		parts[i] = q
	}
	return strings.Join(parts, " ")
}
