package plan_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// TestNoSessionIDBesideResume: claude 2.1.197 refuses --session-id beside
// --resume unless --fork-session is also given (which would fork). A
// command that chose its id up front comes back as a plain resume of that
// id for every shipped agent that has such a flag; a definition that keeps
// the flag all the same gets no resume argv (the window is kept as saved),
// never one the CLI refuses.
func TestNoSessionIDBesideResume(t *testing.T) {
	set := loadShipped(t)
	const a, b = "0b7c1e2d-3f4a-4b5c-8d6e-7f8091a2b3c4", "1c8d2f3e-4a5b-4c6d-9e7f-8091a2b3c4d5"
	for _, agent := range []string{"claude", "gemini", "copilot", "qodercli"} {
		c, ok := recognize.Argv(set, []string{agent, "--model", "m", "--session-id", a})
		if !ok {
			t.Fatalf("%s not recognised", agent)
		}
		for _, mode := range []plan.Mode{plan.ModeExact, plan.ModeLatest} {
			argv, err := plan.ResumeArgv(set, c, mode, b)
			if err != nil {
				if mode == plan.ModeLatest {
					continue // an agent with no latest
				}
				t.Fatalf("%s %s: %v", agent, mode, err)
			}
			if slices.Contains(argv, "--session-id") {
				t.Errorf("%s %s: %q keeps --session-id beside the resume", agent, mode, argv)
			}
		}
	}

	// A user's claude that keeps --session-id as a plain value flag.
	d, _ := set.Definition("claude")
	d.StripWithValue = slices.DeleteFunc(slices.Clone(d.StripWithValue), func(f string) bool { return f == "--session-id" })
	d.IDFlags = slices.DeleteFunc(slices.Clone(d.IDFlags), func(f string) bool { return f == "--session-id" })
	d.ValueFlags = append(slices.Clone(d.ValueFlags), "--session-id")
	data, err := json.Marshal(map[string]agents.Definition{"claude": d})
	if err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(t.TempDir(), "resume.json")
	os.WriteFile(user, data, 0o600)
	mine, err := agents.Load(user)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := recognize.Argv(mine, []string{"claude", "--session-id", a})
	if diff := cmp.Diff([]string{"--session-id", a}, c.Flags); diff != "" {
		t.Fatalf("the user's definition keeps the flag (-want +got):\n%s", diff)
	}
	if argv, err := plan.ResumeArgv(mine, c, plan.ModeExact, b); !errors.Is(err, plan.ErrRefusedCombination) {
		t.Errorf("resume argv %q, %v; want it refused", argv, err)
	}
	if argv, err := plan.ResumeArgv(mine, c, plan.ModeNew, ""); err != nil || !slices.Contains(argv, "--session-id") {
		t.Errorf("a new conversation keeps what the user chose: %q %v", argv, err)
	}
}
