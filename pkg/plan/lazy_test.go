package plan_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/plan"
)

// TestLazySetSameResume: the resume commands the restore prompt builds and
// checks are the same from a set loaded lazily (agents.LoadLazy, as the
// prompt loads it) as from one loaded whole, for every shipped agent and
// mode.
func TestLazySetSameResume(t *testing.T) {
	whole, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := agents.LoadLazy("")
	if err != nil {
		t.Fatal(err)
	}
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	text := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	checked := 0
	for _, n := range whole.Names() {
		def, _ := whole.Definition(n)
		for _, argv := range [][]string{{def.Programs[0]}, {def.Programs[0], "--resume", id}, {def.Programs[0], "--continue"}} {
			wc, wok := whole.RecognizeArgv(argv)
			lc, lok := lazy.RecognizeArgv(argv)
			if wok != lok {
				t.Fatalf("%s: %q recognised %v whole, %v lazily", n, argv, wok, lok)
			}
			if !wok {
				continue
			}
			for _, mode := range []plan.Mode{plan.ModeExact, plan.ModeLatest, plan.ModeNew} {
				mid := ""
				if mode == plan.ModeExact {
					mid = id
				}
				want, wantErr := plan.ResumeArgv(whole, wc, mode, mid)
				got, gotErr := plan.ResumeArgv(lazy, lc, mode, mid)
				if diff := cmp.Diff(want, got); diff != "" || text(wantErr) != text(gotErr) {
					t.Errorf("%s %s %q: ResumeArgv (-whole +lazy):\n%s%v / %v", n, mode, argv, diff, wantErr, gotErr)
				}
				if wantErr != nil {
					continue
				}
				if w, g := plan.Validate(whole, n, mode, mid, want), plan.Validate(lazy, n, mode, mid, want); text(w) != text(g) {
					t.Errorf("%s %s: Validate %v whole, %v lazily", n, mode, w, g)
				} else if w == nil {
					checked++
				}
			}
		}
	}
	if checked < len(whole.Names()) {
		t.Errorf("only %d resume commands validated, for %d agents", checked, len(whole.Names()))
	}
}
