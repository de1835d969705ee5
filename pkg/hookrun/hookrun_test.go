package hookrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/lease"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// Payloads as the agents send them: field names from their docs and, where
// the docs were thin, from the installed CLIs' bundles (claude 2.1.197's
// hook input builder, gemini 0.61.0's createBaseInput, droid's Stop and
// UserPromptSubmit inputs). Only session_id, cwd and source are read.
var payloads = map[string]map[string]string{
	"claude": {
		"SessionStart":     `{"session_id":"9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b","transcript_path":"/home/u/.claude/projects/-home-u-api/9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b.jsonl","cwd":"/home/u/api","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-4-5","permission_mode":"default","agent_type":"main"}`,
		"UserPromptSubmit": `{"session_id":"9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b","transcript_path":"/home/u/.claude/projects/-home-u-api/9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b.jsonl","cwd":"/home/u/api","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"fix the failing test","session_title":"api"}`,
		"Stop":             `{"session_id":"9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b","transcript_path":"/home/u/.claude/projects/-home-u-api/9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b.jsonl","cwd":"/home/u/api","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done: the test passes."}`,
		"clear":            `{"session_id":"1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6","transcript_path":"/home/u/.claude/projects/-home-u-api/1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6.jsonl","cwd":"/home/u/api","hook_event_name":"SessionStart","source":"clear"}`,
	},
	"codex": {
		"SessionStart":     `{"session_id":"019d036d-c7fa-72d2-b6fd-78878bfe34e4","transcript_path":"/home/u/.codex/sessions/2026/12/01/rollout-2026-12-01T02-00-00-019d036d-c7fa-72d2-b6fd-78878bfe34e4.jsonl","cwd":"/home/u/api","hook_event_name":"SessionStart","model":"gpt-5-codex","source":"startup"}`,
		"UserPromptSubmit": `{"session_id":"019d036d-c7fa-72d2-b6fd-78878bfe34e4","turn_id":"019d036e-3164-72c3-a170-98925564c4fc","transcript_path":null,"cwd":"/home/u/api","hook_event_name":"UserPromptSubmit","model":"gpt-5-codex","prompt":"hello"}`,
		"Stop":             `{"session_id":"019d036d-c7fa-72d2-b6fd-78878bfe34e4","turn_id":"019d036e-3164-72c3-a170-98925564c4fc","transcript_path":null,"cwd":"/home/u/api","hook_event_name":"Stop","model":"gpt-5-codex","stop_hook_active":false,"last_assistant_message":"Aloha!"}`,
	},
	"gemini": {
		"SessionStart": `{"session_id":"c0ffee00-1234-4abc-9def-0123456789ab","transcript_path":"","cwd":"/home/u/api","hook_event_name":"SessionStart","timestamp":"2026-12-01T02:00:00.000Z","source":"startup"}`,
		"BeforeAgent":  `{"session_id":"c0ffee00-1234-4abc-9def-0123456789ab","transcript_path":"/home/u/.gemini/tmp/api/chats/session-2026-12-01T02-00-c0ffee00.json","cwd":"/home/u/api","hook_event_name":"BeforeAgent","timestamp":"2026-12-01T02:00:05.000Z","prompt":"explain this"}`,
		"AfterAgent":   `{"session_id":"c0ffee00-1234-4abc-9def-0123456789ab","transcript_path":"/home/u/.gemini/tmp/api/chats/session-2026-12-01T02-00-c0ffee00.json","cwd":"/home/u/api","hook_event_name":"AfterAgent","timestamp":"2026-12-01T02:01:05.000Z","prompt":"explain this","prompt_response":"It is...","stop_hook_active":false}`,
	},
	"qodercli": {
		"SessionStart":     `{"session_id":"abc-123","cwd":"/home/u/api","hook_event_name":"SessionStart","source":"startup"}`,
		"UserPromptSubmit": `{"session_id":"abc-123","cwd":"/home/u/api","hook_event_name":"UserPromptSubmit","prompt":"go"}`,
		"Stop":             `{"session_id":"abc-123","cwd":"/home/u/api","hook_event_name":"Stop","stop_hook_active":false}`,
	},
	"droid": {
		"SessionStart":     `{"session_id":"5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6","transcript_path":"/home/u/.factory/sessions/-home-u-api/5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6.jsonl","cwd":"/home/u/api","permission_mode":"auto-low","hook_event_name":"SessionStart","source":"startup"}`,
		"UserPromptSubmit": `{"session_id":"5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6","transcript_path":"/home/u/.factory/sessions/-home-u-api/5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6.jsonl","cwd":"/home/u/api","permission_mode":"auto-low","hook_event_name":"UserPromptSubmit","message_id":"m1","prompt":"go","has_images":false}`,
		"Stop":             `{"session_id":"5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6","transcript_path":"/home/u/.factory/sessions/-home-u-api/5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6.jsonl","cwd":"/home/u/api","permission_mode":"auto-low","hook_event_name":"Stop","message_id":"m2","stop_hook_active":false,"tool_execution_count":3}`,
	},
}

