package rewrite_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const (
	bin     = "/opt/kittymux/bin/kittymux-resume"
	w5ID    = "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"
	w4ID    = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	codexID = "0199a213-81c0-7800-8aa1-bbab2a035a53"
)

func shipped(t *testing.T) *agents.Set {
	s, err := agents.Load(filepath.Join(t.TempDir(), "none.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("..", "..", "testdata", "rewrite", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// records reads back what each rewritten window will run: the prompt record,
// by kitty window id.
func records(t *testing.T, data []byte) map[int]resumerecord.Record {
	t.Helper()
	f, err := sessionfile.Parse(data)
	if err != nil {
		t.Fatalf("published file does not parse: %v", err)
	}
	out := map[int]resumerecord.Record{}
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		argv := l.Argv
		if c := l.Unserialize.CmdAtShellStartup; c.Set {
			if !c.IsList {
				continue
			}
			argv = c.List
		}
		if len(argv) == 0 || argv[0] != bin {
			continue
		}
		r, err := resumerecord.ParseArgs(argv[1:])
		if err != nil {
			t.Fatalf("window %d: %v", l.Unserialize.ID(), err)
		}
		out[l.Unserialize.ID()] = r
	}
	return out
}

func TestRewriteRealSave(t *testing.T) {
	raw := kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: shipped(t), ResumeBin: bin, IDs: map[int]string{5: w5ID}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "save_as_session.published.kitty-session", res.Data)

	recs := records(t, res.Data)
	type rec struct {
		Mode, ID  string
		Argv      []string
		FromShell bool
	}
	got := map[int]rec{}
	for id, r := range recs {
		got[id] = rec{string(r.Mode), r.ID, r.Argv, r.FromShell}
	}
	want := map[int]rec{
		// The only claude in ~/code/api: claude's --continue is per directory.
		1: {"latest", "", []string{"claude", "--model", "opus", "--dangerously-skip-permissions", "--continue"}, true},
		2: {"exact", codexID, []string{"/home/u/.local/bin/codex", "resume", codexID}, false},
		4: {"exact", w4ID, []string{"claude", "--model", "sonnet", "--resume", w4ID}, true},
		5: {"exact", w5ID, []string{"claude", "--resume", w5ID}, true},
		// The single opencode window: prompt dropped, scope unstated.
		6: {"latest", "", []string{"opencode", "-m", "anthropic/claude", "--continue"}, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if bytes.Contains(res.Data, []byte("fix the tests")) {
		t.Errorf("the prompt argument survived:\n%s", res.Data)
	}
	// Everything but the rewritten launch lines is unchanged, byte for byte.
	rawLines, outLines := strings.Split(string(raw), "\n"), strings.Split(string(res.Data), "\n")
	if len(rawLines) != len(outLines) {
		t.Fatalf("line count %d -> %d", len(rawLines), len(outLines))
	}
	changed := 0
	for i := range rawLines {
		if rawLines[i] == outLines[i] {
			continue
		}
		changed++
		if !strings.HasPrefix(rawLines[i], "launch 'kitty-unserialize-data={\"id\": ") {
			t.Errorf("line %d changed: %q -> %q", i+1, rawLines[i], outLines[i])
		}
		// The unserialize data stays first and keeps its id.
		id := rawLines[i][len("launch 'kitty-unserialize-data={\"id\": "):][:1]
		if !strings.HasPrefix(outLines[i], "launch 'kitty-unserialize-data={\"id\": "+id) {
			t.Errorf("line %d lost its id: %q", i+1, outLines[i])
		}
	}
	if changed != 5 {
		t.Errorf("%d lines changed, want 5 (windows 1, 2, 4, 5, 6)", changed)
	}
}

func TestRewriteWithoutJournal(t *testing.T) {
	raw := kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: shipped(t), ResumeBin: bin})
	if err != nil {
		t.Fatal(err)
	}
	r := records(t, res.Data)[5]
	// Window 4 is another claude in ~/code/web: --continue could attach its
	// conversation, so window 5 starts a new one.
	if r.Mode != "choose" || !cmp.Equal(r.Argv, []string{"claude"}) {
		t.Errorf("window 5 = %+v, want choose [claude]", r)
	}
}

// TestRewriteUserVars: with no live kitty (the quit capture's publish),
// kittymux_session is a hint. It counts only when kittymux's journal holds
// the same id for that window's open record; the journal's record also gives
// the command kittymux saw, so the record is sealed.
func TestRewriteUserVars(t *testing.T) {
	const forged = "0a1b2c3d-0000-4000-8000-000000000000"
	seen := journalSeen()
	for _, c := range []struct {
		name    string
		raw     []byte
		journal []journal.Record
		mode    string
		id      string
		sealed  bool
	}{
		{"confirmed by the journal", withVars(t, w5ID, "claude", "25422"), []journal.Record{seen}, "exact", w5ID, true},
		{"another id than the journal's", withVars(t, forged, "claude", "25422"), []journal.Record{seen}, "choose", "", true},
		{"no journal record", withVars(t, w5ID, "claude", "25422"), nil, "choose", "", false},
		{"another agent's var", withVars(t, w5ID, "codex", "25422"), []journal.Record{seen}, "choose", "", true},
		{"an id the journal took from a user var", withVars(t, w5ID, "claude", "25422"),
			[]journal.Record{func() journal.Record { r := seen; r.IDFrom = "kitty user var kittymux_session"; return r }()}, "choose", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := rewrite.Rewrite(c.raw, rewrite.Options{Agents: shipped(t), ResumeBin: bin, Direct: true, Key: testKey,
				Journal: &journal.File{Version: 1, Records: c.journal}, KittyPID: seen.KittyPID})
			if err != nil {
				t.Fatal(err)
			}
			r := records(t, res.Data)[5]
			if string(r.Mode) != c.mode || r.ID != c.id || !r.Direct || (r.Verify(testKey) == nil) != c.sealed || r.Confirm == c.sealed {
				t.Errorf("window 5 = %+v; want %s %q sealed %v", r, c.mode, c.id, c.sealed)
			}
			if c.sealed && !cmp.Equal(r.Exe, seen.Exe) {
				t.Errorf("exe %q, want the journal's %q", r.Exe, seen.Exe)
			}
			if c.id == "" && bytes.Contains(res.Data, []byte("--resume")) && strings.Contains(string(res.Data), `"5"`) {
				t.Errorf("a resume flag for window 5:\n%s", res.Data)
			}
		})
	}
}

