package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// holdLock takes the journal's lock as another writer would, until the
// returned func is called.
func holdLock(t *testing.T, j *Journal) func() {
	t.Helper()
	d, err := statefile.Make(filepath.Dir(j.Path))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, err := d.OpenLock(filepath.Base(j.LockPath()))
	if err != nil {
		t.Fatal(err)
	}
	if err := statefile.Flock(context.Background(), f, syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func() { f.Close() }
}

func hookRun(window int, id, state string, at time.Time) HookRun {
	return HookRun{Agent: "claude", Socket: "unix:/tmp/k", KittyPID: 7, WindowID: window, AgentPID: 100 + window,
		PIDs: []int{100 + window}, Event: HookEvent{ID: id, State: state, Dir: "/home/u", At: at}}
}

// Events whose hook could not get the lock wait in the spool: a Read sees
// them, the next writer puts them in the journal in the order they came,
// and empties the spool.
func TestHookEventsQueuedWhileLocked(t *testing.T) {
	j := newAt(t, t0)
	key, queued, err := j.AddHook(context.Background(), time.Second, hookRun(1, "a", agents.StateIdle, t0))
	if err != nil || queued || key == "" {
		t.Fatalf("free journal: key %q, queued %v, %v", key, queued, err)
	}
	release := holdLock(t, j)
	for i, id := range []string{"b", "c", "d"} {
		state := agents.StateWorking
		if i%2 == 1 {
			state = agents.StateIdle
		}
		_, queued, err := j.AddHook(context.Background(), 5*time.Millisecond, hookRun(1, id, state, t0.Add(time.Duration(i+1)*time.Second)))
		if err != nil || !queued {
			t.Fatalf("event %s with the journal locked: queued %v, %v", id, queued, err)
		}
	}
	if _, queued, err := j.AddHook(context.Background(), 5*time.Millisecond, hookRun(2, "x", agents.StateWorking, t0)); err != nil || !queued {
		t.Fatalf("second window: queued %v, %v", queued, err)
	}
	want := func(t *testing.T, f *File) {
		t.Helper()
		type got struct {
			Window   int
			ID       string
			Previous []string
			State    string
			Runs     int
			FromHook bool
		}
		var have []got
		for _, r := range f.Records {
			have = append(have, got{Window: r.WindowID, ID: r.ID, Previous: r.PreviousIDs, State: r.State, Runs: r.RunsFinished, FromHook: r.HookAt != nil})
		}
		wantRecs := []got{
			{Window: 1, ID: "d", Previous: []string{"a", "b", "c"}, State: agents.StateWorking, Runs: 1, FromHook: true},
			{Window: 2, ID: "x", State: agents.StateWorking, FromHook: true},
		}
		if diff := cmp.Diff(wantRecs, have); diff != "" {
			t.Errorf("records (-want +got):\n%s", diff)
		}
	}
	f, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("read while queued", func(t *testing.T) { want(t, f) })
	if r, err := j.LatestOf("claude", "x"); err != nil || r == nil {
		t.Errorf("LatestOf a queued id: %+v, %v", r, err)
	}
	release()
	if _, err := j.Update(func(*File) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(j.SpoolPath()); err != nil || fi.Size() != 0 {
		t.Errorf("spool after a write: %v %v", fi, err)
	}
	// The journal and its log, without the spool.
	f, err = j.readFile()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("written by the next writer", func(t *testing.T) { want(t, f) })
	f, err = j.Read()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("read after", func(t *testing.T) { want(t, f) })
}

// A writer whose change fails leaves the spool for the next one.
func TestSpoolKeptWhenNothingWritten(t *testing.T) {
	j := newAt(t, t0)
	release := holdLock(t, j)
	if _, queued, err := j.AddHook(context.Background(), time.Millisecond, hookRun(1, "a", agents.StateIdle, t0)); err != nil || !queued {
		t.Fatalf("queued %v, %v", queued, err)
	}
	release()
	boom := errors.New("boom")
	if _, err := j.Update(func(*File) error { return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if fi, err := os.Stat(j.SpoolPath()); err != nil || fi.Size() == 0 {
		t.Fatalf("spool emptied by a writer that wrote nothing: %v %v", fi, err)
	}
	if _, err := j.Update(func(*File) error { return nil }); err != nil {
		t.Fatal(err)
	}
	f, err := j.Read()
	if err != nil || len(f.Records) != 1 || f.Records[0].ID != "a" {
		t.Fatalf("journal after: %+v, %v", f, err)
	}
}

// A FIFO (or device) where the journal or its lock should be is refused
// at once: a writer reading it holds the lock, and every hook would wait.
func TestJournalFIFORefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		path func(j *Journal) string
	}{
		{"journal", func(j *Journal) string { return j.Path }},
		{"lock", func(j *Journal) string { return j.LockPath() }},
		{"spool", func(j *Journal) string { return j.SpoolPath() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := newAt(t, t0)
			if err := os.MkdirAll(filepath.Dir(j.Path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(tc.path(j), 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan []error, 1)
			go func() {
				var errs []error
				_, err := j.Update(func(f *File) error { f.Upsert(rec("k", true, t0)); return nil })
				errs = append(errs, err)
				_, err = j.Read()
				errs = append(errs, err)
				_, err = j.LatestOf("claude", "x")
				errs = append(errs, err)
				done <- errs
			}()
			select {
			case errs := <-done:
				for i, err := range errs {
					if tc.name == "spool" {
						// The spool is only ever read if it is a file:
						// the journal itself works.
						if err != nil {
							t.Errorf("call %d: %v", i, err)
						}
						continue
					}
					if i == 2 && tc.name == "lock" {
						continue // readers take no lock
					}
					if i > 0 && tc.name == "lock" {
						if err != nil {
							t.Errorf("call %d: %v", i, err)
						}
						continue
					}
					if !errors.Is(err, userfile.ErrNotRegular) {
						t.Errorf("call %d: err = %v, want not a regular file", i, err)
					}
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still blocked on the FIFO after 20 s")
			}
		})
	}
}

// An outcome a prompt queues while a writer of the journal is busy (after
// the writer read the queue, before it dropped what it read) stays queued
// for the next fold: the queue's lock is not held across the journal's
// write, so the prompt never waits on it, and the drop removes only the
// bytes the writer read.
func TestQueueKeepsWhatCameDuringAFold(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	state := t.TempDir()
	j := New(filepath.Join(state, "agent-sessions.json"), false)
	first := Restore{At: now, Agent: "claude", Outcome: OutcomeResumed, WindowID: 1}
	second := Restore{At: now.Add(time.Second), Agent: "codex", Outcome: OutcomeNew, WindowID: 2}
	if err := j.QueueRestore(first); err != nil {
		t.Fatal(err)
	}
	read, n := j.readQueue()
	if !cmp.Equal(read, []Restore{first}) {
		t.Fatalf("read %+v", read)
	}
	if err := j.QueueRestore(second); err != nil {
		t.Fatal(err)
	}
	dir, err := statefile.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	j.dropQueued(dir, n)
	if left, _ := j.readQueue(); !cmp.Equal(left, []Restore{second}) {
		t.Errorf("queue after the drop: %+v, want the outcome queued during the fold", left)
	}
}
