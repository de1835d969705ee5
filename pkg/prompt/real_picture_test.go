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

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
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
		return "launch --cwd=" + dir + " " + recognize.Quote(append([]string{w.bin}, w.seal(record)...))
	}
	ago := func(d time.Duration) string { return strconv.FormatInt(time.Now().Add(-d).Unix(), 10) }
	g := "8a7b6c5d-1111-4222-8333-944455556666"
	// Two codex conversations in web, either of which its window could
	// have held (codex's shared daemon ties none to it): it asks which.
	for i, c := range []struct{ id, said string }{
		{"019ad1c2-3b4a-7c5d-8e6f-0a1b2c3d4e5f", "fix the flaky upload test in web/api/upload_test.go"},
		{"019ad1c2-9f8e-7d6c-8b5a-493827161504", "add dark mode to the settings page"},
	} {
		rollout(t, w.home, web, c.id, c.said, time.Now().Add(-time.Duration(4+20*i)*time.Minute))
	}
	// claude's window has the focus, so its tab is in front.
	lines := []string{
		"new_tab",
		launch(docs, []string{"--agent", "gemini", "--mode", "exact", "--id", g, "--tab", "docs", "--dir", docs, "--", "gemini", "--resume", g}),
		"new_tab",
		"layout horizontal",
		launch(api, claudeRecord("--dir", api)),
		"focus",
		launch(web, []string{"--agent", "codex", "--mode", "choose", "--tab", "api work", "--dir", web,
			"--since", ago(41 * time.Minute), "--seen", ago(2 * time.Minute), "--", "codex"}),
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
			k.WaitForText("id:"+strconv.Itoa(r.Window.ID), func(s string) bool {
				return strings.Contains(s, "i commands") || strings.Contains(s, "new conversation")
			}, 30*time.Second)
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

// rollout writes a codex rollout file as codex 0.171.0 does: its
// session_meta line and the user's message.
func rollout(t *testing.T, home, dir, id, said string, at time.Time) {
	t.Helper()
	p := filepath.Join(home, ".codex", "sessions", at.Format("2006/01/02"), "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	meta, _ := json.Marshal(map[string]any{"type": "session_meta", "payload": map[string]any{"id": id, "cwd": dir}})
	msg, _ := json.Marshal(map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": "user",
		"content": []any{map[string]any{"type": "input_text", "text": said}}}})
	if err := os.WriteFile(p, []byte(string(meta)+"\n"+string(msg)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}