// withVars is the fixture's save with window 5 carrying kittymux's user
// vars, as kitty writes them after `set-user-vars` (or a printed
// SetUserVar).
func withVars(t *testing.T, id, agent, pid string) []byte {
	base := kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	return bytes.Replace(base, []byte(`"cmd_at_shell_startup": "claude"}'`),
		[]byte(`"cmd_at_shell_startup": "claude"}' --var=kittymux_agent=`+agent+` --var=kittymux_session=`+id+` --var=kittymux_pid=`+pid), 1)
}

// journalSeen is the scanner's open record of window 5's claude (pid 25422
// of kitty 25340).
func journalSeen() journal.Record {
	return journal.Record{Key: "k5", Agent: "claude", ID: w5ID, IDFrom: "claude sessions/25422.json", Argv: []string{"claude"},
		Exe: []string{"/opt/claude-2.1/claude"}, WindowID: 5, PID: 25422, Start: "boot/900", KittyPID: 25340, Open: true}
}

// TestRewriteJournalIdentity: offline, a window's command is sealed only
// from the open journal record of the process the scanner saw in that
// window of that kitty, with its start. A record of a process that ended
// (the window ran `claude --dangerously-skip-permissions` before its plain
// `claude`), one of another kitty, one without a start, or two open ones
// that disagree confirm nothing; a kittymux_pid user var (any program can
// print one) selects nothing.
func TestRewriteJournalIdentity(t *testing.T) {
	const danger = "--dangerously-skip-permissions"
	seen := journalSeen()
	old := seen
	old.Key, old.PID, old.Start, old.Open, old.ID = "k5-old", 25001, "boot/500", false, ""
	old.Argv = []string{"claude", danger}
	closedAt := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	old.ClosedAt, old.CloseReason, old.CloseDetail = &closedAt, journal.ClosedWindow, "the agent exited; its window stayed open"
	with := func(f func(*journal.Record)) journal.Record { r := seen; f(&r); return r }
	savedAt := closedAt.Add(time.Hour)
	closed := func(reason string, at time.Time) journal.Record {
		return with(func(r *journal.Record) { r.Open, r.CloseReason, r.ClosedAt = false, reason, &at })
	}
	for _, c := range []struct {
		name     string
		pidVar   string
		kittyPID int
		records  []journal.Record
		sealed   bool
	}{
		// The quit capture publishes as kitty goes: the scanner may have
		// closed the record of a window as its kitty went away.
		{"closed as the kitty went away after it saved", "", 25340, []journal.Record{old, closed(journal.ClosedKittyGone, savedAt)}, true},
		{"closed as a kitty went away before the save", "", 25340, []journal.Record{closed(journal.ClosedKittyGone, savedAt.Add(-time.Second))}, false},
		{"the agent exited after the save", "", 25340, []journal.Record{closed(journal.ClosedWindow, savedAt.Add(time.Second))}, false},
		{"the open record", "25422", 25340, []journal.Record{old, seen}, true},
		{"a forged kittymux_pid names the closed record", "25001", 25340, []journal.Record{old, seen}, true},
		{"only the closed record", "25001", 25340, []journal.Record{old}, false},
		{"the closed record reopened by no one but the var", "25001", 25340, []journal.Record{old, with(func(r *journal.Record) { r.Open = false })}, false},
		{"no start (a hook's record, an older journal)", "25422", 25340, []journal.Record{with(func(r *journal.Record) { r.Start = "" })}, false},
		{"another kitty's record", "25422", 25340, []journal.Record{with(func(r *journal.Record) { r.KittyPID = 1 })}, false},
		{"the kitty is not known", "25422", 0, []journal.Record{seen}, false},
		{"two open records disagree", "25422", 25340, []journal.Record{seen, with(func(r *journal.Record) {
			r.Key, r.PID, r.Argv = "k5-b", 25500, []string{"claude", danger}
		})}, false},
		{"a nested run's record", "25422", 25340, []journal.Record{with(func(r *journal.Record) { r.Nested = true })}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := rewrite.Rewrite(withVars(t, w5ID, "claude", c.pidVar), rewrite.Options{Agents: shipped(t), ResumeBin: bin,
				Key: testKey, Journal: &journal.File{Version: 1, Records: c.records}, KittyPID: c.kittyPID, SavedAt: savedAt})
			if err != nil {
				t.Fatal(err)
			}
			r := records(t, res.Data)[5]
			if slices.Contains(r.Argv, danger) {
				t.Errorf("window 5 runs %q", r.Argv)
			}
			if (r.Verify(testKey) == nil) != c.sealed || r.Confirm == c.sealed {
				t.Errorf("window 5 = %+v; want sealed %v", r, c.sealed)
			}
			if !c.sealed && r.Mode == "exact" {
				t.Errorf("window 5 resumes %q from a record nothing confirmed", r.ID)
			}
		})
	}
}

