package rewrite_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

func fixtureLS(t *testing.T) []kitty.OSWindow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kitty", "0.48.2", "ls.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ls []kitty.OSWindow
	if err := json.Unmarshal(data, &ls); err != nil {
		t.Fatal(err)
	}
	return ls
}

// TestVetKeepsKittysOwn: a save as kitty 0.48.2 writes it passes untouched,
// with and without the ls it was taken with.
func TestVetKeepsKittysOwn(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kitty", "0.48.2", "save_as_session-use-foreground-process.kitty-session"))
	if err != nil {
		t.Fatal(err)
	}
	for name, ls := range map[string][]kitty.OSWindow{"with ls": fixtureLS(t), "without ls": nil} {
		got, warnings := rewrite.Vet(raw, ls)
		if string(got) != string(raw) || len(warnings) > 0 {
			t.Errorf("%s: changed %v:\n%s", name, warnings, got)
		}
	}
}

// tab is tab 1 of testLS as kitty writes it (its windows 1, 2 and 3, 3
// an overlay over 2), with the text the test gives after `cd`.
func tab(cdRest string, launches ...string) string {
	return "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" +
		`set_layout_state {"pairs": {}, "all_windows": {"window_groups": [{"id": 1, "window_ids": [1]}, {"id": 2, "window_ids": [2, 3]}]}}` +
		"\ncd " + cdRest + "\n\n" + strings.Join(launches, "\n") + "\nfocus\n"
}

// tab2 is testLS's second tab, "web" (windows 4 and 5).
func tab2(cdRest string, launches ...string) string {
	return "\nnew_tab web\nlayout tall\nenabled_layouts tall\n" +
		`set_layout_state {"all_windows": {"window_groups": [{"id": 4, "window_ids": [4]}, {"id": 5, "window_ids": [5]}]}}` +
		"\ncd " + cdRest + "\n\n" + strings.Join(launches, "\n") + "\nfocus\n"
}

const (
	win1 = `launch 'kitty-unserialize-data={"id": 1}'`
	win2 = `launch 'kitty-unserialize-data={"id": 2}'`
	win4 = `launch 'kitty-unserialize-data={"id": 4}'`
	win5 = `launch 'kitty-unserialize-data={"id": 5}'`
)

// testLS is what kitty listed for tab and tab2: every window a shell in
// /home/u (tab 2 in /srv/web), window 3 an overlay (kitty's "read the
// clipboard?" question, say) over window 2; change edits it.
func testLS(change func(ws map[int]*kitty.Window)) []kitty.OSWindow {
	shell := func(id int, cwd string) kitty.Window {
		return kitty.Window{ID: id, Cwd: cwd, Cmdline: []string{"/bin/bash"}, PID: 100 + id}
	}
	ls := []kitty.OSWindow{{ID: 1, WMClass: "kitty", WMName: "kitty", Tabs: []kitty.Tab{
		{ID: 1, Layout: "splits", EnabledLayouts: []string{"splits", "tall"},
			LayoutState: json.RawMessage(`{"pairs": {}, "all_windows": {"window_groups": [{"id": 1, "window_ids": [1]}, {"id": 2, "window_ids": [2, 3]}]}}`),
			Groups:      []kitty.Group{{ID: 1, Windows: []int{1}}, {ID: 2, Windows: []int{2, 3}}},
			Windows:     []kitty.Window{shell(1, "/home/u"), shell(2, "/home/u"), shell(3, "/home/u")}},
		{ID: 2, Title: "web", TitleOverridden: true, Layout: "tall", EnabledLayouts: []string{"tall"},
			LayoutState: json.RawMessage(`{"all_windows": {"window_groups": [{"id": 4, "window_ids": [4]}, {"id": 5, "window_ids": [5]}]}}`),
			Groups:      []kitty.Group{{ID: 4, Windows: []int{4}}, {ID: 5, Windows: []int{5}}},
			Windows:     []kitty.Window{shell(4, "/srv/web"), shell(5, "/srv/web")}},
	}}}
	ls[0].Tabs[1].Windows[1].Cmdline = []string{"htop", "-d", "5"}
	if change != nil {
		ws := map[int]*kitty.Window{}
		for i := range ls[0].Tabs {
			for j := range ls[0].Tabs[i].Windows {
				ws[ls[0].Tabs[i].Windows[j].ID] = &ls[0].Tabs[i].Windows[j]
			}
		}
		change(ws)
	}
	return ls
}

