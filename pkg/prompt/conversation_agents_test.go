package prompt_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// geminiChat places gemini's recorded chat file (testdata, from a real
// gemini 0.61.0 conversation with the model stand-in) under the world's
// ~/.gemini as conversation id of directory cwd, as gemini files it: a
// project directory under tmp/ whose .project_root names cwd, and
// chats/session-<time>-<first 8 of the id>.jsonl.
func (w *world) geminiChat(t *testing.T, id, cwd string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "conversations", "gemini-0.61.0.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.NewReplacer("@CWD@", cwd, "@HOME@", w.home, "@ID@", id).Replace(string(data)))
	project := filepath.Join(w.home, ".gemini", "tmp", filepath.Base(cwd))
	if err := os.MkdirAll(filepath.Join(project, "chats"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".project_root"), []byte(cwd), 0o600); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(project, "chats", "session-2026-12-01T15-46-"+id[:8]+".jsonl")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func geminiRecord(extra ...string) []string {
	a := []string{"--agent", "gemini", "--mode", "exact", "--id", uuid, "--tab", "api work"}
	a = append(a, extra...)
	return append(a, "--", "gemini", "--resume", uuid)
}

// TestConversationGoneGemini: gemini's chat file is there, the resume is
// offered; a chat file of another conversation whose name carries the
// same first 8 characters does not count; the file gone (gemini's
// sessionRetention, a user's rm, `gemini --delete-session`), the prompt
// says the conversation no longer exists and offers a new one.
func TestConversationGoneGemini(t *testing.T) {
	w := newWorld(t)
	f := w.geminiChat(t, uuid, w.cwd)
	resumed := []string{"gemini", "--resume", uuid}
	if r := w.runPTY(w.seal(geminiRecord()), "\r", true); !cmp.Equal(argvOf(r), resumed) {
		t.Fatalf("chat file present: ran %q, want the resume\n%s", argvOf(r), r.out)
	}
	if err := os.Remove(f); err != nil {
		t.Fatal(err)
	}
	// Same file name, another conversation's id inside: not this one.
	w.geminiChat(t, uuid[:8]+"-0000-4000-8000-000000000000", w.cwd)
	r := w.runPTY(w.seal(geminiRecord("--direct")), "\r", false)
	if diff := cmp.Diff([]string{"gemini"}, argvOf(r)); diff != "" {
		t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
	if !strings.Contains(r.out, "gemini conversation 3e8b5c17: conversation no longer exists (not in ~/.gemini/tmp)") {
		t.Errorf("the prompt did not say the conversation is gone:\n%s", r.out)
	}
}

// TestConversationOwnDirectoryGemini: gemini resumes a conversation only
// in its project (it looks in that project's chats); the window is in
// another directory now: the resume runs in the directory gemini recorded
// in the project's .project_root, and the prompt says so.
func TestConversationOwnDirectoryGemini(t *testing.T) {
	w := newWorld(t)
	own := filepath.Join(w.dir, "project")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	w.geminiChat(t, uuid, own)
	r := w.runPTY(w.seal(geminiRecord()), "\r", true)
	if diff := cmp.Diff([]string{"gemini", "--resume", uuid}, argvOf(r)); diff != "" {
		t.Fatalf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
	if got := r.records[0].Cwd; got != own {
		t.Errorf("gemini ran in %s, want its project %s", got, own)
	}
	if !strings.Contains(flat(r.out), "the conversation's own directory") {
		t.Errorf("the prompt did not say where it resumes:\n%s", r.out)
	}
}

// TestConversationUncheckedOpenCode: opencode keeps its sessions in an
// SQLite database kittymux does not read, so nothing says whether the
// session is still there: the prompt says that it was not checked and
// why, and still offers the resume (never says gone on a guess).
func TestConversationUncheckedOpenCode(t *testing.T) {
	w := newWorld(t)
	const ses = "ses_2b9f0c4e1ffeJq7yYV3xQm2Lk8"
	rec := []string{"--agent", "opencode", "--mode", "exact", "--id", ses, "--tab", "api work", "--",
		"opencode", "--session", ses}
	r := w.runPTY(w.seal(rec), "\r", true)
	if diff := cmp.Diff([]string{"opencode", "--session", ses}, argvOf(r)); diff != "" {
		t.Fatalf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
	}
	if out := flat(r.out); !strings.Contains(out, "not checked that opencode still has it: opencode keeps its sessions in an SQLite database") {
		t.Errorf("the prompt did not say the session was not checked, and why:\n%s", r.out)
	}
}
