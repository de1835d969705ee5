package hookinstall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
)

// TestHooksThatDoNotRun: installed hooks that do not run are said for any
// agent whose sessions since the hooks file changed finished turns without
// a hook report (a changed hooks.json not trusted again, a run with
// --settings or a scrubbed environment).
func TestHooksThatDoNotRun(t *testing.T) {
	home := t.TempDir()
	env := Env{Getenv: func(string) string { return "" }, Home: home, Exe: "/usr/bin/kittymux"}
	codex, _ := Find("codex")
	claude, _ := Find("claude")
	for _, a := range []Agent{codex, claude} {
		if _, err := Install(a, env); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	// codex's own trust is Status's to say (trust.go): nothing added.
	st := StatusOf(codex, env)
	Check(&st, codex, env, &journal.File{Records: []journal.Record{{Agent: "codex", FirstSeen: now, RunsFinished: 1}}}, now)
	if st.Trust != Untrusted || st.Warning != "" {
		t.Errorf("codex with nothing trusted: %+v", st)
	}

	// The journal: claude sessions after the install that finished turns.
	settings := filepath.Join(home, ".claude", "settings.json")
	installed := now.Add(-3 * time.Hour)
	os.Chtimes(settings, installed, installed)
	hookAt := now.Add(-2 * time.Hour)
	jf := &journal.File{Records: []journal.Record{
		{Agent: "claude", FirstSeen: hookAt.Add(-time.Minute), HookAt: &hookAt, RunsFinished: 3},
		{Agent: "claude", FirstSeen: now.Add(-time.Hour), RunsFinished: 2},
		{Agent: "claude", FirstSeen: now.Add(-30 * time.Minute), RunsFinished: 0}, // no turn yet: says nothing
		{Agent: "claude", FirstSeen: now.Add(-20 * time.Minute), RunsFinished: 1, Nested: true},
		{Agent: "claude", FirstSeen: now.Add(-5 * time.Hour), RunsFinished: 9}, // before the install
	}}
	st = StatusOf(claude, env)
	Check(&st, claude, env, jf, now)
	want := "installed but not run since " + hookAt.Local().Format("2006-01-02 15:04") + ": 1 claude session(s) since finished a turn without it"
	if st.Warning != want {
		t.Errorf("claude: %q, want %q", st.Warning, want)
	}
	jf.Records = jf.Records[1:]
	st = StatusOf(claude, env)
	Check(&st, claude, env, jf, now)
	if !strings.HasPrefix(st.Warning, "installed but has not run: 1 claude session(s) since ") {
		t.Errorf("claude, never a hook: %q", st.Warning)
	}
	jf.Records[0].FirstSeen = now.Add(-4 * time.Hour)
	st = StatusOf(claude, env)
	Check(&st, claude, env, jf, now)
	if st.Warning != "" {
		t.Errorf("only sessions from before the install: %q", st.Warning)
	}
}