// TestRewriteDropsMarksOfOtherWindows: a window that runs no agent keeps
// its own user vars but not kittymux's marks, which only a program printing
// SetUserVar can have put there (window 3 of the fixture runs a shell).
func TestRewriteDropsMarksOfOtherWindows(t *testing.T) {
	base := kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	const forged = "0a1b2c3d-0000-4000-8000-000000000000"
	raw := bytes.Replace(base, []byte(`--var=project=web`),
		[]byte(`--var=project=web --var=kittymux_agent=claude --var=kittymux_session=`+forged), 1)
	if bytes.Equal(raw, base) {
		t.Fatal("the fixture's window 3 changed")
	}
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: shipped(t), ResumeBin: bin, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for l := range strings.SplitSeq(string(res.Data), "\n") {
		if strings.Contains(l, `"id": 3}`) {
			line = l
		}
	}
	if !strings.Contains(line, "--var=project=web") || strings.Contains(line, "kittymux_") {
		t.Errorf("window 3's launch line: %s", line)
	}
	if bytes.Contains(res.Data, []byte(forged)) {
		t.Errorf("the forged id is in the rewritten file:\n%s", res.Data)
	}
}

// testKey seals records in tests.
var testKey = bytes.Repeat([]byte{7}, resumerecord.KeySize)

// unsealed drops the seals of recs after checking each holds for key.
func unsealed(t *testing.T, recs map[int]resumerecord.Record, key []byte) map[int]resumerecord.Record {
	t.Helper()
	for id, r := range recs {
		if err := r.Verify(key); err != nil {
			t.Errorf("window %d: seal: %v", id, err)
		}
		r.Seal = ""
		recs[id] = r
	}
	return recs
}

// TestRewriteTypedEnv: the environment a record carries is the live
// process's (Live's Cmd.Env: the typed assignments its environment holds),
// even ones that load code, sealed. With no key to seal with, those stay as
// saved: the prompt would refuse them from an unsealed record. Assignments
// only the saved line shows are never carried to a seal.
func TestRewriteTypedEnv(t *testing.T) {
	set := shipped(t)
	raw := []byte("new_tab\ncd /srv\n\n" +
		`launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "CLAUDE_CONFIG_DIR=/srv/.c claude --resume ` + w4ID + `"}'` + "\n" +
		`launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": "LD_PRELOAD=/x.so codex"}'` + "\n" +
		`launch 'kitty-unserialize-data={"id": 3, "cmd_at_shell_startup": "FORCE_COLOR=1 gemini"}'` + "\n")
	live := func() []live.AgentWindow {
		var out []live.AgentWindow
		for id, line := range map[int]string{1: "CLAUDE_CONFIG_DIR=/srv/.c claude --resume " + w4ID, 2: "LD_PRELOAD=/x.so codex", 3: "FORCE_COLOR=1 gemini"} {
			c, ok := recognize.String(set, line)
			if !ok {
				t.Fatal(line)
			}
			out = append(out, live.AgentWindow{ID: id, Cwd: "/srv", Cmd: c, Seen: []string{"/opt/" + c.Agent}})
		}
		return out
	}
	t.Run("sealed", func(t *testing.T) {
		res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, Live: live()})
		if err != nil {
			t.Fatal(err)
		}
		want := map[int][]string{1: {"CLAUDE_CONFIG_DIR=/srv/.c"}, 2: {"LD_PRELOAD=/x.so"}, 3: {"FORCE_COLOR=1"}}
		got := map[int][]string{}
		for id, r := range unsealed(t, records(t, res.Data), testKey) {
			got[id] = r.Env
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("env (-want +got):\n%s", diff)
		}
	})
	t.Run("no key", func(t *testing.T) {
		res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Live: live()})
		if err != nil {
			t.Fatal(err)
		}
		recs := records(t, res.Data)
		if diff := cmp.Diff([]int{3}, keys(recs)); diff != "" {
			t.Errorf("rewritten windows (-want +got):\n%s\n%s", diff, res.Data)
		}
		for _, w := range res.Windows[:2] {
			if w.Mode != plan.ModeAsSaved || !strings.Contains(w.Reason, "no key to seal") {
				t.Errorf("window %d result = %+v", w.WindowID, w)
			}
		}
	})
	t.Run("only the saved line shows it", func(t *testing.T) {
		plain := live()
		for i := range plain {
			plain[i].Cmd.Env = nil // the process's environment did not hold them
		}
		res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, Live: plain})
		if err != nil {
			t.Fatal(err)
		}
		for id, r := range unsealed(t, records(t, res.Data), testKey) {
			if r.Env != nil {
				t.Errorf("window %d carries %q", id, r.Env)
			}
		}
		// No process at all: unsealed, and nothing only a seal may set.
		res, err = rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		for id, r := range records(t, res.Data) {
			if r.Seal != "" || id != 3 && r.Env != nil || id == 3 && !cmp.Equal(r.Env, []string{"FORCE_COLOR=1"}) {
				t.Errorf("window %d = %+v", id, r)
			}
		}
	})
}

