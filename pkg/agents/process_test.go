package agents_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
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
		p    agents.Proc
		want *want // nil: not an agent
	}{
		{"a bare name that names the executable", agents.Proc{Exe: claude, Argv: []string{"claude", "--model", "opus"}, Env: path("bin")},
			&want{[]string{"claude"}, []string{"--model", "opus"}, []string{claude}}},
		{"a symlink to a versioned binary", agents.Proc{Exe: versioned, Argv: []string{"claude", "--model", "opus"}, Env: path("local/bin")},
			&want{[]string{"claude"}, []string{"--model", "opus"}, []string{versioned}}},
		{"argv names another file: the executable wins", agents.Proc{Exe: claude, Argv: []string{"/repo/node_modules/.bin/claude", "--model", "opus"}},
			&want{[]string{claude}, []string{"--model", "opus"}, []string{claude}}},
		{"a relative path in the process's directory", agents.Proc{Exe: claude, Argv: []string{"./claude"}, Cwd: filepath.Join(root, "bin")},
			&want{[]string{claude}, nil, []string{claude}}},
		{"argv reads claude, it runs sleep", agents.Proc{Exe: sleep, Argv: []string{"/repo/tools/claude", "--dangerously-skip-permissions", "--mcp-config", "x"}}, nil},
		{"a bare claude on PATH, it runs sleep", agents.Proc{Exe: sleep, Argv: []string{"claude"}, Env: path("bin")}, nil},
		{"node running the agent's script", agents.Proc{Exe: node, Argv: []string{"node", "--max-old-space-size=4096", "../lib/node_modules/.bin/codex", "-m", "o3"},
			Cwd: filepath.Join(root, "bin"), Env: path("node/bin")},
			&want{[]string{"node", filepath.Join(root, "lib/node_modules/.bin/codex")}, []string{"-m", "o3"}, []string{node, codexJS}}},
		{"an interpreter word that is not the executable", agents.Proc{Exe: claude, Argv: []string{"node", codexJS}}, nil},
		{"a script the process does not have", agents.Proc{Exe: node, Argv: []string{"node", "/gone/node_modules/@openai/codex/bin/codex.js"}}, nil},
		{"a renamed process: its #! script on PATH", agents.Proc{Exe: node, Argv: []string{"pi"}, Env: path("npmbin")},
			&want{[]string{"pi"}, nil, []string{node, piJS}}},
		{"a renamed process whose name leads nowhere", agents.Proc{Exe: node, Argv: []string{"pi"}}, nil},
		{"no executable", agents.Proc{Argv: []string{"claude"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, seen, ok := set.RecognizeProcess(c.p)
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

// TestSeenEnv: of a report's assignments, those the process holds.
func TestSeenEnv(t *testing.T) {
	p := agents.Proc{Env: []string{"PATH=/bin", "FOO=1", "NODE_OPTIONS=--max-old-space-size=1"}}
	got := agents.SeenEnv([]string{"FOO=1", "NODE_OPTIONS=--require=/repo/x.js", "BASH_ENV=/repo/x"}, p)
	if diff := cmp.Diff([]string{"FOO=1"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
