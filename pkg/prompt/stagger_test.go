package prompt_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestStaggeredStarts: three windows of one agent restored without asking
// at once start one after another, resume.interval apart: the first at
// once, the others saying they wait their turn. (How long each waited is
// not asserted: timings are not, in ordinary tests.)
func TestStaggeredStarts(t *testing.T) {
	w := newWorld(t)
	// An interval longer than three processes take to start on a loaded
	// machine: one that started after the previous one's slot had passed
	// would rightly not wait.
	w.extraEnv = []string{"KITTYMUX_RESUME_INTERVAL=3s"}
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
		if strings.Contains(out, "kittymux: starting claude in ") && strings.Contains(out, "(one claude every 3s: resume.interval)") {
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

// TestResumeAllIsSpaced: the windows another window's `a` answers start
// spaced like those that run without asking: one whose agent started a
// moment ago waits its turn.
func TestResumeAllIsSpaced(t *testing.T) {
	w := newWorld(t)
	w.extraEnv = []string{"KITTYMUX_RESUME_INTERVAL=3s"}
	// claude started just now in another window: this one's slot is later.
	first := w.seal([]string{"--agent", "claude", "--mode", "new", "--direct", "--", "claude"})
	if out, err := w.runNoTerminal(first, nil); err != nil || strings.Contains(out, "starting claude in") {
		t.Fatalf("the first start waited: %v\n%s", err, out)
	}
	r := w.runPTYShown(w.seal(claudeRecord()), "", func() {
		until := strconv.FormatInt(time.Now().Add(time.Minute).Unix(), 10)
		os.WriteFile(filepath.Join(w.state, "resume-all-until"), []byte(until), 0o600)
	})
	if !strings.Contains(r.out, "resuming (another window chose: resume all)") || !strings.Contains(flat(r.out), "(one claude every 3s: resume.interval)") {
		t.Errorf("the window `a` answered did not wait its turn:\n%s", r.out)
	}
	if diff := cmp.Diff([]string{"claude", "--model", "sonnet", "--resume", uuid}, argvOf(r)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