func keys(m map[int]resumerecord.Record) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestRewriteProgram: a live window's record names the program its
// process ran and, sealed, the files it ran (Live's Seen); never a path
// read from the saved line. A window no process stands for is written
// unsealed, asks first, and names no file.
func TestRewriteProgram(t *testing.T) {
	set := shipped(t)
	liveCmd := func(argv ...string) recognize.Command {
		c, ok := recognize.Argv(set, argv)
		if !ok {
			t.Fatalf("%q not recognised", argv)
		}
		return c
	}
	for _, c := range []struct {
		name, line string
		cwd        string
		live       recognize.Command
		seen       []string
		want       []string // program words of the record
	}{
		{"bare name: left to PATH", "claude --model opus", "/srv", liveCmd("claude", "--model", "opus"),
			[]string{"/opt/ai/versions/claude-2.1"}, []string{"claude"}},
		{"the process's program wins over the saved line's", "/repo/node_modules/.bin/claude --dangerously-skip-permissions", "/srv",
			liveCmd("/opt/ai/claude"), []string{"/opt/ai/versions/claude-2.1"}, []string{"/opt/ai/claude"}},
		{"relative: made absolute in the window's directory", "./tools/claude", "/srv", liveCmd("./tools/claude"),
			[]string{"/srv/tools/claude"}, []string{"/srv/tools/claude"}},
		{"interpreter options dropped", "codex", "/srv", liveCmd("/usr/bin/node", "--max-old-space-size=4096", "/usr/lib/codex.js"),
			[]string{"/usr/bin/node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}, []string{"/usr/bin/node", "/usr/lib/codex.js"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := []byte("new_tab\ncd " + c.cwd + "\n\n" +
				`launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "` + c.line + `"}'` + "\n")
			live := []live.AgentWindow{{ID: 1, Cwd: c.cwd, Cmd: c.live, Seen: c.seen}}
			res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, Live: live})
			if err != nil {
				t.Fatal(err)
			}
			r, ok := unsealed(t, records(t, res.Data), testKey)[1]
			if !ok {
				t.Fatalf("not rewritten: %+v\n%s", res.Windows, res.Data)
			}
			if got := r.Argv[:len(c.want)]; !cmp.Equal(got, c.want) || !cmp.Equal(r.Exe, c.seen) || r.Confirm {
				t.Errorf("program %q exe %q confirm %v, want %q %q", r.Argv, r.Exe, r.Confirm, c.want, c.seen)
			}
			if slices.Contains(r.Argv, "--dangerously-skip-permissions") {
				t.Errorf("a flag only the saved line had: %q", r.Argv)
			}
		})
	}
	t.Run("no process: unsealed, asks, names no file", func(t *testing.T) {
		raw := []byte("new_tab\ncd /srv\n\n" + `launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "/repo/node_modules/.bin/claude --dangerously-skip-permissions"}'` + "\n")
		res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		r, ok := records(t, res.Data)[1]
		if !ok {
			t.Fatalf("not rewritten: %+v\n%s", res.Windows, res.Data)
		}
		if r.Seal != "" || !r.Confirm || r.Exe != nil || r.Argv[0] != "/repo/node_modules/.bin/claude" {
			t.Errorf("record %+v: want the whole command, unsealed, asking, naming no file", r)
		}
		if !strings.Contains(res.Windows[0].Reason, "not sealed") {
			t.Errorf("reason %q does not say it is not sealed", res.Windows[0].Reason)
		}
	})
	t.Run("a seen path the prompt could not read stays as saved", func(t *testing.T) {
		raw := []byte("new_tab\ncd /srv\n\n" + `launch 'kitty-unserialize-data={"id": 1}' /opt/ai/claude` + "\n")
		live := []live.AgentWindow{{ID: 1, Cwd: "/srv", Cmd: liveCmd("/opt/ai/claude"), Seen: []string{"/opt/ai/\x01claude"}}}
		res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, Live: live})
		if err != nil {
			t.Fatal(err)
		}
		if len(records(t, res.Data)) != 0 || len(res.Windows) != 1 || res.Windows[0].Mode != plan.ModeAsSaved {
			t.Errorf("windows %+v\n%s", res.Windows, res.Data)
		}
	})
	t.Run("relative with no directory stays as saved", func(t *testing.T) {
		raw := []byte("new_tab\n" + `launch 'kitty-unserialize-data={"id": 1}' ./claude --model opus` + "\n")
		res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		if len(records(t, res.Data)) != 0 || len(res.Windows) != 1 || res.Windows[0].Mode != plan.ModeAsSaved {
			t.Errorf("windows %+v\n%s", res.Windows, res.Data)
		}
	})
}