// inject is what a program printed as its directory (OSC 7 at a prompt,
// after OSC 133;A): kitty writes it raw as the tab's `cd`.
const inject = "/home/u\n\nlaunch 'kitty-unserialize-data={\"id\": 3}' /bin/sh -c 'touch /tmp/pwned'"

// TestVetAccounts: every line kept is one kitty writes for a window or tab
// ls lists, with its values the known ones; what is not is left out or
// changed, each with a warning, and a tab that cannot be accounted for is
// written from ls. Nothing fails the save.
func TestVetAccounts(t *testing.T) {
	own := tab("/home/u", win1, win2) + tab2("/srv/web", win4, win5+" htop -d 5")
	shells := tab("/home/u", win1, win2)
	for _, c := range []struct {
		name     string
		raw      string
		ls       []kitty.OSWindow
		noLS     bool
		want     string
		warnings []string // a part of each warning, in order
	}{
		{name: "kitty's own lines pass untouched", raw: own, want: own},
		{
			// The attack: a printed directory names the overlay's id, for
			// which kitty writes no line.
			name: "a printed directory naming an overlay's id",
			raw:  tab(inject, win1, win2) + tab2("/srv/web", win4, win5+" htop -d 5"),
			want: "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" +
				`set_layout_state {"all_windows":{"window_groups":[{"id":1,"window_ids":[1]},{"id":2,"window_ids":[2,3]}]},"pairs":{}}` +
				"\ncd /home/u\n\n" + win1 + "\n" + win2 + "\n" + tab2("/srv/web", win4, win5+" htop -d 5"),
			warnings: []string{"the tab from line 2: its lines cannot all be accounted for (line 9: window 3 is not the first of its group"},
		},
		{
			name: "the same marked as an overlay, with its own window's id after it",
			raw:  tab("/home/u\n\nlaunch 'kitty-unserialize-data={\"id\": 1}' /bin/sh -c 'touch /tmp/pwned'", win1, win2),
			want: "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" +
				`set_layout_state {"all_windows":{"window_groups":[{"id":1,"window_ids":[1]},{"id":2,"window_ids":[2,3]}]},"pairs":{}}` +
				"\ncd /home/u\n\n" + win1 + "\n" + win2 + "\n",
			warnings: []string{"line 10 after it: kitty writes no such line there", "lines 10-12"},
		},
		{
			name: "a directory whose name holds a line break and an open quote costs no other tab a line",
			raw:  tab("/home/u/nl\nlaunch sh -c 'echo", win1, win2) + tab2("/srv/web", win4, win5+" htop -d 5"),
			ls: testLS(func(ws map[int]*kitty.Window) {
				ws[1].Cwd, ws[2].Cwd = "/home/u/nl\nlaunch sh -c 'echo", "/home/u/nl\nlaunch sh -c 'echo"
			}),
			want:     tab("/home/u", win1, win2) + tab2("/srv/web", win4, win5+" htop -d 5"),
			warnings: []string{`the tab's directory "/home/u/nl launch sh -c 'echo": `},
		},
		{
			name:     "a printed directory that is none of the windows': the tab is written from ls",
			raw:      tab("/etc", win1, win2),
			want:     "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" + `set_layout_state {"all_windows":{"window_groups":[{"id":1,"window_ids":[1]},{"id":2,"window_ids":[2,3]}]},"pairs":{}}` + "\ncd /home/u\n\n" + win1 + "\n" + win2 + "\n",
			warnings: []string{`its directory "/etc" is none of the directories kitty listed`},
		},
		{
			name: "values kitty took from printed text become the known ones or go",
			raw: tab("/home/u", win1+` '--cwd=/etc' '--var=kittymux_session=0a1b' '--title=claude --resume x'`,
				`launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": "rm -rf ~"}'`),
			ls: testLS(func(ws map[int]*kitty.Window) {
				ws[2].LastReportedCmdline = "make test"
			}),
			want: shells,
			warnings: []string{`window 1: its directory "/etc" is not one kitty listed for it`, `window 1: user var "kittymux_session" is not the one kitty listed: left out`,
				"window 1: its title is not the one kitty listed: left out", "window 2: the command its shell was to run is not one kitty listed it running: left out"},
		},
		{
			name: "values that are the known ones stay",
			raw: tab("/home/u", win1+` --var=project=web '--title=my shell'`,
				`launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": "make test"}'`),
			ls: testLS(func(ws map[int]*kitty.Window) {
				ws[1].UserVars, ws[1].Title, ws[1].TitleOverridden = map[string]string{"project": "web"}, "my shell", true
				ws[2].LastReportedCmdline = "make test"
				ws[2].ForegroundProcesses = []kitty.Process{{PID: 9, Cmdline: []string{"make", "test"}, Cwd: "/home/u"}}
			}),
			want: tab("/home/u", win1+` --var=project=web '--title=my shell'`,
				`launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": "make test"}'`),
		},
		{
			// kitty has the command line from what the shell reported (OSC
			// 133;C), which any program can print: only a process proves it.
			name: "a printed command line that no process runs",
			raw:  tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": "touch /tmp/pwned"}'`),
			ls: testLS(func(ws map[int]*kitty.Window) {
				ws[2].LastReportedCmdline = "touch /tmp/pwned"
				ws[2].ForegroundProcesses = []kitty.Process{{PID: 9, Cmdline: []string{"sleep", "100"}, Cwd: "/home/u"}}
			}),
			want:     shells,
			warnings: []string{"window 2: the command its shell was to run is not one kitty listed it running: left out"},
		},
		{
			name: "a foreground command kitty read from /proc, argv[0] made absolute",
			raw:  tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["/usr/bin/top", "-d", "1"]}'`),
			ls: testLS(func(ws map[int]*kitty.Window) {
				ws[2].ForegroundProcesses = []kitty.Process{{PID: 9, Cmdline: []string{"top", "-d", "1"}, Cwd: "/home/u"}}
			}),
			want: tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["/usr/bin/top", "-d", "1"]}'`),
		},
		{
			name:     "a command that is not the window's: a shell",
			raw:      tab2("/srv/web", win4, win5+" sh -c 'touch /tmp/pwned'"),
			want:     tab2("/srv/web", win4, win5),
			warnings: []string{`window 5: its command "sh -c touch /tmp/pwned" is not the one kitty listed it running: written as a shell`},
		},
		{
			name:     "an option kitty does not write: the tab is written from ls",
			raw:      tab("/home/u", win1+" --copy-env", win2),
			want:     "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" + `set_layout_state {"all_windows":{"window_groups":[{"id":1,"window_ids":[1]},{"id":2,"window_ids":[2,3]}]},"pairs":{}}` + "\ncd /home/u\n\n" + win1 + "\n" + win2 + "\n",
			warnings: []string{"window 1: kitty writes no option --copy-env"},
		},
		{
			name:     "a window kitty did not list",
			raw:      tab("/home/u", win1, win2, `launch 'kitty-unserialize-data={"id": 77}'`),
			want:     "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" + `set_layout_state {"all_windows":{"window_groups":[{"id":1,"window_ids":[1]},{"id":2,"window_ids":[2,3]}]},"pairs":{}}` + "\ncd /home/u\n\n" + win1 + "\n" + win2 + "\n",
			warnings: []string{"window 77 is not a window of the tab"},
		},
		{
			name:     "an overlay kitty wrote is left out",
			raw:      tab("/home/u", win1, win2, `launch 'kitty-unserialize-data={"id": 3}' --type=overlay htop`),
			want:     shells,
			warnings: []string{"window 3 is an overlay over another window: kittymux restores none"},
		},
		{
			name:     "a user var holding a line break is left out, the line kept",
			raw:      tab("/home/u", win1, win2+` '--var=x=a`, `launch sh'`),
			ls:       testLS(func(ws map[int]*kitty.Window) { ws[2].UserVars = map[string]string{"x": "a\nlaunch sh"} }),
			want:     shells,
			warnings: []string{`window 2: user var "x" holds a line break: left out`},
		},
		{
			name:     "$VAR in --cwd, which kitty expands",
			raw:      tab("/home/u", win1, win2+` '--cwd=/srv/$X/y'`),
			ls:       testLS(func(ws map[int]*kitty.Window) { ws[2].Cwd = "/srv/$X/y" }),
			want:     tab("/home/u", win1, win2+` '--cwd=/srv'`),
			warnings: []string{"holds a '$'"},
		},
		{
			name:     "a blank at the end of the directory, which kitty strips",
			raw:      tab("/home/u/code/api ", win1, win2),
			ls:       testLS(func(ws map[int]*kitty.Window) { ws[1].Cwd, ws[2].Cwd = "/home/u/code/api ", "/home/u/code/api " }),
			want:     tab("/home/u/code", win1, win2),
			warnings: []string{"ends in a blank"},
		},
		{
			name:     "directives kitty does not write, and comments",
			raw:      tab("/home/u", win1, "title evil", win2) + "\n# a note\ncd /tmp\n" + tab2("/srv/web", win4),
			want:     "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" + `set_layout_state {"all_windows":{"window_groups":[{"id":1,"window_ids":[1]},{"id":2,"window_ids":[2,3]}]},"pairs":{}}` + "\ncd /home/u\n\n" + win1 + "\n" + win2 + "\n" + tab2("/srv/web", win4),
			warnings: []string{`kitty writes no such line in a tab: "title evil"`},
		},
		{
			name:     "without ls: the structure is checked, the injected line goes",
			raw:      tab(inject, win1, win2),
			noLS:     true,
			want:     strings.TrimSuffix(tab("/home/u", win1, win2), "focus\n"),
			warnings: []string{"window 3 is not the first of its group"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			use := c.ls
			if use == nil && !c.noLS {
				use = testLS(nil)
			}
			got, warnings := rewrite.Vet([]byte(c.raw), use)
			if diff := cmp.Diff(dropBlank(c.want), dropBlank(string(got))); diff != "" {
				t.Errorf("vetted (-want +got):\n%s", diff)
			}
			if len(warnings) != len(c.warnings) {
				t.Fatalf("warnings:\n%s\nwant %d", strings.Join(warnings, "\n"), len(c.warnings))
			}
			for i, w := range c.warnings {
				if !strings.Contains(warnings[i], w) {
					t.Errorf("warning %d = %q, want it to hold %q", i, warnings[i], w)
				}
			}
			if strings.Contains(string(got), "pwned") || strings.Contains(string(got), "rm -rf") {
				t.Errorf("printed text reached the save:\n%s", got)
			}
		})
	}
}

