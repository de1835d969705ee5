package recognize

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// maxPackageJSON caps an npm package's package.json, which a cloned
// repository's node_modules can hold (a FIFO there must not block a scan).
const maxPackageJSON = 1 << 20

// Sentinel errors of TrustedProgram.
var (
	// ErrNotInstalled: the program is not there at all.
	ErrNotInstalled = errors.New("not installed")
	// ErrNotAgent: the program is there but is not the installed agent.
	ErrNotAgent = errors.New("not the installed agent")
)

// Trust is what TrustedProgram may rely on besides the definitions.
type Trust struct {
	// LookPath finds a bare name on the PATH the agent would run with.
	LookPath func(string) (string, error)
	// Seen are files kittymux saw running in the saved window, symlinks
	// resolved. Only a sealed record's are passed: an editor could name any.
	Seen []string
}

// TrustedProgram checks that argv's program is agentName as installed here and
// returns the path to execute. Recognition goes by name (a file called
// claude is claude), which is fine for reading a process list but not for
// running a command from an editable file: /tmp/x/claude is called claude
// too. So the program must be the very file of the agent on PATH (symlinks
// followed), or a file kittymux saw running in the saved window (trust.Seen).
// An interpreter (node, bun, python) counts only with the agent package's
// own entry script and no interpreter options. Relative paths are refused:
// they name a different file in every directory.
func TrustedProgram(s *agents.Set, agentName string, argv []string, trust Trust) (string, error) {
	a, ok := s.Agent(agentName)
	if !ok {
		return "", fmt.Errorf("%w %q", agents.ErrUnknownAgent, agentName)
	}
	c, ok := Argv(s, argv)
	if !ok || c.Agent != a.Name {
		return "", fmt.Errorf("%w: %q is not %s", ErrNotAgent, firstWord(argv), a.Name)
	}
	for _, w := range c.Program {
		if strings.Contains(w, "/") && !filepath.IsAbs(w) {
			return "", fmt.Errorf("%w: the program path %q is relative", ErrNotAgent, w)
		}
	}
	switch len(c.Program) {
	case 1:
		return native(s, a, c.Program[0], trust)
	case 2:
		return script(s, a, c.Program[0], c.Program[1], trust)
	}
	return "", fmt.Errorf("%w: interpreter options %q are not accepted", ErrNotAgent, c.Program[1:len(c.Program)-1])
}

func firstWord(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return argv[0]
}

// native checks a program run directly.
func native(s *agents.Set, a *agents.Agent, prog string, trust Trust) (string, error) {
	if !strings.Contains(prog, "/") {
		// A bare name is looked up on PATH: it is the installed agent by
		// definition, as long as it is one of the agent's own names.
		if !slices.Contains(a.Def.Programs, prog) {
			return "", fmt.Errorf("%w: %q is not one of %s's program names %q", ErrNotAgent, prog, a.Name, a.Def.Programs)
		}
		p, err := trust.LookPath(prog)
		if err != nil {
			return "", fmt.Errorf("%w: %s not found on PATH", ErrNotInstalled, prog)
		}
		return p, nil
	}
	real, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrNotInstalled, prog, err)
	}
	if slices.Contains(trust.Seen, real) {
		return prog, nil
	}
	for _, name := range a.Def.Programs {
		if onPath, ok := resolvePath(trust, name); ok && sameFile(real, onPath) {
			return prog, nil
		}
	}
	return "", fmt.Errorf("%w: %s is not the %s found on PATH (%s), nor the file that ran in the saved window",
		ErrNotAgent, prog, a.Name, strings.Join(a.Def.Programs, ", "))
}

