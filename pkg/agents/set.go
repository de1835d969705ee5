package agents

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// Set is a loaded, validated collection of agent definitions.
type Set struct {
	agents    map[string]*slot
	names     []string
	byProgram map[string]*slot
	packages  []string // longest first, so a nested package name wins
	byPackage map[string]*slot
	// configEnv is ConfigEnv, made once: a record's every assignment is
	// checked against it.
	configEnv func() []AgentEnv
}

// slot holds one agent: a user's entry compiled as it was read, a shipped
// one compiled the first time it is asked for. A restore prompt needs one
// agent of the twenty, and compiling them all (their patterns and flag
// tables) was a tenth of its time to the exec. The shipped definitions
// all compile (TestShippedCompile); one that did not would read as not
// defined.
type slot struct {
	name string
	def  Definition // as loaded, Programs filled in
	once sync.Once
	a    *Agent
}

func compiled(a *Agent) *slot {
	s := &slot{name: a.Name, def: a.Def, a: a}
	s.once.Do(func() {})
	return s
}

// shippedSlots are the shipped definitions, to be compiled when asked for.
func shippedSlots() map[string]*slot {
	out := make(map[string]*slot, len(shipped))
	for _, e := range shipped {
		d := e.Def
		if len(d.Programs) == 0 {
			d.Programs = []string{e.Name}
		}
		out[e.Name] = &slot{name: e.Name, def: d}
	}
	return out
}

func (l *slot) get() *Agent {
	l.once.Do(func() {
		l.a, _ = buildNamed(ShippedFile, l.name, l.def)
	})
	return l.a
}

// Agent returns the named agent.
func (s *Set) Agent(name string) (*Agent, bool) {
	l, ok := s.agents[name]
	if !ok {
		return nil, false
	}
	a := l.get()
	return a, a != nil
}

// Load returns the shipped definitions, each replaced by an entry of the
// user's file with the same name. A missing user file (or "") is fine. On a
// bad user file the error names the file, the agent and the field, and the Set
// still holds the shipped definitions plus the user entries that were valid.
func Load(userFile string) (*Set, error) {
	shipped := shippedSlots()
	if userFile == "" {
		return newSet(shipped, nil, "")
	}
	data, err := userfile.Read(userFile, maxUserFile)
	if errors.Is(err, fs.ErrNotExist) {
		return newSet(shipped, nil, "")
	}
	if err != nil {
		s, _ := newSet(shipped, nil, "")
		return s, fmt.Errorf("read agent definitions %s: %w", userFile, err)
	}
	user, userErr := decodeFile(data, userFile)
	s, err := newSet(shipped, user, userFile)
	return s, errors.Join(userErr, err)
}

// newSet merges user entries over shipped ones. A user entry claiming another
// agent's program or package is refused: which agent a process is must not
// depend on map order.
func newSet(shipped map[string]*slot, userAgents map[string]*Agent, userFile string) (*Set, error) {
	user := make(map[string]*slot, len(userAgents))
	for n, a := range userAgents {
		user[n] = compiled(a)
	}
	merged := make(map[string]*slot, len(shipped)+len(user))
	for n, a := range shipped {
		merged[n] = a
	}
	for n, a := range user {
		merged[n] = a
	}
	var errs []error
	for {
		s, conflict := index(merged, user)
		if conflict == nil {
			return s, errors.Join(errs...)
		}
		errs = append(errs, fieldErr(userFile, conflict.agent, conflict.field, "%q is already agent %q", conflict.value, conflict.owner))
		if sh, ok := shipped[conflict.agent]; ok {
			merged[conflict.agent] = sh
		} else {
			delete(merged, conflict.agent)
		}
		delete(user, conflict.agent)
	}
}

type conflict struct{ agent, field, value, owner string }

func index(merged, user map[string]*slot) (*Set, *conflict) {
	s := &Set{agents: merged, byProgram: map[string]*slot{}, byPackage: map[string]*slot{}}
	s.configEnv = sync.OnceValue(s.makeConfigEnv)
	for n := range merged {
		s.names = append(s.names, n)
	}
	sort.Strings(s.names)
	// Shipped entries first, so the conflict is blamed on the user entry.
	order := slices.Clone(s.names)
	sort.SliceStable(order, func(i, j int) bool {
		_, ui := user[order[i]]
		_, uj := user[order[j]]
		return !ui && uj
	})
	for _, n := range order {
		a := merged[n]
		for _, p := range a.def.Programs {
			if o, dup := s.byProgram[p]; dup {
				return nil, &conflict{n, "programs", p, o.name}
			}
			s.byProgram[p] = a
		}
		for _, p := range a.def.Packages {
			if o, dup := s.byPackage[p]; dup {
				return nil, &conflict{n, "packages", p, o.name}
			}
			s.byPackage[p] = a
			s.packages = append(s.packages, p)
		}
	}
	sort.SliceStable(s.packages, func(i, j int) bool { return len(s.packages[i]) > len(s.packages[j]) })
	return s, nil
}

// IsProgram reports whether name (a process's name, as ps shows it) is a
// program of a defined agent.
func (s *Set) IsProgram(name string) bool {
	_, ok := s.byProgram[name]
	return ok
}

// Names lists the defined agents, sorted.
func (s *Set) Names() []string { return slices.Clone(s.names) }

// Definition returns an agent's definition as loaded (Programs filled in).
func (s *Set) Definition(name string) (Definition, bool) {
	a, ok := s.Agent(name)
	if !ok {
		return Definition{}, false
	}
	return a.Def, true
}

// CanResume reports whether the agent is defined and resumes by id.
func (s *Set) CanResume(name string) bool {
	a, ok := s.Agent(name)
	return ok && a.canResume
}

// IsIDFlag reports whether flag takes a conversation id of agentName: one
// of its id_flags, or the flag before {id} in its exact template.
func (s *Set) IsIDFlag(agentName, flag string) bool {
	a, ok := s.Agent(agentName)
	return ok && a.IDFlags[flag]
}

// ProbeRuns are the runs of agentName's CLI its definition expects tokens
// from (probe, then probes).
func (s *Set) ProbeRuns(agentName string) []Probe {
	a, ok := s.Agent(agentName)
	if !ok {
		return nil
	}
	return slices.Clone(a.probes)
}

// matchPath recognises an executable or script path by its name or by the
// npm package it sits in. A native child such as
// /…/@openai/codex-linux-x64/vendor/…/bin/codex is still called codex.
func (s *Set) MatchPath(p string) *Agent {
	if p == "" || strings.ContainsAny(p, "\x00\n\r") || IsOption(p) {
		return nil
	}
	base := filepath.Base(p)
	for _, ext := range []string{".exe", ".js", ".mjs", ".cjs"} {
		if b, ok := strings.CutSuffix(base, ext); ok {
			base = b
			break
		}
	}
	if a, ok := s.byProgram[base]; ok {
		return a.get()
	}
	slashed := "/" + p
	for _, pkg := range s.packages {
		if strings.Contains(slashed, "/node_modules/"+pkg+"/") {
			return s.byPackage[pkg].get()
		}
	}
	return nil
}

// maxUserFile caps the user's resume.json.
const maxUserFile = 4 << 20
