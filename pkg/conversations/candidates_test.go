package conversations_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/conversations"
)

// place writes the captured conversation of agent (real files of claude
// 2.1.197, codex 0.171.0, gemini 0.61.0 and pi 0.73.1 talking to the model
// stand-in: testdata/candidates/<agent>.jsonl; those of a newer version in
// <agent>-<version>.jsonl, capture "<agent>-<version>") where the agent
// keeps it under home, as belonging to dir.
func place(t *testing.T, capture, home, dir, rel string, mtime time.Time) string {
	t.Helper()
	agent, _, _ := strings.Cut(capture, "-")
	data, err := os.ReadFile(filepath.Join("testdata", "candidates", capture+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("@CWD@", dir, "@HOME@", home).Replace(string(data))
	p := filepath.Join(home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if agent == "gemini" {
		if err := os.WriteFile(filepath.Join(filepath.Dir(p), "..", ".project_root"), []byte(dir), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCandidates: the conversations a window could have held are listed
// from the agent's own files, newest first: their id, the user's first
// message (not the agent's own context) and turns; those of another
// directory, and those last written before the window's agent started, are
// not. claude 2.1.332 (the registry's newest) writes the request it sends
// into its transcript too ("api-request-blob" lines, the user's text among
// the parts): not a message of its own.
func TestCandidates(t *testing.T) {
	set := agentstest.Shipped(t)
	now := time.Now()
	for _, c := range []struct {
		agent, id, rel, other string
	}{
		{"claude", "b006f6b7-29e4-4f74-afdb-3233ed8dfa4e", ".claude/projects/-w/b006f6b7-29e4-4f74-afdb-3233ed8dfa4e.jsonl", ".claude/projects/-o/b006f6b7-29e4-4f74-afdb-3233ed8dfa40.jsonl"},
		{"claude-2.1.332", "32a74f52-db6a-46c4-8917-7398d12e61d3", ".claude/projects/-w/32a74f52-db6a-46c4-8917-7398d12e61d3.jsonl", ".claude/projects/-o/32a74f52-db6a-46c4-8917-7398d12e61d0.jsonl"},
		{"codex", "01a234b4-9ffc-7ce2-b707-64671f96baf3", ".codex/sessions/2026/12/02/rollout-2026-12-02T03-03-02-01a234b4-9ffc-7ce2-b707-64671f96baf3.jsonl", ".codex/sessions/2026/12/01/rollout-2026-12-01T03-03-02-01a234b4-9ffc-7ce2-b707-64671f96baf0.jsonl"},
		{"gemini", "2a716037-1bad-4de7-b310-539dbb64f753", ".gemini/tmp/w/chats/session-2026-12-02T03-03-2a716037.jsonl", ".gemini/tmp/o/chats/session-2026-12-02T03-03-2a716037.jsonl"},
		{"pi", "01a234b5-22cc-7500-a09f-6aecea062015", ".pi/agent/sessions/--w--/2026-12-02T03-03-35-886Z_01a234b5-22cc-7500-a09f-6aecea062015.jsonl", ".pi/agent/sessions/--o--/2026-12-02T03-03-35-886Z_01a234b5-22cc-7500-a09f-6aecea062010.jsonl"},
	} {
		t.Run(c.agent, func(t *testing.T) {
			home, dir, other := t.TempDir(), t.TempDir(), t.TempDir()
			agent, _, _ := strings.Cut(c.agent, "-")
			if !set.Chooses(agent) {
				t.Fatalf("%s: cannot list its conversations", agent)
			}
			place(t, c.agent, home, dir, c.rel, now.Add(-time.Minute))
			place(t, c.agent, home, other, c.other, now)
			getenv := getenvOf(map[string]string{"HOME": home})
			got := conversations.Candidates(set, agent, dir, now.Add(-time.Hour), getenv)
			if len(got) != 1 {
				t.Fatalf("%d candidates, want 1: %+v", len(got), got)
			}
			want := agents.Candidate{ID: c.id, File: filepath.Join(home, c.rel), First: "remember APPLE please", Turns: 1, Modified: got[0].Modified}
			if diff := cmp.Diff(want, got[0]); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got := conversations.Candidates(set, agent, dir, now, getenv); len(got) != 0 {
				t.Errorf("written before the agent started: %+v, want none", got)
			}
		})
	}
}

// TestCandidatesOrder: newest first, at most nine; a FIFO where a file
// goes is not waited on.
func TestCandidatesOrder(t *testing.T) {
	set := agentstest.Shipped(t)
	home, dir := t.TempDir(), t.TempDir()
	now := time.Now()
	for i := range 12 {
		id := strings.Replace("b006f6b7-29e4-4f74-afdb-3233ed8dfa4e", "4e", "0123456789ab"[i:i+1]+"0", 1)
		place(t, "claude", home, dir, ".claude/projects/-w/"+id+".jsonl", now.Add(time.Duration(i)*time.Minute))
	}
	if err := mkfifo(filepath.Join(home, ".claude/projects/-w/b006f6b7-29e4-4f74-afdb-3233ed8dfa99.jsonl")); err != nil {
		t.Fatal(err)
	}
	got := conversations.Candidates(set, "claude", dir, time.Time{}, getenvOf(map[string]string{"HOME": home}))
	if len(got) != conversations.MaxCandidates {
		t.Fatalf("%d candidates, want %d", len(got), conversations.MaxCandidates)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Modified.After(got[i-1].Modified) {
			t.Errorf("not newest first: %v after %v", got[i].Modified, got[i-1].Modified)
		}
	}
	if !strings.HasSuffix(got[0].ID, "b0") {
		t.Errorf("newest is %s, want the twelfth", got[0].ID)
	}
}

// TestListCandidates: opencode keeps its sessions in a database; its CLI
// lists them (`opencode session list --format json --pure`), run as the
// resume would be. Only sessions of the directory, last written since its
// process started, with an id of opencode's form, newest first; a CLI that
// fails or says too much lists nothing.
func TestListCandidates(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	now := time.Now()
	ms := func(d time.Duration) int64 { return now.Add(-d).UnixMilli() }
	list := fmt.Sprintf(`[
  {"id": "ses_newer", "title": "Remember the word TULIP", "updated": %d, "directory": %q},
  {"id": "ses_older", "title": "Remember the word ORCHID", "updated": %d, "directory": %q},
  {"id": "ses_elsewhere", "title": "x", "updated": %d, "directory": "/elsewhere"},
  {"id": "ses_before", "title": "before it started", "updated": %d, "directory": %q},
  {"id": "../../etc", "title": "not an id", "updated": %d, "directory": %q}
]`, ms(time.Minute), dir, ms(5*time.Minute), dir, ms(time.Minute), ms(3*time.Hour), dir, ms(time.Minute), dir)
	bin := filepath.Join(t.TempDir(), "opencode")
	out := filepath.Join(t.TempDir(), "list.json")
	args := filepath.Join(t.TempDir(), "args")
	if err := os.WriteFile(out, []byte(list), 0o600); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$@\" > " + args + "\ncat " + out + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	got, err := conversations.ListCandidates(set, "opencode", bin, dir, now.Add(-time.Hour), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	var ids, firsts []string
	for _, c := range got {
		ids, firsts = append(ids, c.ID), append(firsts, c.First)
	}
	if diff := cmp.Diff([]string{"ses_newer", "ses_older"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Remember the word TULIP", "Remember the word ORCHID"}, firsts); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if a, _ := os.ReadFile(args); strings.TrimSpace(string(a)) != "session list --format json --pure" {
		t.Errorf("ran opencode %q", a)
	}
	if !set.Chooses("opencode") || !agents.Listed("opencode") || agents.Listed("claude") {
		t.Errorf("opencode is not listed by its CLI, or claude is")
	}
	// A CLI that fails, or prints more than a listing reads: nothing, and
	// why.
	for body, why := range map[string]string{"echo 'database is locked' >&2; exit 3": "database is locked", "head -c 9000000 /dev/zero": "more than a list"} {
		if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		got, err := conversations.ListCandidates(set, "opencode", bin, dir, time.Time{}, os.Environ())
		if len(got) != 0 || err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: listed %v, error %v", body, got, err)
		}
	}
	// A CLI that fails once (its database busy) is asked again.
	again := filepath.Join(t.TempDir(), "failed")
	script = "#!/bin/sh\nif [ ! -e " + again + " ]; then touch " + again + "; exit 1; fi\ncat " + out + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	if got, err := conversations.ListCandidates(set, "opencode", bin, dir, now.Add(-time.Hour), os.Environ()); len(got) != 2 || err != nil {
		t.Errorf("after one failure: listed %d, error %v", len(got), err)
	}
}
