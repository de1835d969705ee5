package prompt_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// transcript places claude's recorded transcript (testdata, from a real
// claude 2.1.197 conversation) under the world's ~/.claude as conversation
// id of directory cwd, as claude files it.
func (w *world) transcript(t *testing.T, id, cwd string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "conversations", "claude-2.1.197.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.NewReplacer("@CWD@", cwd, "@HOME@", w.home).Replace(string(data)))
	dir := filepath.Join(w.home, ".claude", "projects", regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(cwd, "-"))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestConversationGone: claude deleted the transcript (its
// cleanupPeriodDays, a user's rm) or never had it: the prompt says the
// conversation no longer exists instead of offering its resume, and offers
// a new conversation or a shell; with no terminal, or in auto mode with
// none, a shell. The transcript there, the resume runs as before.
func TestConversationGone(t *testing.T) {
	w := newWorld(t)
	f := w.transcript(t, uuid, w.cwd)
	resumed := []string{"claude", "--model", "sonnet", "--resume", uuid}
	if r := w.runPTY(w.seal(claudeRecord()), "\r", true); !cmp.Equal(argvOf(r), resumed) {
		t.Fatalf("transcript present: ran %q, want the resume\n%s", argvOf(r), r.out)
	}
	if err := os.Remove(f); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		keys string
		want []string
	}{
		{"enter starts a new one", "\r", []string{"claude", "--model", "sonnet"}},
		{"n starts a new one", "n", []string{"claude", "--model", "sonnet"}},
		{"s opens a shell", "s", []string{"-fakesh"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := w.runPTY(w.seal(claudeRecord("--direct")), c.keys, false)
			if diff := cmp.Diff(c.want, argvOf(r)); diff != "" {
				t.Errorf("exec'd (-want +got):\n%s\noutput:\n%s", diff, r.out)
			}
			if !strings.Contains(r.out, "conversation 3e8b5c17: conversation no longer exists (not in ~/.claude/projects)") {
				t.Errorf("the prompt did not say the conversation is gone:\n%s", r.out)
			}
		})
	}
	out, err := w.runNoTerminal(w.seal(claudeRecord("--direct")), nil)
	if err != nil || !strings.Contains(out, "conversation no longer exists") || !strings.Contains(out, "opening a shell") {
		t.Errorf("no terminal: %v\n%s", err, out)
	}
	if got := argvOf(run{records: w.log.Records()[len(w.log.Records())-1:]}); !cmp.Equal(got, []string{"-fakesh"}) {
		t.Errorf("no terminal ran %q, want the shell", got)
	}
}

// TestConversationOwnDirectory: claude resumes a conversation only from the
// directory it belongs to. The window's directory is another now (a
// layout saved in one place, the project moved, a shell that cd'd): the
// resume runs in the directory the transcript records and says so; a
// conversation whose directory is gone is not resumed.
func TestConversationOwnDirectory(t *testing.T) {
	w := newWorld(t)
	own := filepath.Join(w.dir, "api")
	if err := os.Mkdir(own, 0o700); err != nil {
		t.Fatal(err)
	}
	w.transcript(t, uuid, own)
	r := w.runPTY(w.seal(claudeRecord()), "\r", true)
	if len(r.records) != 1 || r.records[0].Cwd != own {
		t.Fatalf("resume ran %+v, want it in %s\n%s", r.records, own, r.out)
	}
	for _, want := range []string{"resumes in " + own + ", the conversation's own directory (this window is in " + w.cwd + ")",
		"resuming in " + own} {
		if !strings.Contains(flat(r.out), want) {
			t.Errorf("output lacks %q:\n%s", want, r.out)
		}
	}
	// n: a new conversation is the window's, in its directory.
	if r := w.runPTY(w.seal(claudeRecord()), "n", true); len(r.records) != 1 || r.records[0].Cwd != w.cwd {
		t.Errorf("new conversation ran %+v, want it in %s", r.records, w.cwd)
	}

	if err := os.Remove(own); err != nil {
		t.Fatal(err)
	}
	r = w.runPTY(w.seal(claudeRecord("--direct")), "s", false)
	if !strings.Contains(flat(r.out), "its directory "+own+" no longer exists") || !cmp.Equal(argvOf(r), []string{"-fakesh"}) {
		t.Errorf("directory gone: ran %q\n%s", argvOf(r), r.out)
	}
}

// flat joins the prompt's wrapped lines.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\r\n", " ")), " ")
}

// TestConversationHeldInBackground: the conversation runs as claude's
// background agent (claude --bg; daemon/roster.json as claude 2.1.197
// writes it, recorded in testdata): the prompt says where it runs and
// offers to attach to it rather than resume it a second time; with no
// terminal, a shell. A roster whose worker is gone changes nothing.
func TestConversationHeldInBackground(t *testing.T) {
	w := newWorld(t)
	w.transcript(t, uuid, w.cwd)
	data, err := os.ReadFile(filepath.Join("testdata", "conversations", "claude-2.1.197-roster.json"))
	if err != nil {
		t.Fatal(err)
	}
	roster := filepath.Join(w.home, ".claude", "daemon", "roster.json")
	os.MkdirAll(filepath.Dir(roster), 0o700)
	write := func(pid int) {
		b := strings.NewReplacer("@PID@", strconv.Itoa(pid), "@SHORT@", "3e8b5c17", "@ID@", uuid, "@CWD@", w.cwd).Replace(string(data))
		if err := os.WriteFile(roster, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(os.Getpid()) // a live process stands for claude's worker
	for _, c := range []struct {
		keys string
		want []string
	}{
		{"\r", []string{"claude", "attach", "3e8b5c17"}},
		{"a", []string{"claude", "attach", "3e8b5c17"}},
		{"n", []string{"claude", "--model", "sonnet"}},
		{"s", []string{"-fakesh"}},
	} {
		r := w.runPTY(w.seal(claudeRecord("--direct")), c.keys, false)
		if diff := cmp.Diff(c.want, argvOf(r)); diff != "" {
			t.Errorf("key %q exec'd (-want +got):\n%s\noutput:\n%s", c.keys, diff, r.out)
		}
		if !strings.Contains(flat(r.out), "conversation 3e8b5c17 runs as a background agent (pid "+strconv.Itoa(os.Getpid())+", in "+w.cwd+"): `claude attach 3e8b5c17` opens it here") {
			t.Errorf("the prompt did not say where it runs:\n%s", r.out)
		}
	}
	if out, _ := w.runNoTerminal(w.seal(claudeRecord("--direct")), nil); !strings.Contains(out, "not resuming it a second time") {
		t.Errorf("no terminal:\n%s", out)
	}
	write(999999999) // the worker is gone
	if r := w.runPTY(w.seal(claudeRecord()), "\r", true); !cmp.Equal(argvOf(r), []string{"claude", "--model", "sonnet", "--resume", uuid}) {
		t.Errorf("worker gone: ran %q, want the resume\n%s", argvOf(r), r.out)
	}
}
