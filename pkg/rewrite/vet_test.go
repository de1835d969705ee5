package rewrite_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// tab is one tab as kitty writes it (its windows 1, 2 and 3), with the
// text the test gives after `cd`.
func tab(cdRest string, launches ...string) string {
	return "\nnew_tab\nlayout splits\nenabled_layouts splits,tall\n" +
		`set_layout_state {"pairs": {}, "all_windows": {"window_groups": [{"id": 1, "window_ids": [1]}, {"id": 2, "window_ids": [2, 3]}]}}` +
		"\ncd " + cdRest + "\n\n" + strings.Join(launches, "\n") + "\nfocus\n"
}

const (
	win1 = `launch 'kitty-unserialize-data={"id": 1}'`
	win2 = `launch 'kitty-unserialize-data={"id": 2}'`
	win4 = `launch 'kitty-unserialize-data={"id": 4}'`
)

// TestVetRefuses: lines a directory name (or any value kitty writes
// unquoted or that a line break splits) puts into the save are refused one
// by one, each with a warning, and a directory kitty would read
// differently becomes its nearest safe parent. Nothing fails the save.
func TestVetRefuses(t *testing.T) {
	ls := fixtureLS(t)
	for _, c := range []struct {
		name      string
		raw       string
		ls        []kitty.OSWindow
		want      string
		warnings  []string // a part of each warning, in order
		noLS      bool
		wantSame  bool
		substrNot string
	}{
		{
			name:     "a directory name with a newline and a launch line",
			raw:      tab("/home/u/x\nlaunch sh -c 'touch /tmp/marker'", win1, win2),
			want:     tab("/home/u", win1, win2),
			warnings: []string{`line 6 "cd /home/u/x": the directory's name goes on past the line; written as its nearest safe parent /home/u`, `line 7 "launch sh -c 'touch /tmp/marker'": refused: it follows`},
		},
		{
			name:     "the same offline: no ls to check against",
			raw:      tab("/home/u/x\nlaunch 'kitty-unserialize-data={\"id\": 9}' sh -c 'touch /tmp/marker'", win1, win2),
			noLS:     true,
			want:     tab("/home/u", win1, win2),
			warnings: []string{"nearest safe parent /home/u", "refused: it follows `cd` on line 6"},
		},
		{
			name: "a later tab's name forging an earlier tab's window costs neither tab a window",
			raw: tab("/home/u", win1, win2) + strings.Replace(tab("/home/u/web\n\nlaunch 'kitty-unserialize-data={\"id\": 1}' sh -c 'touch /tmp/m'", win4),
				`"window_ids": [1]}, {"id": 2, "window_ids": [2, 3]}`, `"window_ids": [4]}`, 1),
			noLS: true,
			want: tab("/home/u", win1, win2) + strings.Replace(tab("/home/u", win4),
				`"window_ids": [1]}, {"id": 2, "window_ids": [2, 3]}`, `"window_ids": [4]}`, 1),
			warnings: []string{"nearest safe parent /home/u", "rest of that directory's name"},
		},
		{
			name:     "a trailing backslash no longer fails the save",
			raw:      tab("/home/u/x\nlaunch y\\", win1),
			want:     tab("/home/u", win1),
			warnings: []string{"nearest safe parent", "refused"},
		},
		{
			name:     "a name holding a blank line, offline: it ends at the tab's first own window",
			raw:      tab("/home/u/x\n\nlaunch sh -c 'touch /tmp/m'\nlaunch 'kitty-unserialize-data={\"id\": 1}' sh -c 'touch /tmp/m'\nlaunch 'kitty-unserialize-data={\"id\": 5}' sh -c 'touch /tmp/m'\nlaunch 'kitty-unserialize-data={\"id\": 77}' sh", win1, win2),
			noLS:     true,
			want:     tab("/home/u", win1, win2),
			warnings: []string{"nearest safe parent", "line 8 \"launch sh", "rest of that directory's name", "line 10", "line 11"},
		},
		{
			name: "a name holding a blank line, with ls: the same, and the directory is known",
			raw: tab("/home/u/x\n\nlaunch sh -c 'touch /tmp/m'\nlaunch 'kitty-unserialize-data={\"id\": 1}' sh -c 'touch /tmp/m'\nlaunch 'kitty-unserialize-data={\"id\": 3}' sh -c 'touch /tmp/m'\nlaunch 'kitty-unserialize-data={\"id\": 77}' sh", win1, win2,
				`launch 'kitty-unserialize-data={"id": 3}'`),
			ls: func() []kitty.OSWindow {
				ls := fixtureLS(t)
				ls[0].Tabs[0].Windows[0].Cwd = "/home/u/x\n\nlaunch sh -c 'touch /tmp/m'"
				return ls
			}(),
			want:     tab("/home/u", win1, win2, `launch 'kitty-unserialize-data={"id": 3}'`),
			warnings: []string{"nearest safe parent /home/u", "line 8", "line 9", "line 10", "line 11"},
		},
		{
			name: "a launch line broken by a user var holding a newline: its rest is refused to where kitty's quote closes, the var left out",
			raw: tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2}' '--var=x=a`,
				`launch '"'"'kitty-unserialize-data={"id": 9}'"'"' sh -c '"'"'touch /tmp/m'"'"'`,
				`new_tab`, `#'`, `launch 'kitty-unserialize-data={"id": 3}'`),
			want:     tab("/home/u", win1, win2, `launch 'kitty-unserialize-data={"id": 3}'`),
			warnings: []string{"line 9 \"launch 'kitty-unserialize-data={\\\"id\\\": 2}' '--var=x=a\": kitty wrote it over lines 9-12 (a value held a line break); left out: --var", "line 10", "line 11", "line 12"},
		},
		{
			name: "a window whose directory holds a newline keeps its line, in the safe parent",
			raw: tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2}' '--cwd=/home/u/code/x`,
				`launch sh -c '"'"'touch /tmp/m'"'"'' '--var=project=a`, `b' --hold`, `launch 'kitty-unserialize-data={"id": 3}'`),
			want: tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2}' --hold '--cwd=/home/u/code'`,
				`launch 'kitty-unserialize-data={"id": 3}'`),
			warnings: []string{"over lines 9-11 (a value held a line break); left out: --var; its directory is written as its nearest safe parent /home/u/code",
				"line 10", "line 11"},
		},
		{
			name:     "a carriage return ends kitty's cd line",
			raw:      tab("/home/u/x\rlaunch sh -c 'touch /tmp/m'", win1),
			want:     tab("/home/u", win1),
			warnings: []string{"nearest safe parent /home/u"},
		},
		{
			name:     "$VAR in cd, which kitty expands",
			raw:      tab("/home/u/$HOME/api", win1),
			want:     tab("/home/u", win1),
			warnings: []string{"holds a '$'"},
		},
		{
			name: "a blank at the end of the directory, which kitty strips: only ls tells",
			raw:  tab("/home/u/code/api", win1),
			ls: func() []kitty.OSWindow {
				ls := fixtureLS(t)
				ls[0].Tabs[0].Windows[0].Cwd = "/home/u/code/api "
				return ls
			}(),
			want:     tab("/home/u/code", win1),
			warnings: []string{`the directory "/home/u/code/api " of its windows cannot be written on one line`},
		},
		{
			name:     "$VAR in --cwd",
			raw:      tab("/home/u", win1+" '--cwd=/srv/$X/y'", win2),
			want:     tab("/home/u", win1+" '--cwd=/srv'", win2),
			warnings: []string{"holds a '$'"},
		},
		{
			name:     "directives kitty does not write, and comments",
			raw:      tab("/home/u", win1, "title evil", "# a note", "layout nosuch", "cd /tmp", "os_window_size 1 2", win2),
			want:     tab("/home/u", win1, "", "", "", "", "", win2),
			warnings: []string{"does not write `title`", "no comments", "`layout` there", "`cd` there", "rest of that directory's name"},
		},
		{
			name:     "a launch line kitty cannot have written",
			raw:      tab("/home/u", win1, "launch 'kitty-unserialize-data={\"id\": 2}' '--cwd=/home/u", win4),
			want:     tab("/home/u", win1),
			warnings: []string{"line 9", "window 4 is not one of the windows the tab's set_layout_state lists"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			use := ls
			if c.ls != nil {
				use = c.ls
			}
			if c.noLS {
				use = nil
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
		})
	}
}