func TestRewriteRefuses(t *testing.T) {
	for name, raw := range map[string]string{
		"empty":      "",
		"no windows": "new_tab\nlayout splits\n",
		"malformed":  "new_tab\nlaunch 'kitty-unserialize-data={\"id\": 1}\nfocus\n",
	} {
		_, err := rewrite.Rewrite([]byte(raw), rewrite.Options{Agents: shipped(t), ResumeBin: bin})
		if err == nil {
			t.Errorf("%s: no error", name)
		}
		if name != "malformed" && !errors.Is(err, rewrite.ErrEmpty) {
			t.Errorf("%s: err = %v, want ErrEmpty", name, err)
		}
	}
}

// TestRewriteRestoredWindows: a save of a kitty that was itself restored from
// a published file. kitty saves each restored agent window's command as it
// launched it, the restore prompt, whatever the prompt exec'd since.
func TestRewriteRestoredWindows(t *testing.T) {
	const old = "/old/place/kittymux-resume"
	waiting := resumerecord.Record{Agent: "codex", Mode: "latest", FromShell: true, Dir: "/c", Env: []string{"CODEX_HOME=/c"},
		Argv: []string{"codex", "resume", "--last"}}
	sealedArgs := func(r resumerecord.Record) string {
		words := []string{old}
		for _, w := range r.Sealed(testKey).Args() {
			words = append(words, `"`+w+`"`)
		}
		words[0] = `"` + old + `"`
		return "[" + strings.Join(words, ", ") + "]"
	}
	editedArgs := sealedArgs(waiting)
	editedArgs = strings.Replace(editedArgs, "CODEX_HOME=/c", "CODEX_HOME=/tmp/evil", 1)
	raw := []byte("new_tab\n" +
		// 1: restored exact; Enter resumed it.
		`launch 'kitty-unserialize-data={"id": 1}' --cwd=/a --var=kittymux_agent=claude --var=kittymux_session=` + w4ID +
		` --var=kittymux_pid=4242 ` + old + ` --agent claude --mode exact --id ` + w4ID + ` -- claude --model sonnet --resume ` + w4ID + "\n" +
		// 2: restored exact; `n` started a new conversation in its place.
		`launch 'kitty-unserialize-data={"id": 2}' --cwd=/b --var=kittymux_agent=claude ` + old +
		` --agent claude --mode exact --id ` + w5ID + ` -- claude --resume ` + w5ID + "\n" +
		// 3: restored from a shell, the prompt still waiting for its key.
		`launch 'kitty-unserialize-data={"id": 3, "cmd_at_shell_startup": ` + sealedArgs(waiting) + `}' --cwd=/c` + "\n" +
		// 4: not a record: a program that only shares the prompt's options.
		`launch 'kitty-unserialize-data={"id": 4}' --cwd=/d /usr/bin/kittymux-resume --agent claude` + "\n" +
		// 5: a record edited by hand, its seal broken, still waiting.
		`launch 'kitty-unserialize-data={"id": 5, "cmd_at_shell_startup": ` + editedArgs + `}' --cwd=/e` + "\n" +
		// 6: a record never sealed, waiting.
		`launch 'kitty-unserialize-data={"id": 6}' --cwd=/f ` + old + ` --agent claude --mode latest -- /tmp/x/claude --continue` + "\n")
	set := shipped(t)
	fresh, _ := recognize.Argv(set, []string{"claude"})
	resumed, _ := recognize.Argv(set, []string{"claude", "--model", "sonnet", "--resume", w4ID})
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey,
		Live: []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: resumed}, {ID: 2, Cwd: "/b", Cmd: fresh}}})
	if err != nil {
		t.Fatal(err)
	}
	recs := unsealed(t, records(t, res.Data), testKey)
	want := map[int]resumerecord.Record{
		1: {Agent: "claude", Mode: "exact", ID: w4ID, Dir: "/a", Argv: []string{"claude", "--model", "sonnet", "--resume", w4ID}},
		// The conversation running now has no known id: the only claude in
		// /b resumes its latest, never the one it was restored from.
		2: {Agent: "claude", Mode: "latest", Dir: "/b", Argv: []string{"claude", "--continue"}},
		3: waiting,
	}
	if diff := cmp.Diff(want, recs); diff != "" {
		t.Errorf("records (-want +got):\n%s\n%s", diff, res.Data)
	}
	if bytes.Contains(res.Data, []byte("kittymux_pid")) {
		t.Errorf("a pid var survived:\n%s", res.Data)
	}
	if !bytes.Contains(res.Data, []byte("--cwd=/d /usr/bin/kittymux-resume --agent claude\n")) {
		t.Errorf("window 4 changed:\n%s", res.Data)
	}
	// An edited record is never sealed again: it stays byte for byte, so
	// the prompt still shows it as edited.
	for _, keep := range []string{editedArgs, old + " --agent claude --mode latest -- /tmp/x/claude --continue"} {
		if !bytes.Contains(res.Data, []byte(keep)) {
			t.Errorf("an unsealed record changed, want %s kept:\n%s", keep, res.Data)
		}
	}
	var why []string
	for _, w := range res.Windows {
		if w.WindowID >= 5 {
			why = append(why, fmt.Sprint(w.WindowID, " ", w.Mode, " ", w.Reason))
		}
	}
	wantWhy := []string{"5 as-saved its restore record is not sealed by kittymux: kept as it is",
		"6 as-saved its restore record is not sealed by kittymux: kept as it is"}
	if diff := cmp.Diff(wantWhy, why); diff != "" {
		t.Errorf("windows (-want +got):\n%s", diff)
	}
}

