package agents

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadLazySameAsLoad: a set loaded lazily answers as the one loaded
// whole: the same agents and definitions, the same recognition of each
// agent's programs and packages, the same id checks and probes, with
// or without a user file over the shipped one; and every shipped entry
// builds.
func TestLoadLazySameAsLoad(t *testing.T) {
	users := map[string]string{
		"none":     "",
		"override": `{"claude": {"programs": ["claude", "claude-dev"], "exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "probe": {"args": ["--help"], "expect": ["--resume"]}}}`,
		"conflict": `{"mine": {"programs": ["codex"], "exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "probe": {"args": ["--help"], "expect": ["--resume"]}}}`,
		"broken":   `{"claude": {"exactly": []}}`,
	}
	for name, body := range users {
		t.Run(name, func(t *testing.T) {
			file := ""
			if body != "" {
				file = filepath.Join(t.TempDir(), "resume.json")
				if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			whole, wholeErr := Load(file)
			lazy, lazyErr := LoadLazy(file)
			if diff := cmp.Diff(errText(wholeErr), errText(lazyErr)); diff != "" {
				t.Errorf("error (-Load +LoadLazy):\n%s", diff)
			}
			if diff := cmp.Diff(whole.Names(), lazy.Names()); diff != "" {
				t.Fatalf("names (-Load +LoadLazy):\n%s", diff)
			}
			if file == "" && len(lazy.lazy) != len(whole.Names()) {
				t.Errorf("%d of %d shipped entries left to build", len(lazy.lazy), len(whole.Names()))
			}
			for _, n := range whole.Names() {
				compareAgent(t, whole, lazy, n)
			}
			for n, l := range lazy.lazy {
				if l.a == nil {
					t.Errorf("shipped %s did not build", n)
				}
			}
		})
	}
}

func compareAgent(t *testing.T, whole, lazy *Set, n string) {
	t.Helper()
	wd, _ := whole.Definition(n)
	ld, ok := lazy.Definition(n)
	if diff := cmp.Diff(wd, ld); !ok || diff != "" {
		t.Errorf("%s: definition (-Load +LoadLazy):\n%s", n, diff)
	}
	if whole.CanResume(n) != lazy.CanResume(n) {
		t.Errorf("%s: CanResume differs", n)
	}
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	if errText(whole.CheckID(n, id)) != errText(lazy.CheckID(n, id)) {
		t.Errorf("%s: CheckID differs", n)
	}
	if diff := cmp.Diff(whole.ProbeRuns(n), lazy.ProbeRuns(n)); diff != "" {
		t.Errorf("%s: ProbeRuns (-Load +LoadLazy):\n%s", n, diff)
	}
	for _, f := range slices.Concat(wd.IDFlags, []string{"--resume", "--continue"}) {
		if whole.IsIDFlag(n, f) != lazy.IsIDFlag(n, f) {
			t.Errorf("%s: IsIDFlag(%s) differs", n, f)
		}
	}
	var argvs [][]string
	for _, p := range wd.Programs {
		argvs = append(argvs, []string{p}, []string{"/usr/bin/" + p, "--help"}, []string{p, "--resume", id})
	}
	for _, p := range wd.Packages {
		argvs = append(argvs, []string{"node", "/usr/lib/node_modules/" + p + "/cli.js"})
	}
	for _, argv := range argvs {
		wc, wok := whole.RecognizeArgv(argv)
		lc, lok := lazy.RecognizeArgv(argv)
		if diff := cmp.Diff(wc, lc); wok != lok || diff != "" {
			t.Errorf("%s: RecognizeArgv(%q) (-Load +LoadLazy):\n%s", n, argv, diff)
		}
	}
}