// dropBlank compares files as kitty reads them: blank lines say nothing.
func dropBlank(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestRewriteHostileDirectory: through the whole rewrite, the injected line
// never reaches the published file, the save succeeds, and says why.
func TestRewriteHostileDirectory(t *testing.T) {
	raw := tab("/home/u/x\nlaunch sh -c 'touch /tmp/marker'", `launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "claude"}'`)
	for name, ls := range map[string][]kitty.OSWindow{"with ls": fixtureLS(t), "without ls": nil} {
		res, err := rewrite.Rewrite([]byte(raw), rewrite.Options{Agents: shipped(t), ResumeBin: bin, Key: testKey, LS: ls})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(string(res.Data), "touch") || len(res.Warnings) != 2 || res.Count != 1 {
			t.Errorf("%s: published %d windows, warnings %q:\n%s", name, res.Count, res.Warnings, res.Data)
		}
	}
}

// FuzzVet: whatever a raw save holds, Vet does not fail, and what it keeps
// reads back as a session file, each launch line once per window.
func FuzzVet(f *testing.F) {
	f.Add([]byte(tab("/home/u/x\nlaunch sh -c 'touch /tmp/m'", win1, win2)))
	f.Add([]byte(tab("/home/u", win1, `launch 'kitty-unserialize-data={"id": 2}' '--var=x=a`, `b'`, win2)))
	f.Add([]byte("new_tab\ncd /\u2028\n\nlaunch 'kitty-unserialize-data={\"id\": 1}'\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, _ := rewrite.Vet(raw, nil)
		file, err := sessionfile.Parse(out)
		if err != nil {
			t.Fatalf("Vet kept what does not parse: %v\n%q", err, out)
		}
		seen := map[int]bool{}
		for _, w := range file.Windows() {
			u := w.Line.Launch.Unserialize
			if u == nil || seen[u.ID()] {
				t.Fatalf("Vet kept a launch line that is not kitty's: %q", w.Line.Raw)
			}
			seen[u.ID()] = true
		}
	})
}

// TestVetDropsTheOffer: the overlay in which kittymux offers an ended
// kitty's session is left out of a save without a word: restored, it would
// offer that session again. kitty 0.48.2 loads the save without it (the
// tab's set_layout_state still naming its id). A window that only looks
// like it in the save, its process another, is kept.
func TestVetDropsTheOffer(t *testing.T) {
	offer := `launch 'kitty-unserialize-data={"id": 2}' --env=XDG_STATE_HOME=/home/u/.local/state '--title=kittymux: restore the session that ended?' --type=overlay /opt/km/kittymux sessions offer 20904`
	raw := tab("/home/u", win1, offer)
	ls := func(cmdline ...string) []kitty.OSWindow {
		return []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{
			{ID: 1, Cwd: "/home/u", Cmdline: []string{"/bin/bash"}},
			{ID: 2, Cwd: "/home/u", Cmdline: cmdline},
		}}}}}
	}
	got, warnings := rewrite.Vet([]byte(raw), ls("/opt/km/kittymux", "sessions", "offer", "20904"))
	if want := tab("/home/u", win1); string(got) != want || len(warnings) > 0 {
		t.Errorf("with the offer running: %v\n%s\nwant\n%s", warnings, got, want)
	}
	got, warnings = rewrite.Vet([]byte(raw), ls("/usr/bin/vim", "notes"))
	if string(got) != raw || len(warnings) > 0 {
		t.Errorf("another program: %v\n%s", warnings, got)
	}
}
