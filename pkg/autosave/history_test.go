package autosave

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/rewrite"
)

// An autosave keeps the screen history its Take read, as files of the
// save its name gets when published; pruning an old autosave removes its
// history with it.
func TestStoreKeepsScreenHistory(t *testing.T) {
	p := paths.Under(t.TempDir())
	s := Store{Paths: p, Keep: 1, ResumeBin: "/bin/kittymux-resume"}
	start := time.Date(2026, 12, 1, 14, 2, 0, 0, time.UTC)
	var names []string
	for i := range 2 {
		at := start.Add(time.Duration(i) * time.Minute)
		res := &rewrite.Result{Data: []byte("new_tab\nlaunch 'kitty-unserialize-data={\"id\": 1}'\n"),
			HistoryTexts: map[int][]byte{1: []byte("built ok\n")}}
		path, err := s.Publish("4242", at, res)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		name := Name("4242", at)
		if len(res.History) != 1 || !strings.Contains(string(data), published.HistoryDir(p, name)) {
			t.Fatalf("save %s: history %v\n%s", name, res.History, data)
		}
		names = append(names, name)
	}
	if _, err := os.Lstat(published.HistoryDir(p, names[0])); !os.IsNotExist(err) {
		t.Errorf("the pruned autosave's history stays: %v", err)
	}
	if ents, err := os.ReadDir(published.HistoryDir(p, names[1])); err != nil || len(ents) != 1 {
		t.Errorf("the kept autosave's history: %v %v", ents, err)
	}
}
