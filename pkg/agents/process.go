package agents

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

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

// RecognizeProcess recognises the agent process p runs. Its argv names the
// agent and gives the flags, but the program is taken from the file the
// process executes, never from argv text alone:
//
//   - a native agent: argv[0] is kept only when it names p.Exe itself (an
//     absolute or relative path whose symlinks lead there, or a bare name the
//     process's own PATH resolves there); otherwise the program is p.Exe;
//   - an interpreter (node, bun, python) running the agent's script: p.Exe
//     must be that interpreter, and the script (made absolute in the
//     process's directory) must exist and be the agent's by its name or npm
//     package;
//   - a script run through its #! line (pi shows only `pi`): the file argv[0]
//     names must be the agent's script, and p.Exe an interpreter.
//
// seen are the files that ran, symlinks resolved: p.Exe and the script. The
// restore prompt trusts a sealed record's program when it is one of them.
// ok is false when p runs no agent, or when its program and executable do
// not agree (a process whose argv reads /repo/tools/claude while it runs
// /bin/sleep is not claude).
func (s *Set) RecognizeProcess(p Proc) (c Command, seen []string, ok bool) {
	if p.Exe == "" || !filepath.IsAbs(p.Exe) || len(p.Argv) == 0 {
		return Command{}, nil, false
	}
	c, ok = s.RecognizeArgv(p.Argv)
	if !ok {
		return Command{}, nil, false
	}
	exe, err := filepath.EvalSymlinks(p.Exe)
	if err != nil {
		return Command{}, nil, false
	}
	a, _ := s.agent(c.Agent)
	word0, named := p.programWord(c.Program[0], exe)
	switch len(c.Program) {
	case 1:
		// Native: the executable is the agent's own file, by its name or
		// package, or the file argv[0] names (~/.local/bin/claude, a
		// symlink to a versioned binary).
		if s.matchPath(exe) == a || named {
			c.Program = []string{word0}
			return c, []string{exe}, true
		}
		// A script run by its #! line: exe is the interpreter, argv[0]
		// the agent's script.
		if isInterpreter(filepath.Base(exe)) {
			if script, ok := p.resolve(c.Program[0]); ok && hasShebang(script) && s.matchPath(script) == a {
				c.Program = []string{p.absWord(c.Program[0])}
				return c, []string{exe, script}, true
			}
		}
		return Command{}, nil, false
	default:
		// interpreter [options] script: Placed drops the options later.
		if !isInterpreter(filepath.Base(exe)) || !sameInterpreter(filepath.Base(c.Program[0]), filepath.Base(exe)) {
			return Command{}, nil, false
		}
		last := c.Program[len(c.Program)-1]
		script, ok := p.resolve(last)
		if !ok || s.matchPath(script) != a {
			return Command{}, nil, false
		}
		c.Program = []string{word0, p.absWord(last)}
		return c, []string{exe, script}, true
	}
}

// sameInterpreter: argv's interpreter word and the executable are the same
// kind (node and nodejs, python3 and python3.12).
func sameInterpreter(word, exe string) bool {
	norm := func(s string) string {
		s = withoutVersion(s)
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

// resolve finds the file w names for the process: a path in its directory,
// a bare name on its PATH; symlinks followed.
func (p Proc) resolve(w string) (string, bool) {
	var path string
	switch {
	case filepath.IsAbs(w):
		path = w
	case strings.Contains(w, "/"):
		if !filepath.IsAbs(p.Cwd) {
			return "", false
		}
		path = filepath.Join(p.Cwd, w)
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
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(real)
	return real, err == nil && fi.Mode().IsRegular()
}

// hasShebang: the file starts with #!.
func hasShebang(path string) bool {
	f, err := userfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 2)
	_, err = io.ReadFull(f, b)
	return err == nil && bytes.Equal(b, []byte("#!"))
}

// SeenEnv keeps the assignments of a typed line (`FOO=1 claude`, kitty's
// report of it) that the process's own environment holds with the same
// value: a report that disagrees with the process is dropped.
func SeenEnv(reported []string, p Proc) []string {
	var out []string
	for _, kv := range reported {
		if slices.Contains(p.Env, kv) {
			out = append(out, kv)
		}
	}
	return out
}
