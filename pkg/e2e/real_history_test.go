//go:build linux

package e2e_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/sessions/saves"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// hostileTail is what any program can print into a window: a title (OSC
// 2), a clipboard write (OSC 52), a user var naming an agent (OSC 1337
// SetUserVar), a kitty remote-control command (DCS @kitty-cmd) and a
// directory report with line breaks in it (OSC 7). Each is followed by a
// word that must show.
func hostileTail() string {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return "\x1b]2;owned-title\x07after-title\n" +
		"\x1b]52;c;" + b64("owned-clipboard") + "\x07after-clipboard\n" +
		"\x1b]1337;SetUserVar=kittymux_agent=" + b64("claude") + "\x07\x1b]1337;SetUserVar=owned=" + b64("1") + "\x07after-var\n" +
		"\x1bP@kitty-cmd" + `{"cmd":"set-user-vars","version":[0,26,0],"no_response":true,"payload":{"var":["dcs_owned=1"]}}` + "\x1b\\after-dcs\n" +
		"\x1b]7;file://localhost/tmp\nlaunch /bin/sh\n\x1b\\after-cwd\n"
}

// TestRealScreenHistory on kitty 0.48.2: a plain shell window shows 3,000
// coloured lines and hostile escape sequences. A save with the setting off
// keeps nothing; with KITTYMUX_SCREEN_HISTORY=1 it keeps the window's text,
// bounded, with only SGR escapes in it. The kitty is stopped and the save
// opened in a new kitty (which would obey in-window remote control): the
// window shows the last lines with their colours and the footer, then its
// prompt; the hostile sequences, added to the kept file as if kitty had
// kept them, act on nothing (title, user vars, directory) and a save of the
// new kitty holds what the first did.
func TestRealScreenHistory(t *testing.T) {
	t.Parallel()
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	dir := t.TempDir()
	k1 := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin})
	win := k1.LaunchWith(kitty.LaunchOptions{Cwd: dir})
	window := func(ls []kitty.OSWindow, id int) *kitty.Window {
		for _, r := range kitty.Windows(ls) {
			if r.Window.ID == id {
				return r.Window
			}
		}
		return nil
	}
	ls := k1.WaitFor(func(ls []kitty.OSWindow) bool { w := window(ls, win); return w != nil && atPrompt(w) }, 30*time.Second)
	var lines strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&lines, "\x1b[3%dmhistory-line %05d\x1b[m\n", 1+i%6, i)
	}
	writeTTY(t, window(ls, win).PID, lines.String())
	k1.WaitForText("id:"+strconv.Itoa(win), func(s string) bool { return strings.Contains(s, "history-line 02999") }, 30*time.Second)

	env := realEnv(t, k1)
	env["KITTYMUX_RESUME_BIN"] = resumeBin(t)
	env["KITTY_LISTEN_ON"] = k1.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k1.PID)
	p := testPaths(env)
	save := func(name string) shared.SaveResult {
		t.Helper()
		code, out, errOut := kittymux(t, env, "sessions", "save", name, "--all", "--json")
		if code != 0 {
			t.Fatalf("save %s: exit %d\n%s\n%s", name, code, out, errOut)
		}
		var r shared.SaveResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return r
	}
	launchOf := func(path string, id int) *sessionfile.Launch {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := sessionfile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range f.Windows() {
			if ref.Line.Launch.Unserialize != nil && ref.Line.Launch.Unserialize.ID() == id {
				return ref.Line.Launch
			}
		}
		t.Fatalf("window %d not in %s:\n%s", id, path, data)
		return nil
	}

	// Off by default: nothing kept.
	off := save("off")
	if _, err := os.Lstat(published.HistoryDir(p, "off")); err == nil || len(off.ScreenHistory) != 0 {
		t.Errorf("a save with screen history off kept some: %v, %+v", err, off)
	}
	if c := launchOf(off.Path, win).Unserialize.CmdAtShellStartup; c.Set {
		t.Errorf("a save with screen history off gives the shell a command: %+v", c)
	}

	env["KITTYMUX_SCREEN_HISTORY"] = "1"
	on := save("work")
	if !slices.Contains(on.ScreenHistory, win) {
		t.Errorf("save work kept screen history for %v, not for the window %d", on.ScreenHistory, win)
	}
	c := launchOf(on.Path, win).Unserialize.CmdAtShellStartup
	if !c.Set || !c.IsList || len(c.List) != 3 || c.List[1] != "--show-history" {
		t.Fatalf("the plain window's launch line runs %+v, want kittymux-resume --show-history FILE", c)
	}
	histFile := c.List[2]
	fi, err := os.Lstat(histFile)
	if err != nil || fi.Mode().Perm() != 0o600 || filepath.Dir(histFile) != published.HistoryDir(p, "work") {
		t.Fatalf("history file %s: %v %v", histFile, fi, err)
	}
	kept, err := os.ReadFile(histFile)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(kept); !strings.Contains(s, "history-line 02999") || strings.Contains(s, "history-line 00500") ||
		!strings.Contains(s, "\x1b[") || strings.Count(s, "\n") > 2000 {
		t.Errorf("the kept file does not hold the last 2,000 lines with colours (%d lines)", strings.Count(s, "\n"))
	}
	code, out, errOut := kittymux(t, env, "sessions", "saves", "--json")
	var saves struct{ Saves []saves.SavedSession }
	if err := json.Unmarshal([]byte(out), &saves); code != 0 || err != nil {
		t.Fatalf("saves: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	for _, s := range saves.Saves {
		if want := map[string]int{"off": 0, "work": len(on.ScreenHistory)}[s.Name]; s.ScreenHistory != want || s.Agents != 0 {
			t.Errorf("sessions saves: %s has %d windows with screen history and %d agents, want %d and 0", s.Name, s.ScreenHistory, s.Agents, want)
		}
	}
	if err := onlySGR(kept); err != nil {
		t.Errorf("the kept file: %v", err)
	}
	// As if kitty had handed these over too: the restore filters them.
	if err := os.WriteFile(histFile, append(kept, "\n"+hostileTail()...), 0o600); err != nil {
		t.Fatal(err)
	}
	k1.Stop()

	k2 := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Session: on.Path, Config: []string{"allow_remote_control yes"}})
	var w2 int
	k2.WaitFor(func(ls []kitty.OSWindow) bool {
		for _, r := range kitty.Windows(ls) {
			if r.Window.Cwd == dir {
				w2 = r.Window.ID
			}
		}
		return w2 != 0
	}, 30*time.Second)
	m := "id:" + strconv.Itoa(w2)
	screen := k2.WaitForText(m, func(s string) bool { return strings.Contains(s, "restored by kittymux") }, 30*time.Second)
	for _, word := range []string{"history-line 02999", "after-title", "after-clipboard", "after-var", "after-dcs", "after-cwd", "— screen history from "} {
		if !strings.Contains(screen, word) {
			t.Errorf("the restored window does not show %q:\n%s", word, screen)
		}
	}
	ls2 := k2.WaitFor(func(ls []kitty.OSWindow) bool { w := window(ls, w2); return w != nil && atPrompt(w) }, 30*time.Second)
	all, err := k2.Client.GetANSIText(t.Context(), m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(all, "history-line 01500") || !colouredLine(all, "history-line 02999") {
		t.Errorf("the restored window lacks the kept lines or their colours")
	}
	w := window(ls2, w2)
	if strings.Contains(w.Title, "owned") || w.UserVars["owned"] != "" || w.UserVars["dcs_owned"] != "" || w.UserVars["kittymux_agent"] != "" || w.Cwd != dir {
		t.Errorf("a replayed sequence acted on the restored window: title %q, user vars %v, cwd %q", w.Title, w.UserVars, w.Cwd)
	}

	// A save of the new kitty holds the window as the first save did.
	env["KITTY_LISTEN_ON"] = k2.Addr.String()
	env["KITTY_PID"] = strconv.Itoa(k2.PID)
	again := save("again")
	l := launchOf(again.Path, w2)
	if v, _ := l.Option("--cwd"); v != dir || len(l.Vars()) != 0 || len(l.Argv) != 0 {
		t.Errorf("the later save changed: cwd %q, vars %v, argv %q", v, l.Vars(), l.Argv)
	}
	if c := l.Unserialize.CmdAtShellStartup; !c.Set || c.List[1] != "--show-history" || !slices.Contains(again.ScreenHistory, w2) {
		t.Errorf("the later save does not keep the restored window's history: %+v %v", c, again.ScreenHistory)
	}

	// Removing a save removes its history.
	if code, out, errOut := kittymux(t, env, "sessions", "rm", "work"); code != 0 {
		t.Fatalf("rm work: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Lstat(published.HistoryDir(p, "work")); err == nil {
		t.Errorf("rm work left %s", published.HistoryDir(p, "work"))
	}
}

// colouredLine: the line of text holding word starts with an SGR sequence.
func colouredLine(text, word string) bool {
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, word); i > 0 && strings.Contains(line[:i], "\x1b[") {
			return true
		}
	}
	return false
}

// onlySGR reports an escape sequence in b other than SGR, or a control
// character but newline and tab.
func onlySGR(b []byte) error {
	s := string(b)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0x1b:
			j := i + 1
			if j < len(s) && s[j] == '[' {
				j++
				for j < len(s) && strings.IndexByte("0123456789;:", s[j]) >= 0 {
					j++
				}
				if j < len(s) && s[j] == 'm' {
					i = j
					continue
				}
			}
			return fmt.Errorf("an escape sequence other than SGR at %d: %q", i, s[i:min(i+20, len(s))])
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
			return fmt.Errorf("control %#x at %d", c, i)
		}
	}
	return nil
}
