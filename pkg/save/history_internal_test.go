package save

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/paths"
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
	texts := ReadHistory(t.Context(), k, res, "/bin/kittymux-resume", screenhist.DefaultBounds)
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

// Forty windows of 100,000 lines each, under the bounds config.json sets:
// each window keeps at most its last Lines lines and WindowBytes bytes, the
// save at most SaveBytes; the windows beyond say so.
func TestReadHistoryBounds(t *testing.T) {
	var big strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&big, "\x1b[32mline %06d of a long build log, long enough that two thousand of them fill more than the bound of one window: %s\x1b[m\n", i, strings.Repeat("=", 40))
	}
	p := paths.Under(t.TempDir())
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		config      string
		kept, lines int // windows kept whole; lines each keeps (0: as many as fit)
	}{
		{`{}`, 32, 0}, // 256 KiB a window, 8 MiB a save
		{`{"screen_history_lines": 50}`, 40, 50},
		{`{"screen_history_lines": 100000, "screen_history_window_kb": 1024, "screen_history_save_mb": 2}`, 2, 0},
	} {
		if err := os.WriteFile(p.Config(), []byte(c.config), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := screenhist.Load(p, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		b := s.Bounds
		k := &textKitty{text: func(int) string { return big.String() }}
		res := plainSave(40)
		texts := ReadHistory(t.Context(), k, res, "/bin/kittymux-resume", b)
		total, full := 0, 0
		for id, text := range texts {
			body := strings.TrimSuffix(string(text), "\n")
			n := strings.Count(body, "\n") + 1
			if len(text) > b.WindowBytes || n > b.Lines {
				t.Errorf("%s: window %d keeps %d bytes, %d lines", c.config, id, len(text), n)
			}
			// At its own bound: its last lines, as many as fit.
			if strings.HasSuffix(body, "window: "+strings.Repeat("=", 40)+"\x1b[m") && strings.HasPrefix(body, "\x1b[32mline ") &&
				(n == c.lines || c.lines == 0 && len(text) > b.WindowBytes-200) {
				full++
			}
			total += len(text)
		}
		if total > b.SaveBytes || full != c.kept || len(res.Warnings) != 40-len(texts) {
			t.Errorf("%s: the save keeps %d bytes in %d windows (%d of them at their bound), %d warnings", c.config, total, len(texts), full, len(res.Warnings))
		}
	}
}