// TestRewriteCountsWindowsLeftOut: a save of the focused OS window only. A
// claude in the same directory in another OS window could own the newest
// conversation there, so --continue is not safe for the saved one.
func TestRewriteCountsWindowsLeftOut(t *testing.T) {
	raw := []byte("new_os_window\nnew_tab\ncd /srv\n\n" +
		`launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "claude --model opus"}'` + "\n")
	set := shipped(t)
	mine, _ := recognize.String(set, "claude --model opus")
	other, _ := recognize.String(set, "claude")
	for _, c := range []struct {
		name string
		live []live.AgentWindow
		want plan.Mode
	}{
		{"alone", []live.AgentWindow{{ID: 1, Cwd: "/srv", Cmd: mine}}, plan.ModeLatest},
		{"another claude there, not saved", []live.AgentWindow{{ID: 1, Cwd: "/srv", Cmd: mine}, {ID: 7, Cwd: "/srv", Cmd: other}}, plan.ModeChoose},
		{"another claude elsewhere", []live.AgentWindow{{ID: 1, Cwd: "/srv", Cmd: mine}, {ID: 7, Cwd: "/home", Cmd: other}}, plan.ModeLatest},
	} {
		res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Live: c.live})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Windows) != 1 || res.Windows[0].Mode != c.want {
			t.Errorf("%s: %+v, want one window, %s", c.name, res.Windows, c.want)
		}
	}
}

// TestRewriteProbes: the file's agents are probed once, and an agent whose
// help lacks its resume flag keeps its saved command.
func TestRewriteProbes(t *testing.T) {
	raw := kittytest.Fixture(t, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	var asked [][]string
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: shipped(t), ResumeBin: bin,
		Check: func(names []string) probe.Probes {
			asked = append(asked, names)
			return probe.Probes{
				"claude":   {Agent: "claude", Installed: true, Missing: []string{"--resume", "--continue"}},
				"codex":    {Agent: "codex", Installed: true, OK: true},
				"opencode": {Agent: "opencode", Installed: true, OK: true},
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"claude", "codex", "claude", "claude", "opencode"}}, asked); diff != "" {
		t.Errorf("probed (-want +got):\n%s", diff)
	}
	recs := records(t, res.Data)
	if _, ok := recs[4]; ok || !bytes.Contains(res.Data, []byte(`"cmd_at_shell_startup": "claude --resume `+w4ID+` --model sonnet"`)) {
		t.Errorf("window 4 was rewritten though claude's help lacks --resume")
	}
	if recs[2].Mode != "exact" {
		t.Errorf("codex window = %+v", recs[2])
	}
}