var t0 = time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC)

// setup gives options for a hook in window 4 of kitty 777, run by agent
// process 4242 through a shell (as claude runs a hook's command).
func setup(t *testing.T, env map[string]string) (Options, *clock.Fake, *[][]string) {
	t.Helper()
	c := clock.NewFake(t0)
	base := map[string]string{"KITTY_WINDOW_ID": "4", "KITTY_PID": "777", "KITTY_LISTEN_ON": "unix:/tmp/kitty-777"}
	for k, v := range env {
		base[k] = v
	}
	var mu sync.Mutex
	var calls [][]string
	o := Options{
		Paths:  paths.Under(t.TempDir()),
		Getenv: func(k string) string { return base[k] },
		Clock:  c,
		Ancestors: func(stop int) []Proc {
			return []Proc{{4300, "sh"}, {4242, "claude"}, {4000, "bash"}}
		},
		SetUserVars: func(_ context.Context, a kitty.Address, match string, vars []string) error {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, append([]string{a.String(), match}, vars...))
			return nil
		},
	}
	return o, c, &calls
}

func readJournal(t *testing.T, o Options) []journal.Record {
	t.Helper()
	f, err := journal.New(o.Paths.Journal(), false).Read()
	if err != nil {
		t.Fatal(err)
	}
	return f.Records
}

func TestEventsPerAgent(t *testing.T) {
	for _, tc := range []struct {
		agent          string
		events         []string // each a minute after the one before
		wantID, wantSt string
		wantRuns       int
		wantWorking    float64
	}{
		{"claude", []string{"SessionStart", "UserPromptSubmit", "Stop", "UserPromptSubmit", "Stop"}, "9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b", "idle", 2, 120},
		{"codex", []string{"SessionStart", "UserPromptSubmit", "Stop"}, "019d036d-c7fa-72d2-b6fd-78878bfe34e4", "idle", 1, 60},
		{"gemini", []string{"SessionStart", "BeforeAgent", "AfterAgent", "BeforeAgent"}, "c0ffee00-1234-4abc-9def-0123456789ab", "working", 1, 60},
		{"qodercli", []string{"SessionStart", "UserPromptSubmit"}, "abc-123", "working", 0, 0},
		{"droid", []string{"SessionStart", "UserPromptSubmit", "Stop"}, "5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6", "idle", 1, 60},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			o, c, calls := setup(t, nil)
			for i, ev := range tc.events {
				c.Set(t0.Add(time.Duration(i) * time.Minute))
				if _, err := Run(context.Background(), o, tc.agent, ev, strings.NewReader(payloads[tc.agent][ev])); err != nil {
					t.Fatalf("%s: %v", ev, err)
				}
			}
			recs := readJournal(t, o)
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1: %+v", len(recs), recs)
			}
			r := recs[0]
			last := t0.Add(time.Duration(len(tc.events)-1) * time.Minute)
			want := journal.Record{Key: "unix:/tmp/kitty-777|777|4|4242", Agent: tc.agent, ID: tc.wantID, IDFrom: "hook",
				Dir: "/home/u/api", Argv: []string{}, FirstSeen: t0, LastSeen: last, State: tc.wantSt, StateFrom: "hook",
				RunsFinished: tc.wantRuns, WorkingSeconds: tc.wantWorking, Open: true, HookAt: &last,
				KittyPID: 777, KittySocket: "unix:/tmp/kitty-777", WindowID: 4, PID: 4242}
			if diff := cmp.Diff(want, r, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".StateSince" }, cmp.Ignore())); diff != "" {
				t.Errorf("record (-want +got):\n%s", diff)
			}
			wantVars := []string{"unix:/tmp/kitty-777", "id:4", "kittymux_agent=" + tc.agent, "kittymux_session=" + tc.wantID, "kittymux_pid=4242"}
			if len(*calls) != len(tc.events) || !cmp.Equal((*calls)[0], wantVars) {
				t.Errorf("set-user-vars calls: %q, want %d of %q", *calls, len(tc.events), wantVars)
			}
		})
	}
}