// script checks `interpreter script`: both must be trusted files.
func script(s *agents.Set, a *agents.Agent, interp, script string, trust Trust) (string, error) {
	base := filepath.Base(interp)
	var path string
	if !strings.Contains(interp, "/") {
		p, err := trust.LookPath(interp)
		if err != nil {
			return "", fmt.Errorf("%w: %s not found on PATH", ErrNotInstalled, interp)
		}
		path = p
	} else {
		real, err := filepath.EvalSymlinks(interp)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrNotInstalled, interp, err)
		}
		onPath, ok := resolvePath(trust, base)
		if !slices.Contains(trust.Seen, real) && (!ok || !sameFile(real, onPath)) {
			return "", fmt.Errorf("%w: %s is not the %s found on PATH, nor the file that ran in the saved window", ErrNotAgent, interp, base)
		}
		path = interp
	}
	if !filepath.IsAbs(script) {
		return "", fmt.Errorf("%w: the script %q is not an absolute path", ErrNotAgent, script)
	}
	real, err := filepath.EvalSymlinks(script)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrNotInstalled, script, err)
	}
	if slices.Contains(trust.Seen, real) {
		return path, nil
	}
	for _, name := range a.Def.Programs {
		onPath, ok := resolvePath(trust, name)
		if !ok {
			continue
		}
		if sameFile(real, onPath) {
			return path, nil
		}
		for _, entry := range packageBins(a, trust, name, onPath) {
			if sameFile(real, entry) {
				return path, nil
			}
		}
	}
	return "", fmt.Errorf("%w: %s is not the entry script of the %s installed on PATH, nor the file that ran in the saved window",
		ErrNotAgent, script, a.Name)
}

// resolvePath finds name on PATH with symlinks followed.
func resolvePath(trust Trust, name string) (string, bool) {
	p, err := trust.LookPath(name)
	if err != nil {
		return "", false
	}
	real, err := filepath.EvalSymlinks(p)
	return real, err == nil
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// packageBins are the entry scripts (package.json "bin") of the agent's npm
// package that the PATH entry name belongs to: its symlink lands inside
// node_modules/<package>/, or it sits in a node_modules/.bin beside the
// package (a shim). The package is found from PATH, never from the script
// being checked: a copy of the package elsewhere proves nothing.
func packageBins(a *agents.Agent, trust Trust, name, real string) []string {
	var dirs []string
	for _, pkg := range a.Def.Packages {
		marker := "/node_modules/" + pkg + "/"
		if i := strings.LastIndex(real, marker); i >= 0 {
			dirs = append(dirs, real[:i+len(marker)-1])
		}
	}
	if p, err := trust.LookPath(name); err == nil && filepath.Base(filepath.Dir(p)) == ".bin" {
		for _, pkg := range a.Def.Packages {
			dirs = append(dirs, filepath.Join(filepath.Dir(filepath.Dir(p)), filepath.FromSlash(pkg)))
		}
	}
	var out []string
	for _, dir := range dirs {
		data, err := userfile.Read(filepath.Join(dir, "package.json"), maxPackageJSON)
		if err != nil {
			continue
		}
		var pj struct {
			Bin json.RawMessage `json:"bin"`
		}
		if json.Unmarshal(data, &pj) != nil {
			continue
		}
		var one string
		var many map[string]string
		switch {
		case json.Unmarshal(pj.Bin, &one) == nil:
			many = map[string]string{name: one}
		case json.Unmarshal(pj.Bin, &many) == nil:
		default:
			continue
		}
		for _, rel := range many {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			// A bin entry that climbs out of the package is not its own.
			if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
				continue
			}
			if r, err := filepath.EvalSymlinks(p); err == nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// Placed makes c a command the prompt accepts as kittymux saw it: a relative
// program path becomes absolute in the window's directory cwd (the prompt
// refuses relative paths: they name another file in every directory), and
// interpreter options are dropped (the prompt accepts an interpreter only
// with the agent's script right after it; the options recognition lets
// through only tune memory and warnings). ok is false when a relative
// program cannot be placed.
func (c Command) Placed(cwd string) (Command, bool) {
	prog := slices.Clone(c.Program)
	if len(prog) > 2 {
		prog = []string{prog[0], prog[len(prog)-1]}
	}
	for i, w := range prog {
		if strings.Contains(w, "/") && !filepath.IsAbs(w) {
			if !filepath.IsAbs(cwd) {
				return c, false
			}
			prog[i] = filepath.Join(cwd, w)
		}
	}
	c.Program = prog
	return c, true
}