// TestRewriteAgentDirectory: kitty writes the directory of the foreground
// process at the moment of the save, which can be a short-lived helper the
// agent started elsewhere (copilot runs helpers in /usr/bin). The window
// comes back where the agent runs, as ls showed it, and is decided there.
func TestRewriteAgentDirectory(t *testing.T) {
	raw := []byte("new_tab\ncd /srv/web\n\n" +
		`launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "claude --model opus"}' --cwd=/usr/bin` + "\n" +
		`launch 'kitty-unserialize-data={"id": 2, "cmd_at_shell_startup": "claude"}' --cwd=/usr/bin` + "\n" +
		`launch 'kitty-unserialize-data={"id": 3, "cmd_at_shell_startup": "claude"}' --cwd=/usr/bin` + "\n")
	set := shipped(t)
	mine, _ := recognize.String(set, "claude --model opus")
	other, _ := recognize.String(set, "claude")
	started, seen := time.Unix(1_700_000_000, 0), time.Unix(1_700_003_600, 0)
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin,
		// 2 is another claude in /srv/web; 3 is a claude that really runs in
		// /usr/bin; window 1's record has no id, so it may resume the latest
		// only if it is the single claude in its directory: it is not.
		// Window 1's process started at started and was read at seen.
		Live: []live.AgentWindow{{ID: 1, Cwd: "/srv/web", Cmd: mine, Since: started, LastSeen: seen}, {ID: 2, Cwd: "/srv/web", Cmd: other}, {ID: 3, Cwd: "/usr/bin", Cmd: other}}})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Data)
	got := map[int]string{}
	modes := map[int]plan.Mode{}
	for _, w := range res.Windows {
		got[w.WindowID], modes[w.WindowID] = w.Cwd, w.Mode
	}
	if diff := cmp.Diff(map[int]string{1: "/srv/web", 2: "/srv/web", 3: "/usr/bin"}, got); diff != "" {
		t.Errorf("directories (-want +got):\n%s\n%s", diff, out)
	}
	// Two claudes in /srv/web: neither may take the latest there; the one in
	// /usr/bin may.
	if diff := cmp.Diff(map[int]plan.Mode{1: plan.ModeChoose, 2: plan.ModeChoose, 3: plan.ModeLatest}, modes); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
	// A choosing record says when its agent ran: its conversations are
	// the ones written since.
	recs := records(t, res.Data)
	if r := recs[1]; r.Since != started.Unix() || r.LastSeen != seen.Unix() {
		t.Errorf("window 1's record ran %d to %d, want %d to %d", r.Since, r.LastSeen, started.Unix(), seen.Unix())
	}
	if r := recs[2]; r.Since != 0 || r.LastSeen != 0 {
		t.Errorf("window 2's record ran %d to %d, its process's start not known", r.Since, r.LastSeen)
	}
	f, err := sessionfile.Parse(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range f.Windows() {
		if c, _ := ref.Line.Launch.Option("--cwd"); c != got[ref.Line.Launch.Unserialize.ID()] {
			t.Errorf("window %d: --cwd=%s in the file, want %s", ref.Line.Launch.Unserialize.ID(), c, got[ref.Line.Launch.Unserialize.ID()])
		}
	}
}

// TestRewriteCompoundLine: a typed line that is no plain agent command
// (`export X=1; claude ...`) would run again on restore; where the window
// runs an agent now, that agent comes back through the prompt instead.
func TestRewriteCompoundLine(t *testing.T) {
	line := "export FOO=1; claude --model opus"
	raw := []byte("new_tab\ncd /srv\n\n" +
		`launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "` + line + `"}'` + "\n")
	set := shipped(t)
	running, _ := recognize.Argv(set, []string{"claude", "--model", "opus"})
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin,
		Live: []live.AgentWindow{{ID: 1, Cwd: "/srv", Cmd: running}}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]resumerecord.Record{1: {Agent: "claude", Mode: "latest", FromShell: true, Dir: "/srv", Argv: []string{"claude", "--model", "opus", "--continue"}}}
	if diff := cmp.Diff(want, records(t, res.Data)); diff != "" {
		t.Errorf("records (-want +got):\n%s\n%s", diff, res.Data)
	}
	if bytes.Contains(res.Data, []byte("export FOO")) {
		t.Errorf("the typed line is still there:\n%s", res.Data)
	}
	res, err = rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin})
	if err != nil {
		t.Fatal(err)
	}
	// Without a live window, or what kitty listed, nothing proves the line
	// is what the window ran (a program can print it): the window comes
	// back as its shell.
	if want := "new_tab\ncd /srv\n\nlaunch 'kitty-unserialize-data={\"id\": 1}'\n"; string(res.Data) != want {
		t.Errorf("without a live window or ls:\n%s\nwant\n%s", res.Data, want)
	}
}

// TestRewriteAsSavedReport: an agent window kept as saved (a one-shot run)
// whose saved line is a reported command line that its process does not
// show loses that line: kitty would run it again on restore. One the
// process shows stays.
func TestRewriteAsSavedReport(t *testing.T) {
	set := shipped(t)
	oneShot, ok := recognize.Argv(set, []string{"claude", "-p", "hi"})
	if !ok || !oneShot.OneShot {
		t.Fatalf("claude -p is not a one-shot run: %+v", oneShot)
	}
	for _, c := range []struct {
		name, line string
		kept       bool
	}{
		{"forged", "/repo/node_modules/.bin/claude --dangerously-skip-permissions -p hi", false},
		{"what ran", "claude -p hi", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := []byte("new_tab\ncd /srv\n\n" + `launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": "` + c.line + `"}'` + "\n")
			live := []live.AgentWindow{{ID: 1, Cwd: "/srv", Cmd: oneShot, Seen: []string{"/opt/claude"}}}
			res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, Live: live})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Windows) != 1 || res.Windows[0].Mode != plan.ModeAsSaved {
				t.Fatalf("windows %+v", res.Windows)
			}
			if got := bytes.Contains(res.Data, []byte(c.line)); got != c.kept {
				t.Errorf("line kept: %v, want %v\n%s", got, c.kept, res.Data)
			}
		})
	}
}

