package recovery

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

const (
	idA = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	idB = "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"
	idC = "0a1b2c3d-0000-4000-8000-000000000000"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func ago(d time.Duration) time.Time { return now.Add(-d) }

// rec is a record of a kitty that is gone, last seen m minutes ago.
func rec(key, agent, id, dir string, m int, argv ...string) journal.Record {
	return journal.Record{Key: key, Agent: agent, ID: id, Dir: dir, Argv: argv, FirstSeen: ago(5 * time.Hour),
		LastSeen: ago(time.Duration(m) * time.Minute), CloseReason: journal.ClosedKittyGone,
		KittySocket: "unix:/tmp/gone", KittyPID: 10, WindowID: len(key)}
}

func liveWindow(kittyWin, pid int, dir string, argv ...string) live.AgentWindow {
	set, _ := agents.Load("")
	c, _ := recognize.Argv(set, argv)
	return live.AgentWindow{Ref: kitty.WindowRef{Window: &kitty.Window{ID: kittyWin}}, PID: pid,
		ID: kittyWin, Cwd: dir, Cmd: c}
}

func TestBuild(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Title string
		Mode  plan.Mode
		Argv  string
	}
	for _, tc := range []struct {
		name    string
		recs    []journal.Record
		live    []LiveKitty
		closed  bool
		want    []row
		skipped []string // journal keys
	}{{
		name: "one conversation twice in the journal comes back once, from its latest record",
		recs: []journal.Record{
			rec("a1", "claude", idA, "/w/api", 200, "claude"),
			func() journal.Record {
				r := rec("a2", "claude", idA, "/w/api", 30, "claude", "--model", "opus")
				r.TabTitle = "api work"
				return r
			}(),
		},
		want: []row{{"api work", plan.ModeExact, "claude --model opus --resume " + idA}},
	}, {
		name: "older than --since, or an id left by /clear, stays",
		recs: []journal.Record{
			rec("old", "claude", idA, "/w/api", 400, "claude"),
			func() journal.Record {
				r := rec("clr", "claude", idC, "/w/web", 5, "claude")
				r.PreviousIDs = []string{idB}
				return r
			}(),
			rec("left", "claude", idB, "/w/web", 6, "claude"),
		},
		want: []row{{"web", plan.ModeExact, "claude --resume " + idC}},
	}, {
		name: "two codex without ids in one directory: each a new conversation",
		recs: []journal.Record{rec("c1", "codex", "", "/w/cli", 5, "codex"), rec("c2", "codex", "", "/w/cli", 6, "codex", "-m", "o3")},
		want: []row{{"cli", plan.ModeChoose, "codex"}, {"cli", plan.ModeChoose, "codex -m o3"}},
	}, {
		name: "a live codex in the directory makes latest unsafe",
		recs: []journal.Record{rec("c1", "codex", "", "/w/cli", 5, "codex")},
		live: []LiveKitty{{Socket: "unix:/tmp/other", PID: 20, Agents: []live.AgentWindow{liveWindow(3, 300, "/w/cli", "codex")}}},
		want: []row{{"cli", plan.ModeChoose, "codex"}},
	}, {
		name: "running in a live kitty, or waiting at a restore prompt there: not recovered",
		recs: []journal.Record{rec("a", "claude", idA, "/w/api", 5, "claude"), rec("b", "claude", idB, "/w/rev", 5, "claude"),
			rec("c", "claude", idC, "/w/doc", 5, "claude")},
		live: []LiveKitty{{Socket: "unix:/tmp/other", PID: 20,
			Agents:  []live.AgentWindow{liveWindow(3, 300, "/w/api", "claude", "--resume", idA)},
			Waiting: []Conversation{{"claude", idB}}}},
		want:    []row{{"doc", plan.ModeExact, "claude --resume " + idC}},
		skipped: []string{"a", "b"},
	}, {
		name: "closed by hand: only with --closed; gone with a kitty that lives on: only with --closed",
		recs: []journal.Record{
			func() journal.Record {
				r := rec("w", "claude", idA, "/w/api", 5, "claude")
				r.CloseReason = journal.ClosedWindow
				return r
			}(),
			func() journal.Record {
				r := rec("x", "claude", idB, "/w/rev", 5, "claude")
				r.Open, r.CloseReason, r.KittySocket, r.KittyPID = true, "", "unix:/tmp/live", 30
				return r
			}(),
		},
		live:    []LiveKitty{{Socket: "unix:/tmp/live", PID: 30}},
		skipped: []string{"w", "x"},
	}, {
		name: "the same with --closed",
		recs: []journal.Record{
			func() journal.Record {
				r := rec("w", "claude", idA, "/w/api", 5, "claude")
				r.CloseReason = journal.ClosedWindow
				return r
			}(),
		},
		closed: true,
		want:   []row{{"api", plan.ModeExact, "claude --resume " + idA}},
	}, {
		name:    "a directory kitty versions read differently, a one-shot run: not recovered",
		recs:    []journal.Record{rec("d", "claude", idA, "/w/$HOME", 5, "claude"), rec("p", "claude", "", "/w/x", 5, "claude", "-p")},
		skipped: []string{"d", "p"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(Options{Agents: set, Journal: &journal.File{Version: 1, Records: tc.recs}, Clock: clock.NewFake(now),
				Since: 6 * time.Hour, Closed: tc.closed, Live: tc.live, ResumeBin: "/bin/kittymux-resume"})
			if err != nil {
				t.Fatal(err)
			}
			var got []row
			for _, tab := range p.Tabs {
				got = append(got, row{tab.Title, tab.Mode, strings.Join(tab.Argv, " ")})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tabs (-want +got):\n%s\nskipped: %+v", diff, p.Skipped)
			}
			var skipped []string
			for _, s := range p.Skipped {
				skipped = append(skipped, s.Key)
			}
			if diff := cmp.Diff(tc.skipped, skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s\n%+v", diff, p.Skipped)
			}
			if len(p.Tabs) == 0 && p.Data != nil {
				t.Errorf("a file without tabs: %s", p.Data)
			}
		})
	}
}

