package recognize

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Proc is one process as the operating system shows it: what kittymux saw
// run, as opposed to what a terminal reported (kitty's last reported
// command line, a user var), which any program can print.
type Proc struct {
	PID  int
	PPID int
	PGID int
	// Exe is the file the process executes (/proc/PID/exe).
	Exe string
	// Argv and Env are its argv and environment as the OS has them
	// (/proc/PID/cmdline, /proc/PID/environ). A process can rewrite its own
	// argv (a process title): that is the agent's own word, never a
	// terminal's.
	Argv []string
	Env  []string
	// Cwd is its working directory (/proc/PID/cwd).
	Cwd string
	// Start tells this process from a later one with the same pid: the
	// boot and the clock tick it started at (/proc/PID/stat), "" where the
	// OS does not say. With PID it is the process's identity.
	Start string
	// Reported is the argv the process started with, as its kittymux
	// integration reported it from inside the process (procid.ReadArgv),
	// where Argv shows only its process title; nil where there is none.
	Reported []string
}

// Getenv is the value of name in the process's environment.
func (p Proc) Getenv(name string) (string, bool) {
	for _, kv := range p.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// Process recognises the agent process p runs. Its argv names the
// agent and gives the flags, but the program is taken from the file the
// process executes, never from argv text alone:
//
//   - a native agent: argv[0] is kept only when it names p.Exe itself (an
//     absolute or relative path whose symlinks lead there, or a bare name the
//     process's own PATH resolves there); otherwise the program is p.Exe;
//   - an interpreter (node, bun, python) running the agent's script: p.Exe
//     must be that interpreter, of the kind the script's #! line names, and
//     the script (made absolute in the process's directory) must exist and
//     be the agent's by its name or npm package;
//   - argv[0] naming the agent's #! script while p.Exe is an interpreter
//     (`exec -a gemini node …/gemini`): p.Exe must be the very file the
//     script's #! line names, and the script the file the process runs (the
//     first word after argv[0] and the interpreter's options). A process
//     that shows argv[0] alone (pi sets its process title) is not
//     recognised here: its flags are not visible (Titled).
//
// seen are the files that ran, symlinks resolved: p.Exe and the script. The
// restore prompt trusts a sealed record's program when it is one of them.
// ok is false when p runs no agent, or when its program and executable do
// not agree (a process whose argv reads /repo/tools/claude while it runs
// /bin/sleep is not claude; `exec -a gemini python3 evil.py` is not gemini).
func Process(s *agents.Set, p Proc) (c Command, seen []string, ok bool) {
	if p.Exe == "" || !filepath.IsAbs(p.Exe) || len(p.Argv) == 0 {
		return Command{}, nil, false
	}
	c, ok = Argv(s, p.Argv)
	if !ok {
		return Command{}, nil, false
	}
	exe, err := filepath.EvalSymlinks(p.Exe)
	if err != nil {
		return Command{}, nil, false
	}
	a, _ := s.Agent(c.Agent)
	word0, named := p.programWord(c.Program[0], exe)
	switch len(c.Program) {
	case 1:
		// Native: the executable is the agent's own file, by its name or
		// package, or the file argv[0] names (~/.local/bin/claude, a
		// symlink to a versioned binary).
		if s.MatchPath(exe) == a || named {
			c.Program = []string{word0}
			return c, []string{exe}, true
		}
		return renamedScript(s, p, c, exe)
	default:
		// interpreter [options] script: Placed drops the options later.
		if !agents.IsInterpreter(filepath.Base(exe)) || !sameInterpreter(filepath.Base(c.Program[0]), filepath.Base(exe)) {
			return Command{}, nil, false
		}
		last := c.Program[len(c.Program)-1]
		script, ok := p.resolve(last)
		if !ok || s.MatchPath(script) != a {
			return Command{}, nil, false
		}
		if interp, ok := shebang(script); ok && !sameInterpreter(filepath.Base(p.interpreterWord(interp)), filepath.Base(exe)) {
			return Command{}, nil, false // python running a node script
		}
		c.Program = []string{word0, p.absWord(last)}
		return c, []string{exe, script}, true
	}
}

// renamedScript recognises a process whose argv[0] names the agent's #!
// script while it executes an interpreter, exe: only when exe is the file
// the script's #! line names and the process runs that script (the word
// after argv[0] and the interpreter's options is the same file). Its flags
// are the words after the script.
func renamedScript(s *agents.Set, p Proc, c Command, exe string) (Command, []string, bool) {
	if !agents.IsInterpreter(filepath.Base(exe)) || len(p.Argv) < 2 {
		return Command{}, nil, false
	}
	script, ok := p.agentScript(s, c.Agent, exe)
	if !ok {
		return Command{}, nil, false
	}
	i := 1
	for i < len(p.Argv) && agents.IsOption(p.Argv[i]) {
		i++
	}
	if i == len(p.Argv) {
		return Command{}, nil, false
	}
	ran, ok := p.resolvePath(p.Argv[i])
	if !ok || !sameFile(ran, script) {
		return Command{}, nil, false
	}
	rc, ok := Argv(s, append([]string{p.Argv[0]}, p.Argv[i+1:]...))
	if !ok || rc.Agent != c.Agent {
		return Command{}, nil, false
	}
	rc.Program = []string{p.absWord(rc.Program[0])}
	return rc, []string{exe, script}, true
}

// Titled recognises a process that shows its name alone: argv is
// one word naming the agent's #! script, and the process executes the very
// interpreter the script's #! line names (pi sets its process title to
// `pi`). Which script it runs and with which flags the process no longer
// shows: the command is the name alone, with FlagsHidden, and a record
// made from it is not sealed. seen are the interpreter and the script.
func Titled(s *agents.Set, p Proc) (c Command, seen []string, ok bool) {
	if p.Exe == "" || !filepath.IsAbs(p.Exe) || len(p.Argv) != 1 {
		return Command{}, nil, false
	}
	c, ok = Argv(s, p.Argv)
	if !ok || len(c.Program) != 1 {
		return Command{}, nil, false
	}
	exe, err := filepath.EvalSymlinks(p.Exe)
	if err != nil || !agents.IsInterpreter(filepath.Base(exe)) {
		return Command{}, nil, false
	}
	script, ok := p.agentScript(s, c.Agent, exe)
	if !ok {
		return Command{}, nil, false
	}
	c.Program = []string{p.absWord(c.Program[0])}
	c.FlagsHidden = true
	return c, []string{exe, script}, true
}

// agentScript is the agent's #! script argv[0] names, when exe is the very
// interpreter its #! line names (`/usr/bin/env node` looked up on the
// process's PATH, as env does).
func (p Proc) agentScript(s *agents.Set, agent, exe string) (string, bool) {
	script, ok := p.resolve(p.Argv[0])
	if !ok {
		return "", false
	}
	if a, _ := s.Agent(agent); s.MatchPath(script) != a {
		return "", false
	}
	interp, ok := shebang(script)
	if !ok {
		return "", false
	}
	named, ok := p.resolve(p.interpreterWord(interp))
	return script, ok && sameFile(named, exe)
}

// interpreterWord is the program a #! line runs: its interpreter, or the
// program `env` is given (`#!/usr/bin/env node`, `#!/usr/bin/env -S node
// --flag`).
func (p Proc) interpreterWord(line []string) string {
	if filepath.Base(line[0]) != "env" {
		return line[0]
	}
	for _, w := range line[1:] {
		if !agents.IsOption(w) && !strings.Contains(w, "=") {
			return w
		}
	}
	return line[0]
}

// shebang reads the #! line of script, split in words: the interpreter
// and what follows it.
func shebang(script string) ([]string, bool) {
	f, err := userfile.Open(script)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, 256)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	rest, ok := bytes.CutPrefix(b, []byte("#!"))
	if !ok {
		return nil, false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	words := strings.Fields(string(line))
	if len(words) == 0 || !filepath.IsAbs(words[0]) {
		return nil, false
	}
	return words, true
}

// sameInterpreter: argv's interpreter word and the executable are the same
// kind (node and nodejs, python3 and python3.12).
func sameInterpreter(word, exe string) bool {
	norm := func(s string) string {
		s = strings.TrimRight(s, "0123456789.") // python3.12 is python
		if s == "nodejs" {
			return "node"
		}
		return s
	}
	return norm(word) == norm(exe)
}

// programWord is argv's program word w when it names exe (the file the
// process runs), made absolute when it is a relative path; else exe.
// named says which.
func (p Proc) programWord(w, exe string) (word string, named bool) {
	if real, ok := p.resolve(w); ok && sameFile(real, exe) {
		return p.absWord(w), true
	}
	return exe, false
}

// absWord makes a relative path absolute in the process's directory; a
// bare name stays: the prompt looks it up on PATH.
func (p Proc) absWord(w string) string {
	if strings.Contains(w, "/") && !filepath.IsAbs(w) && filepath.IsAbs(p.Cwd) {
		return filepath.Join(p.Cwd, w)
	}
	return w
}

// resolvePath finds the file path w names for the process, as an
// interpreter opens its script: absolute, or in the process's directory;
// symlinks followed.
func (p Proc) resolvePath(w string) (string, bool) {
	if w == "" {
		return "", false
	}
	if !filepath.IsAbs(w) {
		if !filepath.IsAbs(p.Cwd) {
			return "", false
		}
		w = filepath.Join(p.Cwd, w)
	}
	return regular(w)
}

// regular is path with its symlinks followed, when that is a regular file.
func regular(path string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(real)
	return real, err == nil && fi.Mode().IsRegular()
}

// resolve finds the file w names for the process: a path in its directory,
// a bare name on its PATH; symlinks followed.
func (p Proc) resolve(w string) (string, bool) {
	var path string
	switch {
	case strings.Contains(w, "/"):
		return p.resolvePath(w)
	default:
		dirs, _ := p.Getenv("PATH")
		for _, d := range filepath.SplitList(dirs) {
			if !filepath.IsAbs(d) {
				continue // a relative PATH entry names another file in every directory
			}
			if fi, err := os.Stat(filepath.Join(d, w)); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				path = filepath.Join(d, w)
				break
			}
		}
		if path == "" {
			return "", false
		}
	}
	return regular(path)
}

// TypedEnv keeps the assignments of a typed line (`FOO=1 claude`, kitty's
// report of it) that the user typed for the agent: the process's own
// environment holds them with the same value, and parent's (the shell that
// started it) does not. What the agent inherited from its shell (the
// window's KITTY_WINDOW_ID, TERM, PATH) was not typed, whatever a report
// says, and a report that disagrees with the process is dropped.
func TypedEnv(reported []string, p, parent Proc) []string {
	var out []string
	for _, kv := range reported {
		if slices.Contains(p.Env, kv) && !slices.Contains(parent.Env, kv) {
			out = append(out, kv)
		}
	}
	return out
}
