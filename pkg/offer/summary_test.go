package offer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
launch 'kitty-unserialize-data={"id": 3}' /bin/kittymux-resume --agent codex --mode latest -- codex resume --last
launch 'kitty-unserialize-data={"id": 4}' /bin/kittymux-resume --bogus
`)
	s, err := Summarize(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Windows != 4 || s.Agents != 2 || len(s.Tabs) != 2 {
		t.Fatalf("summary %+v", s)
	}
	want := []string{
		`tab "api work": 2 windows: claude 4f9e2a51 in /w/api`,
		`tab 2: 2 windows: codex (latest conversation) in /w/cli`,
	}
	if diff := cmp.Diff(want, s.Lines()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := Summarize([]byte("launch 'unclosed\n")); err == nil {
		t.Errorf("a broken file summarized")
	}
}