// TestRewriteExecdRecordOffline: kitty saves a window that was launched
// with the restore prompt with the prompt's record (how it was created),
// while its ls lists the agent the prompt exec'd. The quit capture
// publishes after kitty has gone, with no live window to read: a record
// sealed here whose agent ls lists is read as that record; one not sealed
// here, or whose window runs another program now, comes back as a shell.
func TestRewriteExecdRecordOffline(t *testing.T) {
	set := shipped(t)
	rec := resumerecord.Record{Agent: "claude", Mode: "exact", ID: w4ID, Dir: "/home/u", Argv: []string{"claude", "--resume", w4ID}}
	other := bytes.Repeat([]byte{9}, resumerecord.KeySize)
	for _, c := range []struct {
		name    string
		key     []byte
		running []string
		want    bool
	}{
		{"sealed here, its agent running", testKey, rec.Argv, true},
		{"sealed here, a shell running now", testKey, []string{"/bin/bash"}, false},
		{"sealed here, another agent running", testKey, []string{"codex", "resume", codexID}, false},
		{"sealed on another machine", other, rec.Argv, false},
		{"not sealed", nil, rec.Argv, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			argv, err := rec.CommandLine(bin, c.key, set.ConfigEnv())
			if err != nil {
				t.Fatal(err)
			}
			words := make([]string, len(argv))
			for i, w := range argv {
				if words[i], err = sessionfile.QuoteWord(w); err != nil {
					t.Fatal(err)
				}
			}
			raw := tab("/home/u", win1, win2+" "+strings.Join(words, " "))
			ls := testLS(func(ws map[int]*kitty.Window) { ws[2].Cmdline = c.running })
			res, err := rewrite.Rewrite([]byte(raw), rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, LS: ls})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := records(t, res.Data)[2]
			if !c.want {
				if ok || bytes.Contains(res.Data, []byte(w4ID)) {
					t.Errorf("window 2 kept its record:\n%s", res.Data)
				}
				return
			}
			if !ok || got.Verify(testKey) != nil || got.ID != w4ID || !slices.Equal(got.Argv, rec.Argv) {
				t.Errorf("window 2: %+v, want its record sealed here:\n%s", got, res.Data)
			}
		})
	}
}

// TestRewriteRewrittenTabKeepsAgents: a tab whose lines cannot be
// accounted for (here a shell's directory holds a carriage return, which
// kitty writes raw) is written from ls, and its agent window with the agent's
// command as ls lists it: the journal's record of that process makes it
// the agent's sealed record, as kitty's own line would; without one it
// asks first. The shell stays a shell. (A quit capture, which publishes
// without the processes, lost every agent of such a tab.)
func TestRewriteRewrittenTabKeepsAgents(t *testing.T) {
	set := shipped(t)
	argv := []string{"claude", "--resume", w4ID}
	raw := tab("/home/u", win1+" '--cwd=/home/u/a\rb'", win2+" claude --resume "+w4ID)
	ls := testLS(func(ws map[int]*kitty.Window) {
		ws[1].Cwd = "/home/u/a\rb"
		ws[2].Cmdline = argv
		ws[2].ForegroundProcesses = []kitty.Process{{PID: 200, Cwd: "/home/u", Cmdline: argv}}
	})
	seen := journal.Record{Key: "k", Agent: "claude", ID: w4ID, IDFrom: journal.FromHook, KittyPID: 42, WindowID: 2,
		PID: 200, Start: "b:1", Exe: []string{"/usr/bin/claude"}, Argv: argv, Dir: "/home/u", Open: true}
	for _, c := range []struct {
		name    string
		records []journal.Record
		sealed  bool
	}{{"the journal saw it", []journal.Record{seen}, true}, {"no record of it", nil, false}} {
		t.Run(c.name, func(t *testing.T) {
			res, err := rewrite.Rewrite([]byte(raw), rewrite.Options{Agents: set, ResumeBin: bin, Key: testKey, LS: ls,
				Journal: &journal.File{Version: 1, Records: c.records}, KittyPID: 42})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "cannot all be accounted for") }) {
				t.Fatalf("the tab was not written from ls: %q\n%s", res.Warnings, res.Data)
			}
			recs := records(t, res.Data)
			got, ok := recs[2]
			if !ok || got.Agent != "claude" || (got.Verify(testKey) == nil) != c.sealed {
				t.Errorf("window 2: %+v (record %v), want claude's, sealed %v:\n%s", got, ok, c.sealed, res.Data)
			}
			if c.sealed && got.ID != w4ID {
				t.Errorf("window 2 resumes %q, want %s", got.ID, w4ID)
			}
			if _, ok := recs[1]; ok || bytes.Count(res.Data, []byte("kittymux-resume")) != 1 {
				t.Errorf("window 1 is no shell:\n%s", res.Data)
			}
		})
	}
}
