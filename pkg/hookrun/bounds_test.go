package hookrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// within fails the test when fn has not returned in a long while: the
// waits shown here never end at all without their bound.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: still waiting after 30 s", what)
	}
}

// The event is read only until the run's context ends: a writer that
// never finishes holds up nothing, and nothing is recorded.
func TestRunBoundsTheRead(t *testing.T) {
	o, _, calls := setup(t, nil)
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte(`{"session_id":"9f3c2b1a-0d4e-4c5f`)) // and never the rest
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var err error
	within(t, "Run with a slow writer", func() {
		_, err = Run(ctx, o, "claude", "UserPromptSubmit", pr)
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if _, serr := os.Stat(o.Paths.Journal()); !os.IsNotExist(serr) || len(*calls) > 0 {
		t.Errorf("something was recorded: journal %v, vars %q", serr, *calls)
	}
}

// The whole process is bounded, stdin included: an agent that never
// closes the hook's stdin gets its exit 0 all the same, and the log says
// why nothing was recorded.
func TestMainBoundsStdin(t *testing.T) {
	state := t.TempDir()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	pw.WriteString(`{"session_id":"9f3c2b1a`)
	cmd := exec.Command(os.Args[0], "claude", "UserPromptSubmit")
	cmd.Env = append(os.Environ(), "HOOK_HELPER=1", "XDG_STATE_HOME="+state, "KITTY_WINDOW_ID=4", "KITTY_PID=1")
	cmd.Stdin = pr
	within(t, "kittymux hook with stdin never closed", func() { err = cmd.Run() })
	pr.Close()
	if err != nil {
		t.Fatalf("exit: %v", err)
	}
	log, _ := os.ReadFile(filepath.Join(state, "kittymux", paths.HookLogName))
	if !strings.Contains(string(log), "read event") {
		t.Errorf("log = %q, want the read named", log)
	}
}

// A FIFO where the journal is: the hook does not wait on it (holding the
// journal's lock, every other hook would wait too); it logs and exits.
func TestMainFIFOJournal(t *testing.T) {
	state := t.TempDir()
	p := paths.Paths{StateDir: filepath.Join(state, "kittymux")}
	if err := os.MkdirAll(p.StateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p.Journal(), 0o600); err != nil {
		t.Fatal(err)
	}
	var code int
	within(t, "kittymux hook with a FIFO journal", func() {
		code, _ = runMain(t, state, []string{"KITTY_WINDOW_ID=4", "KITTY_PID=1"}, payloads["claude"]["Stop"], "claude", "Stop")
	})
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	log, _ := os.ReadFile(filepath.Join(p.StateDir, paths.HookLogName))
	if !strings.Contains(string(log), "not a regular file") {
		t.Errorf("log = %q, want the journal refused", log)
	}
}

// 8 agents' hooks, 100 events each, at once: none is lost, and each
// window's events land in the order they came. The journal is held by
// another writer (a slow scanner) through each hook's first events, for
// longer than a hook waits: those are queued, then merged.
func TestConcurrentEventsNotLost(t *testing.T) {
	if testing.Short() {
		t.Skip("800 hook processes")
	}
	const windows, events, held = 8, 100, 5
	state := t.TempDir()
	j := journal.New(filepath.Join(state, "kittymux", "agent-sessions.json"), false)
	d, err := statefile.Make(filepath.Dir(j.Path))
	if err != nil {
		t.Fatal(err)
	}
	lock, err := d.OpenLock(filepath.Base(j.LockPath()))
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := statefile.Flock(context.Background(), lock, syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var first, all sync.WaitGroup
	first.Add(windows)
	for w := 1; w <= windows; w++ {
		all.Go(func() {
			env := []string{fmt.Sprintf("KITTY_WINDOW_ID=%d", w), "KITTY_PID=999999"}
			for e := range events {
				if e == held {
					first.Done()
				}
				event := [...]string{"UserPromptSubmit", "Stop"}[e%2]
				in := fmt.Sprintf(`{"session_id":"w%d-e%03d","cwd":"/home/u","hook_event_name":%q}`, w, e, event)
				if code, _ := runMain(t, state, env, in, "claude", event); code != 0 {
					t.Errorf("window %d event %d: exit %d", w, e, code)
				}
			}
		})
	}
	first.Wait()
	lock.Close()
	all.Wait()
	if log, _ := os.ReadFile(filepath.Join(state, "kittymux", paths.HookLogName)); len(log) > 0 {
		t.Errorf("the hooks logged:\n%s", log)
	}
	// The last events may still be queued: the next writer merges them.
	if _, err := j.Update(func(*journal.File) error { return nil }); err != nil {
		t.Fatal(err)
	}
	f, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		IDs  []string
		Runs int
	}
	have, want := map[int]got{}, map[int]got{}
	for _, r := range f.Records {
		have[r.WindowID] = got{append(append([]string{}, r.PreviousIDs...), r.ID), r.RunsFinished}
	}
	for w := 1; w <= windows; w++ {
		g := got{Runs: events / 2}
		for e := range events {
			g.IDs = append(g.IDs, fmt.Sprintf("w%d-e%03d", w, e))
		}
		want[w] = g
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("events in the journal (-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(j.SpoolPath()); err != nil || fi.Size() != 0 {
		t.Errorf("spool after the last write: %v, %v", fi, err)
	}
}

// Hooks logging at once lose no line.
func TestLogConcurrentWriters(t *testing.T) {
	p := paths.Under(t.TempDir())
	const writers, lines = 8, 40
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range lines {
				Log(p, t0, fmt.Sprintf("writer %d line %d", w, i))
			}
		})
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(p.StateDir, paths.HookLogName))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for l := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		seen[l[strings.IndexByte(l, ' ')+1:]] = true
	}
	var missing []string
	for w := range writers {
		for i := range lines {
			if l := fmt.Sprintf("writer %d line %d", w, i); !seen[l] {
				missing = append(missing, l)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of %d lines lost, among them %q", len(missing), writers*lines, missing[:min(len(missing), 5)])
	}
}