// dropBlank is a save without its blank lines, which kitty ignores.
func dropBlank(s string) string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestRewriteHostileDirectory: through the whole rewrite, the injected line
// never reaches the published file, the save succeeds, and says why.
func TestRewriteHostileDirectory(t *testing.T) {
	raw := tab(inject, `launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "claude"}'`, win2)
	ls := testLS(func(ws map[int]*kitty.Window) { ws[1].LastReportedCmdline = "claude" })
	for name, ls := range map[string][]kitty.OSWindow{"with ls": ls, "without ls": nil} {
		res, err := rewrite.Rewrite([]byte(raw), rewrite.Options{Agents: shipped(t), ResumeBin: bin, Key: testKey, LS: ls})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(string(res.Data), "pwned") || len(res.Warnings) != 1 || res.Count != 2 {
			t.Errorf("%s: published %d windows, warnings %q:\n%s", name, res.Count, res.Warnings, res.Data)
		}
	}
}

// FuzzVet: whatever a raw save holds, and whatever the windows printed as
// their directory, Vet does not fail; what it keeps reads back as a
// session file, each launch line once per window, for a window ls lists
// and first in its group, and no command, directory or id in it comes
// from the printed text (the fuzzer's bytes never reach a launch line's
// command, a cd or a --cwd unless ls lists that directory).
func FuzzVet(f *testing.F) {
	f.Add([]byte(tab(inject, win1, win2)), "/home/u")
	f.Add([]byte(tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2}' '--var=x=a`, `b'`, win2)), "/home/u\n")
	f.Add([]byte("new_tab\ncd /\u2028\n\nlaunch 'kitty-unserialize-data={\"id\": 1}'\n"), "/")
	f.Add([]byte(tab("/home/u/nl\nlaunch sh -c 'echo", win1, win2)+tab2("/srv/web", win4)), "/home/u/nl\nlaunch sh -c 'echo")
	f.Fuzz(func(t *testing.T, raw []byte, dir string) {
		ls := testLS(func(ws map[int]*kitty.Window) { ws[1].Cwd = dir })
		known := map[string]bool{"/home/u": true, "/srv/web": true, sessionfile.SafeDir(dir): true, "/": true}
		for _, use := range [][]kitty.OSWindow{nil, ls} {
			out, _ := rewrite.Vet(raw, use)
			file, err := sessionfile.Parse(out)
			if err != nil {
				t.Fatalf("Vet kept what does not parse: %v\n%q", err, out)
			}
			seen := map[int]bool{}
			for _, w := range file.Windows() {
				l := w.Line.Launch
				if l.Unserialize == nil || seen[l.Unserialize.ID()] {
					t.Fatalf("Vet kept a launch line that is not kitty's: %q", w.Line.Raw)
				}
				seen[l.Unserialize.ID()] = true
				if use == nil {
					continue
				}
				id := l.Unserialize.ID()
				if id != 1 && id != 2 && id != 4 && id != 5 {
					t.Fatalf("Vet kept a line for window %d, not a first window ls lists: %q", id, w.Line.Raw)
				}
				if argv := l.Argv; len(argv) > 0 && strings.Join(argv, " ") != "/bin/bash" && strings.Join(argv, " ") != "htop -d 5" {
					t.Fatalf("a command not from ls: %q", w.Line.Raw)
				}
				if l.Unserialize.CmdAtShellStartup.Set {
					t.Fatalf("a command at shell start that ls never listed: %q", w.Line.Raw)
				}
				if cwd, ok := l.Option("--cwd"); ok && !known[cwd] {
					t.Fatalf("a directory ls did not list: %q", w.Line.Raw)
				}
			}
			if use != nil {
				for _, l := range file.Lines {
					if l.Directive == "cd" && !known[l.Rest] {
						t.Fatalf("a cd ls did not list: %q in\n%q", l.Raw, out)
					}
				}
			}
		}
	})
}

// TestVetDropsTheOffer: the overlay in which kittymux offers an ended
// kitty's session is left out of a save without a word: restored, it would
// offer that session again. kitty 0.48.2 loads the save without it (the
// tab's set_layout_state still naming its id). A window that only looks
// like it in the save, its process another, is written as kitty listed it.
func TestVetDropsTheOffer(t *testing.T) {
	offer := `launch 'kitty-unserialize-data={"id": 2}' --env=XDG_STATE_HOME=/home/u/.local/state /opt/km/kittymux sessions offer 20904`
	raw := tab("/home/u", win1, offer)
	ls := func(cmdline ...string) []kitty.OSWindow {
		return testLS(func(ws map[int]*kitty.Window) { ws[2].Cmdline = cmdline })
	}
	got, warnings := rewrite.Vet([]byte(raw), ls("/opt/km/kittymux", "sessions", "offer", "20904"))
	if want := tab("/home/u", win1); dropBlank(string(got)) != dropBlank(want) || len(warnings) > 0 {
		t.Errorf("with the offer running: %v\n%s\nwant\n%s", warnings, got, want)
	}
	got, warnings = rewrite.Vet([]byte(raw), ls("/usr/bin/vim", "notes"))
	want := tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2}' --env=XDG_STATE_HOME=/home/u/.local/state`)
	if dropBlank(string(got)) != dropBlank(want) || len(warnings) != 1 {
		t.Errorf("another program: %v\n%s", warnings, got)
	}
}

