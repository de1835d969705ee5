package prompt_test

import (
	"strings"
	"sync"
	"testing"
)

// TestStaggeredStarts: three windows of one agent restored without asking
// at once start one after another, resume.interval apart: the first at
// once, the others saying they wait their turn. (How long each waited is
// not asserted: timings are not, in ordinary tests.)
func TestStaggeredStarts(t *testing.T) {
	w := newWorld(t)
	w.extraEnv = []string{"KITTYMUX_RESUME_INTERVAL=200ms"}
	args := w.seal([]string{"--agent", "claude", "--mode", "new", "--direct", "--", "claude", "--model", "sonnet"})
	outs := make([]string, 3)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Go(func() {
			out, err := w.runNoTerminal(args, nil)
			if err != nil {
				t.Errorf("prompt %d: %v\n%s", i, err, out)
			}
			outs[i] = out
		})
	}
	wg.Wait()
	waited := 0
	for _, out := range outs {
		if strings.Contains(out, "kittymux: starting claude in ") && strings.Contains(out, "(one claude every 200ms: resume.interval)") {
			waited++
		}
	}
	if waited != 2 {
		t.Errorf("%d prompts waited their turn, want 2:\n%s", waited, strings.Join(outs, "\n---\n"))
	}
	if n := len(w.log.Records()); n != 3 {
		t.Errorf("%d agents started, want 3", n)
	}
}
