package kitty_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestLSNewKitty(t *testing.T) {
	f := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	ls, err := f.Client.LS(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	ws := kitty.Windows(ls)
	if len(ws) != 6 {
		t.Fatalf("got %d windows, want 6", len(ws))
	}
	w1 := ws[0].Window
	if diff := cmp.Diff([]string{"claude", "--model", "opus", "--dangerously-skip-permissions"}, w1.ForegroundProcesses[0].Cmdline); diff != "" {
		t.Errorf("window 1 foreground (-want +got):\n%s", diff)
	}
	if w1.Cwd != "/home/u/code/api" || w1.AtPrompt == nil || *w1.AtPrompt || w1.CreatedAt != 1795961030878512025 {
		t.Errorf("window 1 fields: cwd %q at_prompt %v created_at %d", w1.Cwd, w1.AtPrompt, w1.CreatedAt)
	}
	if got := ws[2].Window.UserVars["project"]; got != "web" {
		t.Errorf("window 3 user var project = %q, want web", got)
	}
	if ws[5].Window.LastReportedCmdline != `opencode -m anthropic/claude "fix the tests"` {
		t.Errorf("window 6 last_reported_cmdline = %q", ws[5].Window.LastReportedCmdline)
	}
	var active []int
	for _, w := range ws {
		if w.Window.IsActive {
			active = append(active, w.Window.ID)
		}
	}
	if diff := cmp.Diff([]int{3, 6}, active); diff != "" {
		t.Errorf("active windows (-want +got):\n%s", diff)
	}
	if !ls[0].Tabs[1].IsActive || ls[0].Tabs[0].IsActive {
		t.Errorf("tab is_active: %v %v", ls[0].Tabs[0].IsActive, ls[0].Tabs[1].IsActive)
	}
	if ls[0].Tabs[1].Title != "review" || ws[1].Window.Title != "codex pane" {
		t.Errorf("titles: %q %q", ls[0].Tabs[1].Title, ws[1].Window.Title)
	}
	reqs := f.Requests()
	if len(reqs) != 1 || reqs[0].Cmd != "ls" || !cmp.Equal(reqs[0].Version, []int{0, 26, 0}) {
		t.Errorf("requests: %+v", reqs)
	}
}

func TestLSOldKitty(t *testing.T) {
	f := kittytest.StartFake(t, kittytest.FakeOptions{
		LS: kittytest.Fixture(t, "0.26.5-ls.json"), Version: kitty.Version{Major: 0, Minor: 26, Patch: 5},
	})
	ls, err := f.Client.LS(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	ws := kitty.Windows(ls)
	if len(ws) != 3 {
		t.Fatalf("got %d windows, want 3", len(ws))
	}
	// 0.26.5 names them is_active_tab / is_active_window.
	if ls[0].Tabs[0].IsActive || !ls[0].Tabs[1].IsActive {
		t.Errorf("tab activity not read from is_active_tab")
	}
	if ws[0].Window.IsActive || !ws[1].Window.IsActive || !ws[2].Window.IsActive {
		t.Errorf("window activity not read from is_active_window")
	}
	w := ws[1].Window
	if w.UserVars != nil || w.AtPrompt != nil || w.CreatedAt != 0 || w.SessionName != "" {
		t.Errorf("fields 0.26.5 does not have are set: %+v", w)
	}
	if diff := cmp.Diff([]string{"/home/u/.local/bin/claude", "--model", "opus"}, w.ForegroundProcesses[0].Cmdline); diff != "" {
		t.Error(diff)
	}
}

func TestFraming(t *testing.T) {
	f := kittytest.StartFake(t, kittytest.FakeOptions{})
	// kitty may send its reply in pieces; the client reads to the terminator.
	f.Hook(func(r kittytest.Request) ([]byte, bool) {
		return []byte("\x1bP@kitty-cmd{\"ok\": true, \"data\": \"a\\u001b\"}\x1b\\"), true
	})
	data, err := f.Client.Do(ctx(t), "get-text", map[string]any{"match": "id:1"}, false)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil || s != "a\x1b" {
		t.Errorf("data %q (%v)", data, err)
	}
	// no_response: nothing is read back.
	f.Hook(nil)
	if _, err := f.Client.Do(ctx(t), "send-text", map[string]any{"match": "id:1", "data": "text:x"}, true); err != nil {
		t.Fatal(err)
	}
}

func TestCommands(t *testing.T) {
	f := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	c := ctx(t)
	if err := f.Client.SetUserVars(c, "id:5", []string{"kittymux_agent=claude"}); err != nil {
		t.Fatal(err)
	}
	id, err := f.Client.Launch(c, kitty.LaunchOptions{Args: []string{"claude"}, Cwd: "/tmp", Type: "tab", Vars: []string{"a=b"}})
	if err != nil || id != 42 {
		t.Fatalf("launch: %d %v", id, err)
	}
	if err := f.Client.SendText(c, "id:1", "hi\r"); err != nil {
		t.Fatal(err)
	}
	if err := f.Client.CloseWindow(c, "id:1"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Client.GetText(c, "id:1", ""); err != nil {
		t.Fatal(err)
	}
	if err := f.Client.Action(c, "next_tab"); err != nil {
		t.Fatal(err)
	}
	ls, err := f.Client.LS(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := kitty.Windows(ls)[4].Window.UserVars["kittymux_agent"]; got != "claude" {
		t.Errorf("user var after set-user-vars = %q", got)
	}
	var got []string
	for _, r := range f.Requests() {
		b, _ := json.Marshal(r.Payload)
		got = append(got, r.Cmd+" "+string(b))
	}
	want := []string{
		`set-user-vars {"match":"id:5","var":["kittymux_agent=claude"]}`,
		`launch {"args":["claude"],"cwd":"/tmp","type":"tab","var":["a=b"]}`,
		`send-text {"data":"text:hi\r","match":"id:1"}`,
		`close-window {"match":"id:1"}`,
		`get-text {"extent":"screen","match":"id:1"}`,
		`action {"action":"next_tab"}`,
		`ls {}`,
	}
	// send-text is sent without waiting for a reply (kitty sends none), so
	// the fake may record it after the next request: compare as sets.
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	dir := kittytest.ShortTempDir(t)

	t.Run("no socket", func(t *testing.T) {
		c := kitty.NewClient(kitty.Address{Path: filepath.Join(dir, "none")})
		_, err := c.LS(ctx(t))
		if !errors.Is(err, kitty.ErrNoSocket) {
			t.Fatalf("err = %v, want ErrNoSocket", err)
		}
		c = kitty.NewClient(kitty.Address{Path: "@kittymux-test-none-" + filepath.Base(dir)})
		if _, err := c.LS(ctx(t)); !errors.Is(err, kitty.ErrNoSocket) {
			t.Fatalf("abstract: err = %v, want ErrNoSocket", err)
		}
	})
	t.Run("stale socket refused", func(t *testing.T) {
		p := filepath.Join(dir, "stale")
		ln, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		ln.(*net.UnixListener).SetUnlinkOnClose(false)
		ln.Close()
		_, err = kitty.NewClient(kitty.Address{Path: p}).LS(ctx(t))
		if !errors.Is(err, kitty.ErrRefused) {
			t.Fatalf("err = %v, want ErrRefused", err)
		}
	})
	t.Run("remote control disabled", func(t *testing.T) {
		f := kittytest.StartFake(t, kittytest.FakeOptions{})
		f.Hook(func(kittytest.Request) ([]byte, bool) {
			return []byte("\x1bP@kitty-cmd{\"ok\": false, \"error\": \"Remote control is disabled\"}\x1b\\"), true
		})
		_, err := f.Client.LS(ctx(t))
		var ce *kitty.CommandError
		if !errors.Is(err, kitty.ErrRefused) || !errors.As(err, &ce) || ce.Message != "Remote control is disabled" {
			t.Fatalf("err = %v, want ErrRefused and a CommandError", err)
		}
	})
	t.Run("closed without reply", func(t *testing.T) {
		f := kittytest.StartFake(t, kittytest.FakeOptions{})
		f.Hook(func(kittytest.Request) ([]byte, bool) { return nil, true })
		if _, err := f.Client.LS(ctx(t)); !errors.Is(err, kitty.ErrRefused) {
			t.Fatalf("err = %v, want ErrRefused", err)
		}
	})
	t.Run("ok false", func(t *testing.T) {
		f := kittytest.StartFake(t, kittytest.FakeOptions{Version: kitty.Version{Major: 0, Minor: 26, Patch: 5}})
		err := f.Client.Action(ctx(t), "save_as_session --save-only /tmp/x")
		var ce *kitty.CommandError
		if !errors.As(err, &ce) || ce.Cmd != "action" || !strings.Contains(ce.Message, "action") {
			t.Fatalf("err = %v, want CommandError for action", err)
		}
		if errors.Is(err, kitty.ErrRefused) {
			t.Errorf("an ordinary ok:false counts as refused")
		}
	})
	for name, raw := range map[string]string{
		"not framed":     "HTTP/1.1 400 Bad Request\r\n\r\n",
		"not json":       "\x1bP@kitty-cmd{oops\x1b\\",
		"no ok field":    "\x1bP@kitty-cmd{\"data\": 1}\x1b\\",
		"cut short":      "\x1bP@kitty-cmd{\"ok\": true, \"da",
		"ls not string":  "\x1bP@kitty-cmd{\"ok\": true, \"data\": []}\x1b\\",
		"ls inner wrong": "\x1bP@kitty-cmd{\"ok\": true, \"data\": \"{\\\"a\\\": 1}\"}\x1b\\",
	} {
		t.Run("bad reply "+name, func(t *testing.T) {
			f := kittytest.StartFake(t, kittytest.FakeOptions{})
			f.Hook(func(kittytest.Request) ([]byte, bool) { return []byte(raw), true })
			if _, err := f.Client.LS(ctx(t)); !errors.Is(err, kitty.ErrBadReply) {
				t.Fatalf("err = %v, want ErrBadReply", err)
			}
		})
	}
	t.Run("deadline", func(t *testing.T) {
		f := kittytest.StartFake(t, kittytest.FakeOptions{})
		release := make(chan struct{})
		defer close(release)
		f.Hook(func(kittytest.Request) ([]byte, bool) { <-release; return nil, true })
		c, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := f.Client.LS(c)
		if !errors.Is(err, kitty.ErrTimeout) {
			t.Fatalf("err = %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("deadline not kept: returned after %v", d)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		f := kittytest.StartFake(t, kittytest.FakeOptions{})
		release := make(chan struct{})
		defer close(release)
		f.Hook(func(kittytest.Request) ([]byte, bool) { <-release; return nil, true })
		c, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := f.Client.LS(c); !errors.Is(err, kitty.ErrTimeout) {
			t.Fatalf("err = %v, want ErrTimeout", err)
		}
	})
}

func TestParseAddress(t *testing.T) {
	for in, want := range map[string]string{"unix:/tmp/k-1": "/tmp/k-1", "unix:@kitty": "@kitty"} {
		a, err := kitty.ParseAddress(in)
		if err != nil || a.Path != want || a.String() != in {
			t.Errorf("ParseAddress(%q) = %+v, %v", in, a, err)
		}
	}
	for _, in := range []string{"tcp:localhost:1234", "/tmp/k", "unix:", "unix:@", ""} {
		if _, err := kitty.ParseAddress(in); err == nil {
			t.Errorf("ParseAddress(%q) gave no error", in)
		}
	}
}