// The file is what kitty 0.26.5 loads, and each window's record is one the
// prompt accepts, sealed with the key, naming the files the journal says
// the agent process ran.
func TestBuildFile(t *testing.T) {
	set, _ := agents.Load("")
	key := bytes.Repeat([]byte{7}, resumerecord.KeySize)
	r := rec("a", "claude", idA, "/w/it's here", 5, "/opt/claude", "--model", "opus")
	r.TabTitle = "-x `true` $HOME"
	r.Exe = []string{"/opt/claude-2.1/claude"}
	p, err := Build(Options{Agents: set, Journal: &journal.File{Version: 1, Records: []journal.Record{r}}, Clock: clock.NewFake(now),
		Since: time.Hour, ResumeBin: "/bin/kittymux-resume", Key: key})
	if err != nil {
		t.Fatal(err)
	}
	f, err := sessionfile.Parse(p.Data)
	if err != nil {
		t.Fatal(err)
	}
	var directives []string
	for _, l := range f.Lines {
		if l.Directive != "" && !strings.HasPrefix(l.Directive, "#") {
			directives = append(directives, l.Directive)
		}
	}
	if diff := cmp.Diff([]string{"new_tab", "cd", "launch"}, directives); diff != "" {
		t.Errorf("directives (-want +got):\n%s\n%s", diff, p.Data)
	}
	ws := f.Windows()
	if len(ws) != 1 || ws[0].Cwd != "/w/it's here" || ws[0].TabTitle != "-x `true` HOME" {
		t.Fatalf("windows %+v\n%s", ws, p.Data)
	}
	if v, _ := ws[0].Line.Launch.Option("--title"); v != "-x `true` HOME" {
		t.Errorf("--title %q", v)
	}
	argv := ws[0].Line.Launch.Argv
	if argv[0] != "/bin/kittymux-resume" {
		t.Fatalf("argv %q", argv)
	}
	got, err := resumerecord.ParseArgs(argv[1:])
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Verify(key); err != nil {
		t.Errorf("seal: %v", err)
	}
	if diff := cmp.Diff([]string{"/opt/claude", "--model", "opus", "--resume", idA}, got.Argv); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(r.Exe, got.Exe); diff != "" || got.Confirm {
		t.Errorf("exe (-want +got):\n%s; confirm %v", diff, got.Confirm)
	}
}