// TestRewriteQuitLauncher: at a quit, kitty saves a window whose shell ran
// `codex …` with the line the shell reported, while ls lists the process
// as its launcher runs it (`node …/bin/codex …`, and the native binary
// under it). The agent kitty listed stands in the line's place: the
// publish, with kitty and the agent gone, still resumes the conversation
// the journal's open record of that window holds, from the window's shell;
// with no record, the window asks first. A line that reads as another
// command (printed text) is said in a warning, and never runs.
func TestRewriteQuitLauncher(t *testing.T) {
	const (
		codexID  = "019b2c3d-4e5f-7a6b-8c7d-9e0f1a2b3c4d"
		kittyPID = 4242
		launcher = "/home/u/.npm/lib/node_modules/@openai/codex/bin/codex.js"
		native   = "/home/u/.npm/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
	)
	seen := journal.Record{Key: "k2", Agent: "codex", ID: codexID, IDFrom: journal.FromHook, Argv: []string{"node", launcher, "--no-daemon", "fix the bug"},
		Exe: []string{"/usr/bin/node", launcher}, WindowID: 2, PID: 300, Start: "boot/700", KittyPID: kittyPID, Open: true, Dir: "/home/u"}
	for _, c := range []struct {
		name, line string
		records    []journal.Record
		sealed     bool
		warned     bool
	}{
		{"the journal's open record", `codex --no-daemon "fix the bug"`, []journal.Record{seen}, true, false},
		{"no record", `codex --no-daemon "fix the bug"`, nil, false, false},
		{"a printed line", `codex --dangerously-bypass-approvals-and-sandbox; touch /tmp/pwned`, []journal.Record{seen}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ls := testLS(func(ws map[int]*kitty.Window) {
				ws[2].LastReportedCmdline = c.line
				ws[2].UserVars = map[string]string{"kittymux_agent": "codex", "kittymux_session": codexID}
				ws[2].ForegroundProcesses = []kitty.Process{
					{PID: 300, Cmdline: []string{"node", launcher, "--no-daemon", "fix the bug"}, Cwd: "/home/u"},
					{PID: 301, Cmdline: []string{native, "--no-daemon", "fix the bug"}, Cwd: "/home/u"},
				}
			})
			unser, err := json.Marshal(map[string]any{"id": 2, "cmd_at_shell_startup": c.line})
			if err != nil {
				t.Fatal(err)
			}
			word, err := sessionfile.QuoteWord("kitty-unserialize-data=" + string(unser))
			if err != nil {
				t.Fatal(err)
			}
			raw := tab("/home/u", win1, "launch "+word+" --var=kittymux_agent=codex --var=kittymux_session="+codexID)
			res, err := rewrite.Rewrite([]byte(raw), rewrite.Options{Agents: shipped(t), ResumeBin: bin, Key: testKey, LS: ls,
				Journal: &journal.File{Version: 1, Records: c.records}, KittyPID: kittyPID})
			if err != nil {
				t.Fatal(err)
			}
			if warned := strings.Contains(strings.Join(res.Warnings, "\n"), "written as the agent's that kitty listed"); warned != c.warned {
				t.Errorf("warnings %q: want one that the line was replaced by the agent kitty listed: %v", res.Warnings, c.warned)
			}
			r, ok := records(t, res.Data)[2]
			if !ok {
				t.Fatalf("window 2 comes back without its agent:\n%s", res.Data)
			}
			if r.Agent != "codex" || !r.FromShell || (r.Verify(testKey) == nil) != c.sealed || r.Confirm == c.sealed {
				t.Errorf("window 2 = %+v; want codex from its shell, sealed %v", r, c.sealed)
			}
			if c.sealed && (r.Mode != "exact" || r.ID != codexID) {
				t.Errorf("window 2 resumes %s %q, want exact %s", r.Mode, r.ID, codexID)
			}
			if !c.sealed && r.Mode == "exact" {
				t.Errorf("window 2 resumes %q from a record nothing confirmed", r.ID)
			}
			if slices.Contains(r.Argv, "fix the bug") || slices.Contains(r.Argv, "--dangerously-bypass-approvals-and-sandbox") {
				t.Errorf("window 2 runs %q", r.Argv)
			}
			if strings.Contains(string(res.Data), "pwned") {
				t.Errorf("printed text reached the save:\n%s", res.Data)
			}
		})
	}
}