func TestClearStartsANewConversationInTheSameRecord(t *testing.T) {
	o, c, _ := setup(t, nil)
	for i, ev := range []string{"SessionStart", "UserPromptSubmit", "Stop", "clear"} {
		c.Set(t0.Add(time.Duration(i) * time.Minute))
		name := ev
		if ev == "clear" {
			name = "SessionStart"
		}
		if _, err := Run(context.Background(), o, "claude", name, strings.NewReader(payloads["claude"][ev])); err != nil {
			t.Fatal(err)
		}
	}
	r := readJournal(t, o)[0]
	if r.ID != "1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6" || !cmp.Equal(r.PreviousIDs, []string{"9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b"}) {
		t.Errorf("id %s previous %v", r.ID, r.PreviousIDs)
	}
}

func TestHookUpdatesTheScannersRecord(t *testing.T) {
	o, _, _ := setup(t, nil)
	// The scanner keyed the window by the node process (pid 4000 here is
	// codex's node wrapper, which the hook cannot tell from a shell by
	// name); the hook finds it among its ancestors.
	o.Ancestors = func(int) []Proc { return []Proc{{4300, "codex"}, {4000, "node"}, {3900, "bash"}} }
	key := journal.Key("unix:/tmp/kitty-777", 777, 4, 4000)
	_, err := journal.New(o.Paths.Journal(), false).Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: key, Agent: "codex", Argv: []string{"codex", "--model", "o3"}, Open: true, State: "unknown",
			FirstSeen: t0.Add(-time.Hour), LastSeen: t0, KittyPID: 777, KittySocket: "unix:/tmp/kitty-777", WindowID: 4, PID: 4000})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), o, "codex", "SessionStart", strings.NewReader(payloads["codex"]["SessionStart"]))
	if err != nil {
		t.Fatal(err)
	}
	recs := readJournal(t, o)
	if len(recs) != 1 || res.Key != key || recs[0].ID != "019d036d-c7fa-72d2-b6fd-78878bfe34e4" || !cmp.Equal(recs[0].Argv, []string{"codex", "--model", "o3"}) {
		t.Errorf("key %s, records %+v", res.Key, recs)
	}
}

func TestBadInputAndNoKitty(t *testing.T) {
	for _, tc := range []struct {
		name, agent, event, in string
		env                    map[string]string
		want                   error
	}{
		{"garbage stdin", "claude", "Stop", "\x00\xffnot json", nil, nil},
		{"empty stdin", "claude", "Stop", "", nil, nil},
		{"no kitty", "claude", "Stop", payloads["claude"]["Stop"], map[string]string{"KITTY_WINDOW_ID": ""}, ErrNoWindow},
		{"option as id", "claude", "Stop", `{"session_id":"--dangerously-skip-permissions"}`, nil, ErrBadID},
		{"unknown event", "claude", "PreToolUse", `{}`, nil, ErrUnknownEvt},
		{"agent not a word", "../x", "Stop", `{}`, nil, ErrBadAgent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, _, calls := setup(t, tc.env)
			_, err := Run(context.Background(), o, tc.agent, tc.event, strings.NewReader(tc.in))
			if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if _, serr := os.Stat(o.Paths.Journal()); !os.IsNotExist(serr) || len(*calls) > 0 {
				t.Errorf("something was recorded: journal %v, vars %q", serr, *calls)
			}
		})
	}
}

// TestMain lets the test binary be `kittymux hook` for the process tests.
func TestMain(m *testing.M) {
	if os.Getenv("HOOK_HELPER") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, lease.Move))
	}
	if pid := os.Getenv("KITTYMUX_TTY_HELPER_PID"); pid != "" {
		os.Exit(writeToAgentTTY(pid))
	}
	os.Exit(m.Run())
}

func runMain(t *testing.T, state string, env []string, stdin string, args ...string) (int, time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "HOOK_HELPER=1", "XDG_STATE_HOME="+state)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), d
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, d
}

