//go:build linux

package prompt_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/kitty/kittytest"
	"github.com/kittymux/kittymux/pkg/paths"
)

// TestRealPromptPicture makes the README's picture of the restore prompt:
// a real kitty under Xvfb restores a session of three agent windows (two
// side by side, one in a second tab), each waiting at its prompt, and
// ImageMagick's import takes a screenshot of kitty's window. It writes
// $KITTYMUX_PROMPT_PICTURE (scripts/prompt-picture sets it), else a file
// of the test's own; the picture is not compared, only made.
func TestRealPromptPicture(t *testing.T) {
	kittyBin := kittytest.NeedKitty(t, kitty.Version{Major: 0, Minor: 26})
	imp, err := exec.LookPath("import")
	if err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatal("the prompt's picture needs ImageMagick's import (KITTYMUX_E2E=require)")
		}
		t.Skip("the prompt's picture needs ImageMagick's import; KITTYMUX_E2E=require makes this fatal")
	}
	out := os.Getenv("KITTYMUX_PROMPT_PICTURE")
	if out == "" {
		out = filepath.Join(t.TempDir(), "prompt.png")
	}

	w := newWorld(t)
	// What the journal knew of the claude conversation when kitty stopped.
	j := journal.New(paths.Paths{StateDir: w.state}.Journal(), false)
	if _, err := j.Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: "1", Agent: "claude", ID: uuid, LastSeen: time.Now().Add(-12 * time.Minute),
			RunsFinished: 7, WorkingSeconds: (80 * time.Minute).Seconds(), TabTitle: "api work"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	api := filepath.Join(w.home, "code", "api")
	web := filepath.Join(w.home, "code", "web")
	docs := filepath.Join(w.home, "docs")
	for _, d := range []string{api, web, docs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	launch := func(dir string, record []string) string {
		return "launch --cwd=" + dir + " " + agents.Quote(append([]string{w.bin}, w.seal(record)...))
	}
	g := "8a7b6c5d-1111-4222-8333-944455556666"
	// claude's window has the focus, so its tab is in front.
	lines := []string{
		"new_tab",
		launch(docs, []string{"--agent", "gemini", "--mode", "exact", "--id", g, "--tab", "docs", "--", "gemini", "--resume", g}),
		"new_tab",
		"layout horizontal",
		launch(api, claudeRecord()),
		"focus",
		launch(web, []string{"--agent", "codex", "--mode", "exact", "--id", codex, "--tab", "api work", "--", "codex", "resume", codex}),
		"",
	}
	session := filepath.Join(w.dir, "restore.kitty-session")
	if err := os.WriteFile(session, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(w.env(), "NO_COLOR=", "TERM=xterm-kitty")
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Session: session, Env: env, Config: []string{
		"font_family DejaVu Sans Mono", "font_size 11", "initial_window_width 116c", "initial_window_height 8c",
		"window_padding_width 4", "tab_bar_style separator", "tab_bar_min_tabs 1", "cursor_blink_interval 0",
	}})
	ls := k.WaitFor(func(ls []kitty.OSWindow) bool {
		waiting := 0
		for _, r := range kitty.Windows(ls) {
			if strings.Contains(r.Window.Title, " ↻ ") {
				waiting++
			}
		}
		return waiting == 3
	}, 30*time.Second)
	for _, r := range kitty.Windows(ls) {
		if r.Tab.IsActive {
			k.WaitForText("id:"+strconv.Itoa(r.Window.ID), func(s string) bool { return strings.Contains(s, "i commands") }, 30*time.Second)
		}
	}
	time.Sleep(time.Second) // a frame or two drawn after the text arrived

	ctx := t.Context()
	raw, err := k.Client.LSRaw(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var oss []struct {
		PlatformWindowID int64 `json:"platform_window_id"`
	}
	if err := json.Unmarshal(raw, &oss); err != nil || len(oss) != 1 || oss[0].PlatformWindowID == 0 {
		t.Fatalf("no X window of kitty's in ls (%v):\n%s", err, raw)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(imp, "-display", k.Display, "-window", "0x"+strconv.FormatInt(oss[0].PlatformWindowID, 16),
		"-strip", "-colors", "64", "png8:"+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, b)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Size() == 0 {
		t.Fatalf("no picture at %s: %v", out, err)
	}
	t.Logf("wrote %s (%d bytes)", out, fi.Size())
}
