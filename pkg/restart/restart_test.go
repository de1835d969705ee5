package restart

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/recognize"
)

func TestTypeLine(t *testing.T) {
	resume := "/opt/km/kittymux-resume"
	for _, tc := range []struct {
		name, shell, dir string
		argv             []string
		want, err        string
	}{
		{name: "plain words stay bare", shell: "bash", argv: []string{resume, "--agent", "claude", "--", "/usr/bin/claude", "--resume", "abc"},
			want: "/opt/km/kittymux-resume --agent claude -- /usr/bin/claude --resume abc"},
		{name: "a title that would run a command is one word", shell: "bash", argv: []string{resume, "--tab", "x; rm -rf ~ $(id) `id`"},
			want: `/opt/km/kittymux-resume --tab 'x; rm -rf ~ $(id) ` + "`id`'"},
		{name: "a newline cannot end the line in bash", shell: "bash", argv: []string{resume, "--tab", "a\nb"},
			want: `/opt/km/kittymux-resume --tab $'a\nb'`},
		{name: "zsh reads bash's quoting", shell: "zsh", argv: []string{resume, "--tab", "it's"},
			want: `/opt/km/kittymux-resume --tab "it's"`},
		{name: "the directory first", shell: "bash", dir: "/w/my api", argv: []string{resume},
			want: "cd -- '/w/my api' && /opt/km/kittymux-resume"},
		{name: "a control character has no POSIX quoting", shell: "dash", argv: []string{resume, "--tab", "a\x1bb"},
			err: "quote"},
		{name: "fish reads a backslash in quotes its own way", shell: "fish", argv: []string{resume, "--tab", `a\b`},
			err: "fish reads"},
		{name: "fish with plain words", shell: "fish", argv: []string{resume, "--tab", "my tab"},
			want: "/opt/km/kittymux-resume --tab 'my tab'"},
		{name: "no other shell", shell: "nu", argv: []string{resume}, err: "does not type into nu"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := typeLine(tc.shell, tc.dir, tc.argv)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("typeLine = %q, %v; want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("typeLine = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestShellOf(t *testing.T) {
	for _, tc := range []struct {
		cmdline []string
		want    string
	}{
		{[]string{"/bin/bash"}, "bash"},
		{[]string{"-zsh"}, "zsh"},
		{[]string{"/usr/bin/fish", "--login"}, "fish"},
		{[]string{"/bin/bash", "-c", "claude; exec bash"}, ""},
		{[]string{"/bin/sh", "/home/u/start-agent.sh"}, ""},
		{[]string{"/usr/bin/tmux"}, ""},
		{nil, ""},
	} {
		got, err := shellOf(kitty.Window{Cmdline: tc.cmdline})
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("shellOf(%q) = %q, %v; want %q", tc.cmdline, got, err, tc.want)
		}
	}
}

const (
	uuid1 = "a21e57a7-5c1d-4b7a-9e0f-2d5c8a1b6e21"
	uuid2 = "a21e57a8-5b6a-4c3d-8e2f-1a0b9c8d7e21"
)

// bin is a directory holding files named as the agents (what a process
// executes must exist to be recognised).
var bin = sync.OnceValue(func() string {
	dir, err := os.MkdirTemp("", "restart-test-bin-")
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"claude", "codex", "vim"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			panic(err)
		}
	}
	return dir
})

func TestMain(m *testing.M) {
	code := m.Run()
	_ = os.RemoveAll(bin())
	os.Exit(code)
}

// window is a kitty window of shell pid 100+id running argv (its program
// in bin) as pid 200+id, in /w/<id>; direct: argv is the window's own
// process.
func window(id int, title string, direct bool, argv ...string) kitty.Window {
	argv = append([]string{filepath.Join(bin(), strings.TrimPrefix(argv[0], "/usr/bin/"))}, argv[1:]...)
	cwd := "/w/" + string(rune('a'+id))
	w := kitty.Window{ID: id, Title: title, PID: 100 + id, Cwd: cwd, Cmdline: []string{"/bin/bash"}}
	agent := kitty.Process{PID: 200 + id, Cmdline: argv, Cwd: cwd}
	if direct {
		w.PID, w.Cmdline = agent.PID, argv
	}
	w.ForegroundProcesses = []kitty.Process{agent}
	return w
}

// readFrom reads the processes of ls as the OS would show them: each
// agent process a child of its window's shell (or kitty's, started
// directly), executing the file its argv names.
func readFrom(ls func() []kitty.OSWindow) live.ProcReader {
	return func(pid int) (recognize.Proc, bool) {
		for _, ref := range kitty.Windows(ls()) {
			for _, p := range ref.Window.ForegroundProcesses {
				if p.PID == pid {
					ppid := ref.Window.PID
					if ppid == pid {
						ppid = 1
					}
					return recognize.Proc{PID: pid, PPID: ppid, PGID: pid, Exe: p.Cmdline[0], Argv: p.Cmdline, Cwd: p.Cwd}, true
				}
			}
		}
		return recognize.Proc{}, false
	}
}

func loadSet(t *testing.T) *agents.Set {
	t.Helper()
	set, err := agents.Load(filepath.Join(t.TempDir(), "none.json"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestPlan(t *testing.T) {
	set := loadSet(t)
	ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Title: "work", Windows: []kitty.Window{
		window(1, "✳ api", false, "/usr/bin/claude", "--resume", uuid1),
		window(2, "⠂ web", false, "/usr/bin/claude", "--resume", uuid2),
		window(3, "✳ new", false, "/usr/bin/claude"),
		window(4, "codex", true, "/usr/bin/codex", "resume", uuid2),
		window(5, "bash", false, "/usr/bin/vim"),
	}}}}}
	in := kitty.Instance{Socket: "unix:/k"}
	plan := func(o PlanOptions) map[int]string {
		o.Agents = set
		o.Read = readFrom(func() []kitty.OSWindow { return ls })
		o.Records = live.Records{ProcRoot: t.TempDir(), Getenv: func(string) string { return "" }}
		got := map[int]string{}
		for _, tg := range Plan([]Kitty{{Instance: in, LS: ls}}, o) {
			why := tg.Skip
			if i := strings.Index(why, ":"); i > 0 {
				why = why[:i]
			}
			got[tg.Window.ID] = tg.Decision.ID + " " + why
		}
		return got
	}
	want := map[int]string{
		1: uuid1 + " ",
		2: uuid2 + " the agent is working (--all restarts it anyway)",
		3: " no exact conversation id",
		4: uuid2 + " ",
	}
	if diff := cmp.Diff(want, plan(PlanOptions{})); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	want[2] = uuid2 + " "
	if diff := cmp.Diff(want, plan(PlanOptions{Working: true})); diff != "" {
		t.Errorf("--all (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[int]string{4: uuid2 + " "}, plan(PlanOptions{Agent: "codex"})); diff != "" {
		t.Errorf("--agent codex (-want +got):\n%s", diff)
	}
	// The journal's state counts: an idle title of an agent it knows works.
	jf := &journal.File{Records: []journal.Record{{Agent: "claude", ID: uuid1, Open: true, WindowID: 1, PID: 201,
		State: agents.StateWorking, KittySocket: "unix:/k"}}}
	if got := plan(PlanOptions{Journal: jf})[1]; got != uuid1+" the agent is working (--all restarts it anyway)" {
		t.Errorf("with the journal: window 1 %q", got)
	}
}

// fakeKitty is a kitty for the runner: ls answers from windows, whose
// agents end as procs says.
type fakeKitty struct {
	mu    sync.Mutex
	ls    func() []kitty.OSWindow
	sent  []string
	calls []string
	// onSend is told each text typed.
	onSend func(text string)
}

func (k *fakeKitty) LS(context.Context) ([]kitty.OSWindow, error) { return k.ls(), nil }
func (k *fakeKitty) LSRaw(context.Context) ([]byte, error)        { return json.Marshal(k.ls()) }
func (k *fakeKitty) SendText(_ context.Context, match, text string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sent = append(k.sent, match+" "+text)
	if k.onSend != nil {
		k.onSend(text)
	}
	return nil
}
func (k *fakeKitty) GetText(context.Context, string, string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return strings.Join(k.sent, "\n"), nil
}
func (k *fakeKitty) Do(_ context.Context, cmd string, p any, _ bool) (json.RawMessage, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls = append(k.calls, cmd)
	if cmd == "launch" {
		return json.RawMessage(`"9"`), nil
	}
	return nil, nil
}

// fakeProcs are agent processes that end on the signals in endsOn.
type fakeProcs struct {
	mu     sync.Mutex
	endsOn map[int][]syscall.Signal
	gone   map[int]bool
	got    []string
}

func (p *fakeProcs) Signal(id procid.ID, sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = append(p.got, agents.SignalName(sig))
	for _, s := range p.endsOn[id.PID] {
		if s == sig {
			p.gone[id.PID] = true
		}
	}
	return nil
}

func (p *fakeProcs) Alive(id procid.ID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.gone[id.PID]
}

// fakeStart is a start for each fake pid.
func fakeStart(pid int) string { return "s" + strconv.Itoa(pid) }

func TestRunnerEnds(t *testing.T) {
	set := loadSet(t)
	for _, tc := range []struct {
		name    string
		w       kitty.Window
		endsOn  []syscall.Signal
		signals []string
		sent    []string
		outcome string
		how     string
	}{
		{name: "claude on SIGINT", w: window(1, "", false, "/usr/bin/claude", "--resume", uuid1),
			endsOn: []syscall.Signal{syscall.SIGINT}, signals: []string{"SIGINT"}, outcome: Restarted, how: "ended with SIGINT"},
		{name: "claude ignoring SIGINT", w: window(1, "", false, "/usr/bin/claude", "--resume", uuid1),
			endsOn: []syscall.Signal{syscall.SIGTERM}, signals: []string{"SIGINT", "SIGTERM"}, outcome: Restarted,
			how: "did not end with SIGINT: ended with SIGTERM"},
		{name: "codex on /quit", w: window(1, "", false, "/usr/bin/codex", "resume", uuid1),
			sent: []string{"id:1 /quit", "id:1 \x1b[13u"}, outcome: Restarted, how: "ended with typed /quit"},
		{name: "an agent that never ends", w: window(1, "", true, "/usr/bin/claude", "--resume", uuid1),
			signals: []string{"SIGINT", "SIGTERM", "SIGKILL"}, outcome: Failed, how: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			procs := &fakeProcs{endsOn: map[int][]syscall.Signal{201: tc.endsOn}, gone: map[int]bool{}}
			fk := &fakeKitty{}
			fk.onSend = func(text string) {
				// codex ends on Enter after /quit.
				if text == "\x1b[13u" && len(fk.sent) > 1 && fk.sent[len(fk.sent)-2] == "id:1 /quit" {
					procs.mu.Lock()
					procs.gone[201] = true
					procs.mu.Unlock()
				}
			}
			fk.ls = func() []kitty.OSWindow {
				w := tc.w
				if procs.Alive(procid.ID{PID: 201}) {
					// still the agent
				} else if w.PID == 201 {
					w.ID = 9 // the overlay in its place
					w.ForegroundProcesses = []kitty.Process{{PID: 301, Cmdline: w.Cmdline}}
				} else {
					w.ForegroundProcesses = []kitty.Process{{PID: w.PID, Cmdline: []string{"/bin/bash"}}}
					if len(fk.sent) > 0 && strings.Contains(fk.sent[len(fk.sent)-1], "kittymux-resume") {
						w.ForegroundProcesses = append(w.ForegroundProcesses, kitty.Process{PID: 301, Cmdline: tc.w.ForegroundProcesses[0].Cmdline})
					}
				}
				return []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{w}}}}}
			}
			ts := Plan([]Kitty{{Instance: kitty.Instance{Socket: "unix:/k"}, LS: fk.ls()}}, PlanOptions{Agents: set, Read: readFrom(fk.ls), Start: fakeStart,
				Records: live.Records{ProcRoot: t.TempDir(), Getenv: func(string) string { return "" }}})
			if len(ts) != 1 || ts[0].Skip != "" {
				t.Fatalf("plan: %+v", ts)
			}
			r := &Runner{Client: func(kitty.Instance) Client { return fk }, Procs: procs, ResumeBin: "/opt/km/kittymux-resume",
				Self: "/opt/km/kittymux", Agents: set, Key: make([]byte, 32), Poll: time.Millisecond,
				Bounds: Bounds{Clean: 20 * time.Millisecond, Term: 20 * time.Millisecond, Kill: 20 * time.Millisecond, Start: time.Second}}
			res := r.Run(t.Context(), ts, false)[0]
			if res.Outcome != tc.outcome || !strings.HasPrefix(res.How, tc.how) {
				t.Errorf("result %+v; want %s, how %q", res, tc.outcome, tc.how)
			}
			if diff := cmp.Diff(tc.signals, procs.got); diff != "" {
				t.Errorf("signals (-want +got):\n%s", diff)
			}
			var quit []string
			for _, s := range fk.sent {
				if !strings.Contains(s, "kittymux-resume") {
					quit = append(quit, s)
				}
			}
			if diff := cmp.Diff(tc.sent, quit); diff != "" {
				t.Errorf("typed (-want +got):\n%s", diff)
			}
			if tc.outcome == Failed && tc.w.PID == 201 && !strings.Contains(strings.Join(fk.calls, " "), "close-window") {
				t.Errorf("the overlay of an agent that did not end stays: %v", fk.calls)
			}
			if tc.outcome == Restarted && res.NewPID != 301 {
				t.Errorf("new pid %d, want 301", res.NewPID)
			}
		})
	}
}

func TestWaitExecRunsOnlyTheRestorePrompt(t *testing.T) {
	for _, argv := range [][]string{nil, {"/bin/sh", "-c", "id"}, {"kittymux-resume", "--"}} {
		if err := WaitExec(t.Context(), procid.Of(os.Getpid()), argv, time.Millisecond); err == nil || errors.Is(err, context.Canceled) {
			t.Errorf("WaitExec(%q) = %v, want a refusal", argv, err)
		}
	}
}
