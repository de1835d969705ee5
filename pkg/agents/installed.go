package agents

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Installed maps each defined agent found by lookPath to its path.
func (s *Set) Installed(lookPath func(string) (string, error)) map[string]string {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	out := map[string]string{}
	for _, n := range s.names {
		if a, ok := s.Agent(n); ok {
			if p, ok := a.find(lookPath); ok {
				out[n] = p
			}
		}
	}
	return out
}

// InstalledNames are the names of installed (from Installed), sorted.
func InstalledNames(installed map[string]string) []string {
	names := make([]string, 0, len(installed))
	for n := range installed {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// CheckInstalled accepts an agent of installed (from Installed); the
// error says whether it is defined, and lists the agents installed.
func (s *Set) CheckInstalled(installed map[string]string, name string) error {
	if _, ok := installed[name]; ok {
		return nil
	}
	have := "none is installed"
	if names := InstalledNames(installed); len(names) > 0 {
		have = "installed: " + strings.Join(names, ", ")
	}
	if slices.Contains(s.Names(), name) {
		return fmt.Errorf("agent %s is not installed (not on PATH); %s", name, have)
	}
	return fmt.Errorf("unknown agent %q; %s", name, have)
}

func (a *Agent) find(lookPath func(string) (string, error)) (string, bool) {
	for _, prog := range a.Def.Programs {
		if p, err := lookPath(prog); err == nil {
			return p, true
		}
	}
	return "", false
}

// LookPath finds agentName's program with lookPath (exec.LookPath when
// nil): the first of its programs found.
func (s *Set) LookPath(agentName string, lookPath func(string) (string, error)) (string, bool) {
	a, ok := s.Agent(agentName)
	if !ok {
		return "", false
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	return a.find(lookPath)
}

// knownAgentBinaries are names of agent CLIs that doctor looks for on
// PATH, of which those with no definition are reported: the agent CLIs
// kittymux has no definition for, and each agent's own (its Code's
// Binaries). A defined agent's programs are its definition's.
func knownAgentBinaries() []string {
	out := []string{"auggie", "cline", "cn", "codebuff", "continue", "gptme", "iflow", "kiro-cli", "openhands", "plandex", "qwen"}
	for _, c := range Codes() {
		out = append(out, c.Binaries...)
	}
	return out
}

// UndefinedAgents lists agent CLIs found in pathDirs that have no definition,
// so doctor can say kittymux will leave their windows as saved.
func (s *Set) UndefinedAgents(pathDirs []string) []string {
	var out []string
	for _, name := range knownAgentBinaries() {
		if _, defined := s.byProgram[name]; defined {
			continue
		}
		for _, d := range pathDirs {
			if d == "" {
				continue
			}
			fi, err := os.Stat(filepath.Join(d, name))
			if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				out = append(out, name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}