// TestRewriteQuitTitled: pi renames its process to "pi", so kitty's save
// writes its argv as the interpreter alone (argv[0] made absolute from
// /proc/PID/exe: ["/usr/bin/node"]), which restored would start a node
// prompt. The agent kitty listed stands in its place, and the publish
// resumes the conversation the journal's open record holds.
func TestRewriteQuitTitled(t *testing.T) {
	const (
		piID     = "01a2418b-461b-7374-a2cf-3e77abea613f"
		kittyPID = 4242
		script   = "/home/u/.npm/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"
	)
	ls := testLS(func(ws map[int]*kitty.Window) {
		ws[2].UserVars = map[string]string{"kittymux_agent": "pi", "kittymux_session": piID}
		ws[2].ForegroundProcesses = []kitty.Process{{PID: 300, Cmdline: []string{"pi"}, Cwd: "/home/u"}}
	})
	raw := tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": ["/usr/bin/node"]}' --var=kittymux_agent=pi --var=kittymux_session=`+piID)
	seen := journal.Record{Key: "k2", Agent: "pi", ID: piID, IDFrom: journal.FromHook, Argv: []string{"/usr/bin/node", script, "--model", "m1"},
		Exe: []string{"/usr/bin/node", script}, WindowID: 2, PID: 300, Start: "boot/700", KittyPID: kittyPID, Open: true, Dir: "/home/u"}
	res, err := rewrite.Rewrite([]byte(raw), rewrite.Options{Agents: shipped(t), ResumeBin: bin, Key: testKey, LS: ls,
		Journal: &journal.File{Version: 1, Records: []journal.Record{seen}}, KittyPID: kittyPID})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %q: kitty's own argv of a renamed process is no printed text", res.Warnings)
	}
	r, ok := records(t, res.Data)[2]
	if !ok {
		t.Fatalf("window 2 comes back without pi:\n%s", res.Data)
	}
	if r.Agent != "pi" || r.Mode != "exact" || r.ID != piID || !r.FromShell || r.Verify(testKey) != nil || r.Confirm {
		t.Errorf("window 2 = %+v; want pi's exact resume of %s from its shell, sealed", r, piID)
	}
	if !slices.Contains(r.Argv, "--model") {
		t.Errorf("window 2 runs %q, want the flags the journal saw", r.Argv)
	}
}