func TestMainExitsZeroOnAnyError(t *testing.T) {
	unwritable := t.TempDir()
	// A state directory that is a file: nothing can be written under it.
	if err := os.WriteFile(filepath.Join(unwritable, "kittymux"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	kittyEnv := []string{"KITTY_WINDOW_ID=4", "KITTY_PID=1", "KITTY_LISTEN_ON=unix:/nonexistent/kitty"}
	for _, tc := range []struct {
		name  string
		state string
		env   []string
		in    string
		args  []string
	}{
		{"garbage", t.TempDir(), kittyEnv, "garbage", []string{"claude", "Stop"}},
		{"no args", t.TempDir(), kittyEnv, "", nil},
		{"no kitty", t.TempDir(), []string{"KITTY_WINDOW_ID="}, payloads["claude"]["Stop"], []string{"claude", "Stop"}},
		{"unwritable state", unwritable, kittyEnv, payloads["claude"]["Stop"], []string{"claude", "Stop"}},
		{"kitty gone", t.TempDir(), kittyEnv, payloads["claude"]["Stop"], []string{"claude", "Stop"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _ := runMain(t, tc.state, tc.env, tc.in, tc.args...); code != 0 {
				t.Errorf("exit %d, want 0", code)
			}
			if tc.state == unwritable {
				return
			}
			if tc.name == "no kitty" {
				// Outside kitty there is nothing to do, and nothing to log.
				if _, err := os.Stat(filepath.Join(tc.state, "kittymux", paths.HookLogName)); !os.IsNotExist(err) {
					t.Errorf("logged outside kitty: %v", err)
				}
				return
			}
			log, err := os.ReadFile(filepath.Join(tc.state, "kittymux", paths.HookLogName))
			if err != nil || len(log) == 0 {
				t.Errorf("no log of the error: %v", err)
			}
		})
	}
}

func TestEightHooksAtOnceLoseNothing(t *testing.T) {
	state := t.TempDir()
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.26.5-ls.json")})
	var wg sync.WaitGroup
	for w := 1; w <= 8; w++ {
		wg.Go(func() {
			env := []string{"KITTY_WINDOW_ID=" + strconv.Itoa(w), "KITTY_PID=999999", "KITTY_LISTEN_ON=" + fake.Addr.String()}
			in := strings.Replace(payloads["claude"]["SessionStart"], "9f3c2b1a", "0000000"+strconv.Itoa(w), 1)
			if code, _ := runMain(t, state, env, in, "claude", "SessionStart"); code != 0 {
				t.Errorf("window %d: exit %d", w, code)
			}
		})
	}
	wg.Wait()
	f, err := journal.New(filepath.Join(state, "kittymux", "agent-sessions.json"), false).Read()
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, r := range f.Records {
		got[r.WindowID] = r.ID
	}
	if len(got) != 8 {
		log, _ := os.ReadFile(filepath.Join(state, "kittymux", paths.HookLogName))
		t.Fatalf("%d windows recorded, want 8: %v\nlog:\n%s", len(got), got, log)
	}
	sets := 0
	for _, r := range fake.Requests() {
		if r.Cmd == "set-user-vars" {
			sets++
		}
	}
	if sets != 8 {
		t.Errorf("%d set-user-vars requests, want 8", sets)
	}
}

func TestLogIsBounded(t *testing.T) {
	p := paths.Under(t.TempDir())
	line := strings.Repeat("x", 1000)
	for range 200 {
		Log(p, t0, line)
	}
	fi, err := os.Stat(filepath.Join(p.StateDir, paths.HookLogName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > MaxLog || fi.Size() < MaxLog/4 {
		t.Errorf("log is %d bytes, want at most %d and not emptied", fi.Size(), MaxLog)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v", fi.Mode().Perm())
	}
}

// TestClearMovesTheLease: the prompt leased the conversation to the agent
// (a live process here: a lease whose holder is gone is free); /clear
// starts another in the same process, and the hook's SessionStart moves
// the lease with it.
func TestClearMovesTheLease(t *testing.T) {
	o, _, _ := setup(t, nil)
	agent := exec.Command("sleep", "60")
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = agent.Process.Kill(); _ = agent.Wait() })
	pid := agent.Process.Pid
	o.Ancestors = func(int) []Proc { return []Proc{{4300, "sh"}, {pid, "claude"}, {4000, "bash"}} }
	o.MoveLease = lease.Move
	l, _, err := lease.Take(o.Paths.StateDir, lease.Holder{Agent: "claude", ID: "9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b", PID: pid, WindowID: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if _, err := Run(context.Background(), o, "claude", "SessionStart", strings.NewReader(payloads["claude"]["clear"])); err != nil {
		t.Fatal(err)
	}
	if h := lease.Find(o.Paths.StateDir, "claude", "1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6"); h == nil || h.PID != pid {
		t.Errorf("the new conversation's lease: %+v", h)
	}
	if h := lease.Find(o.Paths.StateDir, "claude", "9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b"); h != nil {
		t.Errorf("the old conversation is still leased: %+v", h)
	}
}

// writeToAgentTTY is the hook's side of TestTTYOfAgent, run as its own
// process (TestMain) in a session without a terminal.
func writeToAgentTTY(pid string) int {
	n, _ := strconv.Atoi(pid)
	w, err := agentTTY([]int{n})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer w.Close()
	if _, err := w.Write([]byte("hint")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestPiReportsItsArgv: pi sets its process title, so its integration
// sends the argv it started with; the hook keeps it for pi's process (its
// pid and start) on a session start, before the journal, and not on other
// events, nor with the journal off.
func TestPiReportsItsArgv(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux's readers of processes take a reported argv")
	}
	o, _, _ := setup(t, nil)
	o.Ancestors = func(int) []Proc { return []Proc{{4242, "pi"}, {4000, "bash"}} }
	o.Start = func(pid int) string { return "boot:" + strconv.Itoa(pid) }
	pi := func(event, argv string) string {
		return `{"session_id":"01a23cf1-50ff-7213-94e8-4cce4f7df62d","cwd":"/home/u/api","hook_event_name":"` + event + `","argv":` + argv + `}`
	}
	// A key on the command line is never kept.
	started := []string{"/usr/bin/node", "/usr/lib/node_modules/.bin/pi", "--model", "x/y", "Remember ORCHID"}
	argvJSON := `["/usr/bin/node","/usr/lib/node_modules/.bin/pi","-k","sk-1","--model","x/y","--api-key=sk-2","-ksk-3","--api-key","sk-4","Remember ORCHID"]`
	res, err := Run(context.Background(), o, "pi", "SessionStart", strings.NewReader(pi("SessionStart", argvJSON)))
	if err != nil || res.AgentPID != 4242 {
		t.Fatalf("SessionStart: %+v %v", res, err)
	}
	id := procid.ID{PID: 4242, Start: "boot:4242"}
	if got, ok := procid.ReadArgv(o.Paths.StateDir, id); !ok || !cmp.Equal(got, started) {
		t.Errorf("kept %q %v, want %q", got, ok, started)
	}
	if _, err := Run(context.Background(), o, "pi", "Stop", strings.NewReader(pi("Stop", `["/usr/bin/node","/x.js","--evil"]`))); err != nil {
		t.Fatal(err)
	}
	if got, _ := procid.ReadArgv(o.Paths.StateDir, id); !cmp.Equal(got, started) {
		t.Errorf("a Stop replaced the argv: %q", got)
	}
	// A bad argv is an error in the log, and the event is still recorded.
	res, err = Run(context.Background(), o, "pi", "SessionStart", strings.NewReader(pi("SessionStart", `["a\u0000b"]`)))
	if err == nil || res.Key == "" {
		t.Errorf("a NUL in the argv: %+v %v, want an error and the event recorded", res, err)
	}

	// Not kept with the journal off, nor for a hook with no pi above it
	// (another agent's process would get pi's argv).
	for name, ancestors := range map[string][]Proc{"journal off": {{4242, "pi"}, {4000, "bash"}}, "no pi": {{4300, "sh"}, {4242, "claude"}, {4000, "bash"}}} {
		o, _, _ = setup(t, nil)
		o.Ancestors = func(int) []Proc { return ancestors }
		o.Start = func(pid int) string { return "boot:" + strconv.Itoa(pid) }
		o.JournalOff = name == "journal off"
		_, _ = Run(context.Background(), o, "pi", "SessionStart", strings.NewReader(pi("SessionStart", argvJSON)))
		if _, err := os.Stat(filepath.Join(o.Paths.StateDir, procid.ArgvDirName)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s, yet argv kept: %v", name, err)
		}
	}
}
