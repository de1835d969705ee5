package root_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, or writes it there with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}

// run runs kittymux in process with args and env, under a state directory
// of t's, and returns its exit code and output, the state directory shown
// as $STATE.
func run(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	f, out, errOut := factorytest.New(t)
	f.Getenv = func(k string) string { return env[k] }
	code = root.Main(f, args)
	norm := func(s string) string { return strings.ReplaceAll(s, f.Paths.StateDir, "$STATE") }
	return code, norm(out.String()), norm(errOut.String())
}

// TestHelpGolden: every command's --help, hidden ones too, is
// testdata/help.golden, and each has an Examples section.
func TestHelpGolden(t *testing.T) {
	var all strings.Builder
	for _, words := range commandPaths(t) {
		args := append(words, "--help")
		code, out, errOut := run(t, nil, args...)
		what := "kittymux " + strings.Join(args, " ")
		if code != 0 || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q", what, code, errOut)
		}
		if !strings.Contains(out, "\nExamples:\n  ") {
			t.Errorf("%s has no Examples section:\n%s", what, out)
		}
		fmt.Fprintf(&all, "=== %s\n%s\n", what, out)
	}
	golden(t, "help.golden", all.String())
}

// TestExitCodes: bad usage of any kind exits 2 with the error and never
// the help; an error exits 1; help and versions exit 0. The codes and
// messages are testdata/exit.golden.
func TestExitCodes(t *testing.T) {
	cases := []struct {
		args string
		code int
	}{
		{"bogus", 2},
		{"sesions saves", 2},
		{"sessions bogus", 2},
		{"completion tcsh", 2},
		{"agents bogus", 2},
		{"scanner bogus", 2},
		{"integration bogus", 2},
		{"sessions restore", 2},
		{"sessions restore a b", 2},
		{"sessions rename a", 2},
		{"sessions rename a autosave-1-20261202T015118.639Z", 2},
		{"sessions rm", 2},
		{"sessions saves extra", 2},
		{"version extra", 2},
		{"doctor extra", 2},
		{"--bogus", 2},
		{"sessions saves --bogus", 2},
		{"sessions history --since 2w", 2},
		{"sessions restore nothing-saved", 1},
		{"sessions rm nothing-saved", 1},
		{"sessions rename nothing-saved x", 1},
		{"help bogus", 2},
		{"help sessions bogus", 2},
		{"help sessions", 0},
		{"sessions", 0},
		{"version", 0},
		{"--version", 0},
	}
	var all strings.Builder
	for _, c := range cases {
		code, out, errOut := run(t, nil, strings.Fields(c.args)...)
		if code != c.code {
			t.Errorf("kittymux %s: exit %d, want %d; stderr %q", c.args, code, c.code, errOut)
		}
		if c.code != 0 && (strings.Contains(out, "Usage:") || strings.Contains(errOut, "Usage:")) {
			t.Errorf("kittymux %s printed the help with its error:\n%s%s", c.args, out, errOut)
		}
		if c.code == 0 {
			out = fmt.Sprintf("(%d lines on stdout)\n", strings.Count(out, "\n"))
		}
		fmt.Fprintf(&all, "$ kittymux %s\nexit %d\n%s%s\n", c.args, code, errOut, out)
	}
	// The version line changes with every build: its shape is
	// pkg/version's golden test.
	golden(t, "exit.golden", all.String())
}

// TestJSONListingsHaveOneShape: every listing's --json is an object whose
// one named array holds the items, [] (never null) when there are none.
func TestJSONListingsHaveOneShape(t *testing.T) {
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	env := map[string]string{"KITTY_LISTEN_ON": fake.Addr.String(), "HOME": t.TempDir(),
		"KITTYMUX_RESUME_BIN": "/opt/kittymux/bin/kittymux-resume"}
	listings := []struct{ args, key string }{
		{"sessions saves --json", "saves"},
		{"sessions list --json", "windows"},
		{"sessions history --json", "sessions"},
		{"sessions templates --json", "templates"},
		{"sessions check --json", "agents"},
		{"integration status --json", "integrations"},
		{"agents restart --dry-run --json", "windows"},
	}
	for _, l := range listings {
		code, out, errOut := run(t, env, strings.Fields(l.args)...)
		if code != 0 {
			t.Errorf("kittymux %s: exit %d: %s", l.args, code, errOut)
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Errorf("kittymux %s: not a JSON object: %v\n%s", l.args, err, out)
			continue
		}
		var arrays []string
		for k, v := range obj {
			if strings.HasPrefix(string(v), "[") {
				arrays = append(arrays, k)
			}
		}
		var items []json.RawMessage
		if len(arrays) != 1 || arrays[0] != l.key || json.Unmarshal(obj[l.key], &items) != nil || items == nil {
			t.Errorf("kittymux %s: arrays %v, want the one array %q:\n%s", l.args, arrays, l.key, out)
		}
	}
	// A listing with nothing in it: an empty array, not null.
	for _, args := range []string{"sessions saves --json", "sessions history --json"} {
		if _, out, _ := run(t, nil, strings.Fields(args)...); !strings.Contains(out, ": []") {
			t.Errorf("kittymux %s with nothing to list: %s", args, out)
		}
	}
}
