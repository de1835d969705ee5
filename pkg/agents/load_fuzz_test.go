package agents_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// FuzzLoad: the user's resume.json is theirs to edit. Whatever it holds,
// Load never panics and always returns a set; an error names the file; the
// set holds only shipped agents and the file's own; and what kittymux would
// write to resume an agent the file defines, its restore prompt accepts.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"myagent": {"programs": ["myagent"], "exact": ["--resume", "{id}"], "latest": ["--continue"], "id_flags": ["--resume"], "latest_flags": ["--continue"], "strip_optional_value": ["--resume"], "strip": ["--continue"], "value_flags": ["--model"]}}`))
	f.Add([]byte(`{"codex": {"programs": ["codex"], "exact": ["resume", "{id}"], "latest": ["resume", "--last"], "session_subcommands": ["resume"], "id_pattern": "[0-9a-f-]{36}"}}`))
	f.Add([]byte(`{"claude": {"programs": ["codex"]}}`))
	f.Add([]byte(`{"x": {"title_working": ["(a"], "id_pattern": "a{0,1000}"}}`))
	f.Add([]byte(`{"x": {"exact": ["{id}", "{id}"], "programs": ["sh"]}}`))
	f.Add([]byte(`{"x": 1}`))
	f.Add([]byte(`[`))
	shippedJSON, err := os.ReadFile("../../assets/resume-agents.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(shippedJSON)
	shipped, err := agents.Load("")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "resume.json")
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		set, err := agents.Load(file)
		if set == nil {
			t.Fatalf("no set (%v)", err)
		}
		if err != nil && !strings.Contains(err.Error(), file) {
			t.Fatalf("the error does not name the file: %v", err)
		}
		var user map[string]json.RawMessage
		_ = json.Unmarshal(data, &user)
		for _, name := range set.Names() {
			if _, ok := user[name]; !ok && !slices.Contains(shipped.Names(), name) {
				t.Fatalf("agent %q is neither shipped nor in the file", name)
			}
		}
		for name := range user {
			def, ok := set.Definition(name)
			if !ok || !set.CanResume(name) || len(def.Programs) == 0 {
				continue
			}
			c, ok := recognize.Argv(set, []string{def.Programs[0]})
			if !ok || c.Agent != name {
				continue
			}
			_ = set.TitleState(name, "✳ idle")
			for _, mode := range []plan.Mode{plan.ModeExact, plan.ModeLatest, plan.ModeNew} {
				for _, id := range []string{"4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "ses_01", "x"} {
					argv, err := plan.ResumeArgv(set, c, mode, id)
					if err != nil {
						continue
					}
					if mode != plan.ModeExact {
						id = ""
					}
					if err := plan.Validate(set, name, mode, id, argv); err != nil {
						t.Fatalf("%s %s: kittymux writes %q, which the prompt refuses: %v", name, mode, argv, err)
					}
				}
			}
		}
	})
}
