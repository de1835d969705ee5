package agents_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// FuzzValidate: whatever an edited session file holds, a record that passes
// Validate is one kittymux itself would have written: a recognised agent
// program, a plain id, and exactly the argv ResumeArgv builds.
func FuzzValidate(f *testing.F) {
	const u = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	for _, seed := range [][]string{
		{"claude", "exact", u, "claude\x00--model\x00sonnet\x00--resume\x00" + u},
		{"codex", "exact", "0199a213-81c0-7800-8aa1-bbab2a035a53", "codex\x00resume\x000199a213-81c0-7800-8aa1-bbab2a035a53"},
		{"opencode", "latest", "", "opencode\x00-m\x00x\x00--continue"},
		{"claude", "new", "", "claude\x00--model\x00opus"},
		{"claude", "exact", "--dangerously-skip-permissions", "claude\x00--resume\x00--dangerously-skip-permissions"},
		{"claude", "exact", u, "/bin/sh\x00-c\x00touch x"},
		{"gemini", "exact", u, "node\x00/x/node_modules/@google/gemini-cli/dist/index.js\x00--resume\x00" + u},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	set, err := agents.Load("")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, agent, mode, id, joined string) {
		argv := strings.Split(joined, "\x00")
		if plan.Validate(set, agent, plan.Mode(mode), id, argv) != nil {
			return
		}
		c, ok := recognize.Argv(set, argv)
		if !ok || c.Agent != agent {
			t.Fatalf("valid record whose argv is not %s: %q", agent, argv)
		}
		if mode == string(plan.ModeExact) {
			if id == "" || strings.HasPrefix(id, "-") || strings.ContainsFunc(id, func(r rune) bool {
				return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune("$`;|&<>()'\"\\*?[]{}~", r)
			}) {
				t.Fatalf("valid exact record with id %q", id)
			}
			if !slices.Contains(argv, id) && !slices.ContainsFunc(argv, func(a string) bool { return strings.HasSuffix(a, "="+id) }) {
				t.Fatalf("valid exact record whose argv lacks its id %q: %q", id, argv)
			}
		}
		for _, a := range argv {
			if strings.ContainsFunc(a, unicode.IsControl) {
				t.Fatalf("valid record with a control character: %q", argv)
			}
		}
		built, err := plan.ResumeArgv(set, c, plan.Mode(mode), id)
		if err != nil || !slices.Equal(built, argv) {
			t.Fatalf("valid record is not what kittymux builds: %q, built %q (%v)", argv, built, err)
		}
	})
}
