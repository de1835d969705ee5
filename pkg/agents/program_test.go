package agents_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// install lays out a machine in a temporary directory: a native claude on
// PATH through a symlink (as its installer does), codex from npm (the .bin
// symlink to its package's entry script), node, and copies of both agents
// outside PATH. It returns the root and a LookPath over its bin directory.
func install(t *testing.T) (string, func(string) (string, error)) {
	t.Helper()
	root := t.TempDir()
	file := func(rel, data string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	file("versions/claude-2.1", "native claude")
	link("../versions/claude-2.1", "bin/claude")
	file("bin/node", "node")
	pkg := "lib/node_modules/@openai/codex"
	file(pkg+"/package.json", `{"name": "@openai/codex", "bin": {"codex": "bin/codex.js", "escape": "../../../../x/evil.js"}}`)
	file(pkg+"/bin/codex.js", "codex entry")
	file(pkg+"/bin/other.js", "not an entry")
	link("../"+pkg+"/bin/codex.js", "bin/codex")
	file("x/claude", "native claude")
	file("x/evil.js", "evil")
	file("x/node", "node")
	file("x/"+pkg+"/package.json", `{"name": "@openai/codex", "bin": {"codex": "bin/codex.js"}}`)
	file("x/"+pkg+"/bin/codex.js", "codex entry")
	// A shim in node_modules/.bin beside the package (pnpm, local installs).
	shimPkg := "shim/node_modules/@google/gemini-cli"
	file(shimPkg+"/package.json", `{"name": "@google/gemini-cli", "bin": "dist/index.js"}`)
	file(shimPkg+"/dist/index.js", "gemini entry")
	file("shim/node_modules/.bin/gemini", "#!/bin/sh\nexec node ../@google/gemini-cli/dist/index.js \"$@\"\n")
	dirs := []string{filepath.Join(root, "bin"), filepath.Join(root, "shim", "node_modules", ".bin")}
	return root, func(name string) (string, error) {
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
		return "", exec.ErrNotFound
	}
}

func TestTrustedProgram(t *testing.T) {
	s := loadShipped(t)
	root, lookPath := install(t)
	r := func(p string) string { return strings.ReplaceAll(p, "$R", root) }
	codexPkg := "$R/lib/node_modules/@openai/codex"
	for _, c := range []struct {
		name  string
		agent string
		argv  []string
		seen  []string
		want  string // the path to exec; "" when refused
		err   error
	}{
		{"bare name on PATH", "claude", w("claude", "--resume", uuid), nil, "$R/bin/claude", nil},
		{"the PATH symlink", "claude", w("$R/bin/claude"), nil, "$R/bin/claude", nil},
		{"the file it links to", "claude", w("$R/versions/claude-2.1"), nil, "", recognize.ErrNotAgent}, // not called claude: not recognised
		{"a copy outside PATH", "claude", w("$R/x/claude"), nil, "", recognize.ErrNotAgent},
		{"a copy outside PATH that ran in the window", "claude", w("$R/x/claude"), w("$R/x/claude"), "$R/x/claude", nil},
		{"a copy, another file ran", "claude", w("$R/x/claude"), w("$R/versions/claude-2.1"), "", recognize.ErrNotAgent},
		{"relative", "claude", w("./claude"), nil, "", recognize.ErrNotAgent},
		{"parent-relative, even if seen", "claude", w("../x/claude"), w("$R/x/claude"), "", recognize.ErrNotAgent},
		{"missing file", "claude", w("$R/gone/claude"), nil, "", recognize.ErrNotInstalled},
		{"bare name not on PATH", "opencode", w("opencode"), nil, "", recognize.ErrNotInstalled},
		{"a bare name that is not a program name", "claude", w("claude.exe"), nil, "", recognize.ErrNotAgent},
		{"another agent's program", "claude", w("codex"), nil, "", recognize.ErrNotAgent},
		{"node with the PATH entry script", "codex", w("node", codexPkg+"/bin/codex.js", "resume", codexID), nil, "$R/bin/node", nil},
		{"absolute node on PATH", "codex", w("$R/bin/node", codexPkg+"/bin/codex.js"), nil, "$R/bin/node", nil},
		{"node outside PATH", "codex", w("$R/x/node", codexPkg+"/bin/codex.js"), nil, "", recognize.ErrNotAgent},
		{"node outside PATH that ran", "codex", w("$R/x/node", codexPkg+"/bin/codex.js"), w("$R/x/node"), "$R/x/node", nil},
		{"node with options", "codex", w("node", "--max-old-space-size=4096", codexPkg+"/bin/codex.js"), nil, "", recognize.ErrNotAgent},
		{"node with a package copy", "codex", w("node", "$R/x/lib/node_modules/@openai/codex/bin/codex.js"), nil, "", recognize.ErrNotAgent},
		{"node with another script of the package", "codex", w("node", codexPkg+"/bin/other.js"), nil, "", recognize.ErrNotAgent},
		{"a bin entry climbing out of the package", "codex", w("node", "$R/lib/node_modules/@openai/codex/../../../../x/evil.js"), nil, "", recognize.ErrNotAgent},
		{"node with a relative script", "codex", w("node", "lib/node_modules/@openai/codex/bin/codex.js"), nil, "", recognize.ErrNotAgent},
		{"the entry run directly", "codex", w(codexPkg + "/bin/codex.js"), nil, codexPkg + "/bin/codex.js", nil},
		{"node with the entry of a .bin shim's package", "gemini", w("node", "$R/shim/node_modules/@google/gemini-cli/dist/index.js"), nil, "$R/bin/node", nil},
		{"python with a copy", "claude", w("python3", "$R/x/claude"), nil, "", recognize.ErrNotInstalled},
		{"unknown agent", "nope", w("claude"), nil, "", agents.ErrUnknownAgent},
	} {
		t.Run(c.name, func(t *testing.T) {
			argv := make([]string, len(c.argv))
			for i, a := range c.argv {
				argv[i] = r(a)
			}
			var seen []string
			for _, p := range c.seen {
				seen = append(seen, r(p))
			}
			got, err := recognize.TrustedProgram(s, c.agent, argv, recognize.Trust{LookPath: lookPath, Seen: seen})
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("err = %v, want %v (path %q)", err, c.err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(r(c.want), got); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLauncherDefinitionsRefused: a user definition whose program runs other
// programs would make the restore prompt run anything as that agent. It is
// refused with a warning naming it; the rest still load.
func TestLauncherDefinitionsRefused(t *testing.T) {
	const def = `"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "probe": {"args": ["--help"], "expect": ["--resume"]}`
	var entries []string
	bad := map[string]string{
		"bash": "shell", "zsh": "shell", "fish": "shell", "busybox": "shell",
		"node": "interpreter", "python3.12": "interpreter", "perl": "interpreter", "bun": "interpreter", "deno": "interpreter",
		"env": "launcher", "sudo": "launcher", "doas": "launcher", "npx": "launcher", "xargs": "launcher", "nohup": "launcher",
	}
	i := 0
	for prog := range bad {
		i++
		entries = append(entries, `"a`+string(rune('a'+i))+`": {"programs": ["`+prog+`"], `+def+`}`)
	}
	entries = append(entries, `"sh": {`+def+`}`) // the name stands for the program
	entries = append(entries, `"good": {"programs": ["goodagent"], `+def+`}`)
	s, err := agents.Load(writeUser(t, "{"+strings.Join(entries, ",\n")+"}"))
	if err == nil {
		t.Fatal("no error")
	}
	bad["sh"] = "shell"
	for prog, what := range bad {
		if !strings.Contains(err.Error(), `"`+prog+`" is a`) || !strings.Contains(err.Error(), what) {
			t.Errorf("the warning does not name %s as %s:\n%v", prog, what, err)
		}
	}
	if _, ok := s.Definition("good"); !ok {
		t.Error("the valid definition was dropped")
	}
	if _, ok := s.Definition("sh"); ok {
		t.Error("a definition named sh loaded")
	}
	for _, argv := range [][]string{{"bash", "-c", "x"}, {"env", "x"}, {"/usr/bin/sudo", "x"}, {"python3.12", "x.py"}} {
		if c, ok := recognize.Argv(s, argv); ok {
			t.Errorf("%q recognised as %s", argv, c.Agent)
		}
	}
	// Shipped definitions name none.
	shipped := loadShipped(t)
	for _, n := range shipped.Names() {
		d, _ := shipped.Definition(n)
		for _, p := range d.Programs {
			if _, err := agents.Load(writeUser(t, `{"x": {"programs": ["`+p+`"], `+def+`}}`)); err != nil &&
				strings.Contains(err.Error(), "not an agent") {
				t.Errorf("shipped %s's program %q counts as a launcher", n, p)
			}
		}
	}
}