// TestBuildUnseenProgram: a journal record without the files its process
// ran (an older scanner's, which may have taken flags from a terminal's
// report) is written unsealed, and its restore asks first.
func TestBuildUnseenProgram(t *testing.T) {
	set, _ := agents.Load("")
	key := bytes.Repeat([]byte{7}, resumerecord.KeySize)
	r := rec("a", "claude", idA, "/w", 5, "/repo/node_modules/.bin/claude", "--dangerously-skip-permissions")
	p, err := Build(Options{Agents: set, Journal: &journal.File{Version: 1, Records: []journal.Record{r}}, Clock: clock.NewFake(now),
		Since: time.Hour, ResumeBin: "/bin/kittymux-resume", Key: key})
	if err != nil {
		t.Fatal(err)
	}
	f, err := sessionfile.Parse(p.Data)
	if err != nil {
		t.Fatal(err)
	}
	ws := f.Windows()
	if len(ws) != 1 {
		t.Fatalf("windows %+v\n%s", ws, p.Data)
	}
	got, err := resumerecord.ParseArgs(ws[0].Line.Launch.Argv[1:])
	if err != nil {
		t.Fatal(err)
	}
	if got.Seal != "" || !got.Confirm || got.Exe != nil {
		t.Errorf("record %+v: want unsealed, asking, naming no file", got)
	}
}

// TestBuildBothKittiesReadAlike: kitty 0.26.5's Python shlex keeps the
// backslash before '`' and '$' inside double quotes, which syntax.Quote
// writes for a word that also holds a single quote. A title loses its '`'
// then; a directory or argument that would need it is not recovered, with
// the reason; no record is ever written that 0.26.5 would read as edited.
func TestBuildBothKittiesReadAlike(t *testing.T) {
	set, _ := agents.Load("")
	key := bytes.Repeat([]byte{7}, resumerecord.KeySize)
	title := rec("t", "claude", idA, "/w/api", 5, "claude")
	title.TabTitle = "it's `x` \\ \"y\""
	title.Exe = []string{"/opt/claude"} // the scanner saw the process: sealed
	dir := rec("d", "claude", idB, "/w/it's `x`", 5, "claude")
	arg := rec("a", "claude", idC, "/w/web", 5, "claude", "--model", "it's `x`")
	p, err := Build(Options{Agents: set, Journal: &journal.File{Version: 1, Records: []journal.Record{title, dir, arg}}, Clock: clock.NewFake(now),
		Since: time.Hour, ResumeBin: "/bin/kittymux-resume", Key: key})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tabs) != 1 || p.Tabs[0].Title != `it's x \ "y"` {
		t.Fatalf("tabs %+v\n%s", p.Tabs, p.Data)
	}
	why := map[string]string{}
	for _, s := range p.Skipped {
		why[s.Key] = s.Why
	}
	if !strings.Contains(why["d"], "0.26.5 and 0.48.2 read it differently") || !strings.Contains(why["a"], "0.26.5 and 0.48.2 read it differently") {
		t.Errorf("skipped %+v", p.Skipped)
	}
	if bytes.Contains(p.Data, []byte("\\`")) || bytes.Contains(p.Data, []byte("\\$")) {
		t.Errorf("a word 0.26.5 reads differently:\n%s", p.Data)
	}
	f, err := sessionfile.Parse(p.Data)
	if err != nil {
		t.Fatal(err)
	}
	ws := f.Windows()
	got, err := resumerecord.ParseArgs(ws[0].Line.Launch.Argv[1:])
	if err != nil || got.Tab != `it's x \ "y"` || got.Dir != "/w/api" || got.VerifyIn(key, "/w/api") != nil {
		t.Errorf("record %+v, %v\n%s", got, err, p.Data)
	}
}

// TestBuildChooseRan: a recovered window that lists conversations to
// choose from says when the journal saw its agent process, so the list
// holds only what was written while it ran.
func TestBuildChooseRan(t *testing.T) {
	set, err := agents.Load("")
	if err != nil {
		t.Fatal(err)
	}
	recs := []journal.Record{rec("c1", "codex", "", "/w/cli", 5, "codex"), rec("c2", "codex", "", "/w/cli", 6, "codex")}
	p, err := Build(Options{Agents: set, Journal: &journal.File{Version: 1, Records: recs}, Clock: clock.NewFake(now),
		Since: 6 * time.Hour, ResumeBin: "/bin/kittymux-resume"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		want := fmt.Sprintf("--since %d --seen %d", r.FirstSeen.Unix(), r.LastSeen.Unix())
		if !strings.Contains(string(p.Data), want) {
			t.Errorf("no record with %q:\n%s", want, p.Data)
		}
	}
}
