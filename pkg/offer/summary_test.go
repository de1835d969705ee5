package offer

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// The offer shows each tab with its windows and the agents it resumes.
func TestSummarize(t *testing.T) {
	data := []byte(`new_tab api work
layout splits
cd /w/api
launch 'kitty-unserialize-data={"id": 1}' /bin/kittymux-resume --agent claude --mode exact --id 4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73 -- claude --resume 4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73
launch 'kitty-unserialize-data={"id": 2}'
new_tab
cd /w/cli
launch 'kitty-unserialize-data={"id": 3}' /bin/kittymux-resume --agent codex --mode latest --dir '/w/cli/a\nb' -- codex resume --last
launch 'kitty-unserialize-data={"id": 4}' /bin/kittymux-resume --bogus
new_tab
cd /home/me
launch 'kitty-unserialize-data={"id": 5}' ` + remoteLine(t) + `
`)
	s, err := Summarize(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Windows != 5 || s.Agents != 3 || len(s.Tabs) != 3 {
		t.Fatalf("summary %+v", s)
	}
	want := []string{
		`tab "api work": 2 windows: claude 4f9e2a51 in /w/api`,
		// The record's directory, where kitty's cd names its parent.
		"tab 2: 2 windows: codex (latest conversation) in /w/cli/a\\nb",
		`tab 3: 1 window: claude on devbox 9d1c7e42 in /home/me/api`,
	}
	if diff := cmp.Diff(want, s.Lines()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := Summarize([]byte("launch 'unclosed\n")); err == nil {
		t.Errorf("a broken file summarized")
	}
}

// remoteLine is the restore prompt's command line for claude on a host
// reached with `ssh -p 2222 me@devbox`, whose hook named it devbox.lan.
func remoteLine(t *testing.T) string {
	t.Helper()
	rec := resumerecord.Record{Agent: "claude", Mode: plan.ModeExact, ID: "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f", Dir: "/home/me",
		Remote: "devbox.lan", RemoteDir: "/home/me/api", Argv: []string{"/usr/bin/ssh", "-p", "2222", "me@devbox"}}
	argv, err := rec.CommandLine("/bin/kittymux-resume", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	words := make([]string, len(argv))
	for i, w := range argv {
		if words[i], err = sessionfile.QuoteWord(w); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Join(words, " ")
}
