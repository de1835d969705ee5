package agents_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// TestRecognizeProcess: the program of a process is the file it executes,
// never its argv text alone; the flags are its argv's.
func TestRecognizeProcess(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := func(rel, content string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(target, rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	claude := file("bin/claude", "elf")
	versioned := file("share/claude/versions/2.1.197", "elf")
	link(versioned, "local/bin/claude")
	node := file("node/bin/node", "elf")
	codexJS := file("lib/node_modules/@openai/codex/bin/codex.js", "#!/usr/bin/env node\n")
	link(codexJS, "lib/node_modules/.bin/codex")
	piJS := file("lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "#!/usr/bin/env node\n")
	link(piJS, "npmbin/pi")
	sleep := file("usr/bin/sleep", "elf")

	path := func(dirs ...string) []string {
		var ps []string
		for _, d := range dirs {
			ps = append(ps, filepath.Join(root, d))
		}
		return []string{"PATH=" + strings.Join(ps, string(os.PathListSeparator))}
	}
	type want struct {
		program, flags, seen []string
	}
	for _, c := range []struct {
		name string
		p    recognize.Proc
		want *want // nil: not an agent
	}{
		{"a bare name that names the executable", recognize.Proc{Exe: claude, Argv: []string{"claude", "--model", "opus"}, Env: path("bin")},
			&want{[]string{"claude"}, []string{"--model", "opus"}, []string{claude}}},
		{"a symlink to a versioned binary", recognize.Proc{Exe: versioned, Argv: []string{"claude", "--model", "opus"}, Env: path("local/bin")},
			&want{[]string{"claude"}, []string{"--model", "opus"}, []string{versioned}}},
		{"argv names another file: the executable wins", recognize.Proc{Exe: claude, Argv: []string{"/repo/node_modules/.bin/claude", "--model", "opus"}},
			&want{[]string{claude}, []string{"--model", "opus"}, []string{claude}}},
		{"a relative path in the process's directory", recognize.Proc{Exe: claude, Argv: []string{"./claude"}, Cwd: filepath.Join(root, "bin")},
			&want{[]string{claude}, nil, []string{claude}}},
		{"argv reads claude, it runs sleep", recognize.Proc{Exe: sleep, Argv: []string{"/repo/tools/claude", "--dangerously-skip-permissions", "--mcp-config", "x"}}, nil},
		{"a bare claude on PATH, it runs sleep", recognize.Proc{Exe: sleep, Argv: []string{"claude"}, Env: path("bin")}, nil},
		{"node running the agent's script", recognize.Proc{Exe: node, Argv: []string{"node", "--max-old-space-size=4096", "../lib/node_modules/.bin/codex", "-m", "o3"},
			Cwd: filepath.Join(root, "bin"), Env: path("node/bin")},
			&want{[]string{"node", filepath.Join(root, "lib/node_modules/.bin/codex")}, []string{"-m", "o3"}, []string{node, codexJS}}},
		{"an interpreter word that is not the executable", recognize.Proc{Exe: claude, Argv: []string{"node", codexJS}}, nil},
		{"a script the process does not have", recognize.Proc{Exe: node, Argv: []string{"node", "/gone/node_modules/@openai/codex/bin/codex.js"}}, nil},
		{"a renamed process shows its name alone: its flags are not visible", recognize.Proc{Exe: node, Argv: []string{"pi"}, Env: path("npmbin")}, nil},
		{"a renamed process whose name leads nowhere", recognize.Proc{Exe: node, Argv: []string{"pi"}}, nil},
		{"no executable", recognize.Proc{Argv: []string{"claude"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, seen, ok := recognize.Process(set, c.p)
			if c.want == nil {
				if ok {
					t.Fatalf("recognised %+v, seen %q", cmd, seen)
				}
				return
			}
			if !ok {
				t.Fatal("not recognised")
			}
			if diff := cmp.Diff(*c.want, want{cmd.Program, cmd.Flags, seen}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestRecognizeProcessShebang: an interpreter whose argv[0] names an
// agent's #! script (`exec -a gemini …`) is that agent only when it is the
// very interpreter the script's #! line names and runs that script.
func TestRecognizeProcessShebang(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := func(rel, content string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	node, python, otherNode := file("node/bin/node", "elf"), file("usr/bin/python3", "elf"), file("opt/node/bin/node", "elf")
	geminiJS := file("lib/node_modules/@google/gemini-cli/dist/index.js", "#!/usr/bin/env node\n")
	if err := os.MkdirAll(filepath.Join(root, "npmbin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(geminiJS, filepath.Join(root, "npmbin", "gemini")); err != nil {
		t.Fatal(err)
	}
	file("work/evil.py", "print()\n")
	file("work/evil.js", "#!/usr/bin/env node\n")
	path := func(dirs ...string) []string {
		var ps []string
		for _, d := range dirs {
			ps = append(ps, filepath.Join(root, d))
		}
		return []string{"PATH=" + strings.Join(ps, string(os.PathListSeparator))}
	}
	type want struct {
		program, flags, seen []string
	}
	for _, c := range []struct {
		name string
		p    recognize.Proc
		want *want // nil: not an agent
	}{
		// exec -a gemini python3 evil.py --yolo
		{"argv[0] names a node agent, python runs another script", recognize.Proc{Exe: python, Argv: []string{"gemini", "evil.py", "--yolo"},
			Cwd: filepath.Join(root, "work"), Env: path("npmbin", "node/bin")}, nil},
		{"argv[0] names a node agent, node runs another script", recognize.Proc{Exe: node, Argv: []string{"gemini", "evil.js", "--yolo"},
			Cwd: filepath.Join(root, "work"), Env: path("npmbin", "node/bin")}, nil},
		{"argv[0] names a node agent, its script run by another node", recognize.Proc{Exe: otherNode, Argv: []string{"gemini", geminiJS, "--yolo"},
			Env: path("npmbin", "node/bin")}, nil},
		{"argv[0] names a node agent, python runs its script", recognize.Proc{Exe: python, Argv: []string{"gemini", geminiJS, "--yolo"},
			Env: path("npmbin", "node/bin")}, nil},
		{"exec -a gemini node: the agent's script, by the interpreter its #! names", recognize.Proc{Exe: node,
			Argv: []string{"gemini", "--no-warnings", "../lib/node_modules/@google/gemini-cli/dist/index.js", "--yolo"},
			Cwd:  filepath.Join(root, "work"), Env: path("npmbin", "node/bin")},
			&want{[]string{"gemini"}, []string{"--yolo"}, []string{node, geminiJS}}},
		{"python running a node agent's script", recognize.Proc{Exe: python, Argv: []string{"python3", geminiJS, "--yolo"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, seen, ok := recognize.Process(set, c.p)
			if c.want == nil {
				if ok {
					t.Fatalf("recognised %+v, seen %q", cmd, seen)
				}
				return
			}
			if !ok {
				t.Fatal("not recognised")
			}
			if diff := cmp.Diff(*c.want, want{cmd.Program, cmd.Flags, seen}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestRecognizeTitled: a process that shows its name alone is the agent
// only when it executes the interpreter the agent's #! script names; its
// flags are hidden.
func TestRecognizeTitled(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, content string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	node := write("node/bin/node", "elf")
	python := write("usr/bin/python3", "elf")
	other := write("opt/node/bin/node", "elf")
	piJS := write("lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "#!/usr/bin/env node\n")
	if err := os.MkdirAll(filepath.Join(root, "npmbin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(piJS, filepath.Join(root, "npmbin", "pi")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Join(root, "npmbin") + ":" + filepath.Join(root, "node/bin")}
	c, seen, ok := recognize.Titled(set, recognize.Proc{Exe: node, Argv: []string{"pi"}, Env: env})
	if !ok || c.Agent != "pi" || !c.FlagsHidden || !cmp.Equal(seen, []string{node, piJS}) {
		t.Errorf("pi showing its title: %+v %q %v", c, seen, ok)
	}
	for name, p := range map[string]recognize.Proc{
		"python named pi":     {Exe: python, Argv: []string{"pi"}, Env: env},
		"another node":        {Exe: other, Argv: []string{"pi"}, Env: env},
		"pi not on its PATH":  {Exe: node, Argv: []string{"pi"}},
		"more than its title": {Exe: node, Argv: []string{"pi", "x.js"}, Env: env},
	} {
		if c, _, ok := recognize.Titled(set, p); ok {
			t.Errorf("%s: recognised %+v", name, c)
		}
	}
}

// TestTypedEnv: of a report's assignments, those the process holds and its
// parent shell does not: the user typed them.
func TestTypedEnv(t *testing.T) {
	shell := recognize.Proc{Env: []string{"PATH=/bin", "KITTY_WINDOW_ID=3", "TERM=xterm-kitty", "FOO=0"}}
	p := recognize.Proc{Env: []string{"PATH=/bin", "KITTY_WINDOW_ID=3", "TERM=xterm-kitty", "FOO=1", "BAR=2",
		"NODE_OPTIONS=--max-old-space-size=1"}}
	reported := []string{"FOO=1", "BAR=3", "KITTY_WINDOW_ID=3", "TERM=xterm-kitty", "PATH=/bin",
		"NODE_OPTIONS=--require=/repo/x.js", "BASH_ENV=/repo/x"}
	got := recognize.TypedEnv(reported, p, shell)
	if diff := cmp.Diff([]string{"FOO=1"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
