package save

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/screenhist"
)

// textKitty answers get-text for each window; a window in fail fails.
type textKitty struct {
	Kitty
	text  func(id int) string
	fail  map[int]bool
	asked []int
}

func (k *textKitty) GetANSIText(_ context.Context, match string) (string, error) {
	id, _ := strconv.Atoi(strings.TrimPrefix(match, "id:"))
	k.asked = append(k.asked, id)
	if k.fail[id] {
		return "", errors.New("kitty @ get-text: timed out")
	}
	return k.text(id), nil
}

func plainSave(n int) *rewrite.Result {
	var b strings.Builder
	b.WriteString("new_tab\n")
	for id := 1; id <= n; id++ {
		fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d}' --cwd=/tmp\n", id)
	}
	b.WriteString("launch 'kitty-unserialize-data={\"id\": 99, \"cmd_at_shell_startup\": [\"/bin/kittymux-resume\", \"--agent=claude\"]}'\n")
	return &rewrite.Result{Data: []byte(b.String())}
}

// A window whose text cannot be read keeps none and the save goes on with
// a warning; an agent window is never read; what is kept is filtered.
func TestReadHistoryFailedRead(t *testing.T) {
	k := &textKitty{text: func(id int) string { return fmt.Sprintf("\x1b]2;t\x07window %d\n", id) }, fail: map[int]bool{2: true}}
	res := plainSave(3)
	texts := readHistory(t.Context(), k, res, "/bin/kittymux-resume")
	if len(texts) != 2 || string(texts[1]) != "window 1\n" || string(texts[3]) != "window 3\n" || texts[2] != nil {
		t.Errorf("texts = %s", fmt.Sprint(texts))
	}
	if fmt.Sprint(k.asked) != "[1 2 3]" {
		t.Errorf("asked for %v, want the plain windows only", k.asked)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "window 2: screen history not kept") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// Forty windows of 100,000 lines each: each keeps at most 2,000 lines and
// 256 KiB, and the save at most 8 MiB; the windows beyond say so.
func TestReadHistoryBounds(t *testing.T) {
	var big strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&big, "\x1b[32mline %06d of a long build log, long enough that two thousand of them fill more than the bound of one window: %s\x1b[m\n", i, strings.Repeat("=", 40))
	}
	k := &textKitty{text: func(int) string { return big.String() }}
	res := plainSave(40)
	texts := readHistory(t.Context(), k, res, "/bin/kittymux-resume")
	total := 0
	for id, text := range texts {
		if len(text) > screenhist.MaxWindowBytes || strings.Count(string(text), "\n") >= screenhist.MaxLines {
			t.Errorf("window %d keeps %d bytes, %d lines", id, len(text), strings.Count(string(text), "\n")+1)
		}
		total += len(text)
	}
	if total > screenhist.MaxSaveBytes || len(texts) < 32 || len(texts) == 40 {
		t.Errorf("the save keeps %d bytes in %d windows", total, len(texts))
	}
	if len(res.Warnings) != 40-len(texts) {
		t.Errorf("%d windows kept, %d warnings", len(texts), len(res.Warnings))
	}
}
