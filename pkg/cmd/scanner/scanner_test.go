package scanner_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

func TestFlags(t *testing.T) {
	type result struct {
		Once, JSON bool
		Interval   time.Duration
		Err        string
		Usage      bool
		OwnKitties bool // the scanner keeps to this kittymux's kitties
	}
	run := func(args ...string) result {
		f, _, _ := factorytest.New(t)
		var r result
		cmd := cmdscanner.NewCmdScanner(f)
		for _, c := range cmd.Commands() {
			cmd.RemoveCommand(c)
		}
		cmd.AddCommand(
			cmdscanner.NewCmdRun(f, func(o *cmdscanner.RunOptions) error { r.Interval = o.Interval; return nil }),
			cmdscanner.NewCmdPoll(f, func(o *cmdscanner.PollOptions) error { r.Once, r.JSON = o.Once, o.JSON; return nil }),
			cmdscanner.NewCmdStatus(f, func(o *cmdscanner.StatusOptions) error { r.JSON = o.JSON; return nil }))
		cmd.SetArgs(args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		if err := cmd.Execute(); err != nil {
			r.Err = err.Error()
			var fe *factory.FlagError
			r.Usage = errors.As(err, &fe)
		}
		r.OwnKitties = f.OwnKitties
		return r
	}
	got := map[string]result{
		"run":                  run("run"),
		"run --interval 500ms": run("run", "--interval", "500ms"),
		"poll --once --json":   run("poll", "--once", "--json"),
		"poll":                 run("poll"),
		"status --json":        run("status", "--json"),
	}
	want := map[string]result{
		"run":                  {Interval: 2 * time.Second, OwnKitties: true},
		"run --interval 500ms": {Interval: 500 * time.Millisecond, OwnKitties: true},
		"poll --once --json":   {Once: true, JSON: true, OwnKitties: true},
		"poll":                 {Err: "scanner poll needs --once (the loop is `kittymux scanner run`)", Usage: true},
		"status --json":        {JSON: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func newFactory(t *testing.T, fake *kittytest.Fake) (*factory.Factory, *kittytest.Buffer, *kittytest.Buffer) {
	f, out, errOut := factorytest.New(t)
	env := map[string]string{"HOME": t.TempDir()}
	f.Paths = paths.Under(env["HOME"])
	f.Getenv = func(k string) string { return env[k] }
	f.Discover = func(context.Context) ([]kitty.Instance, error) {
		return []kitty.Instance{{Addr: fake.Addr, Socket: fake.Addr.String(), Source: "--to", Version: fake.Version}}, nil
	}
	return f, out, errOut
}

// TestRunOnePerUser: `scanner run` records the fake kitty's agents, a
// second start says the first runs and exits 0, status says it runs, and a
// signal stops it with the journal and a final status written.
func TestRunOnePerUser(t *testing.T) {
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	f, _, errOut := newFactory(t, fake)
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(t.Context(), cmdscanner.RunOptions{Interval: 20 * time.Millisecond, Rescan: time.Minute,
			Signals: []os.Signal{syscall.SIGUSR1}}.From(f))
	}()
	deadline := time.Now().Add(10 * time.Second)
	var st scanner.State
	for {
		st = scanner.Current(f.Paths.StateDir)
		if st.Running && st.Status != nil && len(st.Status.Kitties) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the scanner did not come up: %+v\n%s", st, errOut)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if k := st.Status.Kitties[0]; !k.OK || k.Agents == 0 || st.Status.PID != os.Getpid() {
		t.Errorf("status: %+v %+v", st.Status, k)
	}

	f2, _, errOut2 := newFactory(t, fake)
	f2.Paths = f.Paths
	if err := cmdscanner.Run(t.Context(), cmdscanner.RunOptions{}.From(f2)); err != nil {
		t.Errorf("second start: %v", err)
	}
	if !strings.Contains(errOut2.String(), "a kittymux scanner is already running (pid ") {
		t.Errorf("second start said %q", errOut2)
	}

	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the scanner did not stop on its signal")
	}
	st = scanner.Current(f.Paths.StateDir)
	if st.Running || st.Status == nil || st.Status.Stopped == nil {
		t.Errorf("after stop: %+v", st)
	}
	jf, err := journal.New(f.Paths.Journal(), false).Read()
	if err != nil || len(jf.Records) == 0 {
		t.Fatalf("journal: %v %+v", err, jf)
	}
	for _, r := range jf.Records {
		if !r.Open || r.KittySocket != fake.Addr.String() {
			t.Errorf("record %+v", r)
		}
	}
	if !strings.Contains(errOut.String(), "stopped") {
		t.Errorf("log: %s", errOut)
	}
}

// TestPollOnce: one pass, printed as JSON; recorded in the journal when no
// scanner runs.
func TestPollOnce(t *testing.T) {
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	f, out, _ := newFactory(t, fake)
	if err := cmdscanner.Poll(t.Context(), cmdscanner.PollOptions{Once: true, JSON: true}.From(f)); err != nil {
		t.Fatal(err)
	}
	var p scanner.Pass
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	agentsSeen := map[string]int{}
	for _, s := range p.Sessions {
		agentsSeen[s.Agent]++
	}
	if len(p.Kitties) != 1 || !p.Kitties[0].OK || len(p.Sessions) == 0 || !p.Written {
		t.Errorf("pass: %s", out)
	}
	jf, err := journal.New(f.Paths.Journal(), false).Read()
	if err != nil || len(jf.Records) != len(p.Sessions) {
		t.Errorf("journal %v: %d records, %d sessions", err, len(jf.Records), len(p.Sessions))
	}
	out.Reset()
	if err := cmdscanner.Poll(t.Context(), cmdscanner.PollOptions{Once: true}.From(f)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "kitty 0.48.2  "+fake.Addr.String()+"  6 windows") {
		t.Errorf("text: %s", out)
	}
	t.Logf("agents: %v\n%s", agentsSeen, out)
}

// TestRunKittyFaults: a running scanner whose kitty answers ls with
// garbage, then not at all, keeps running and keeps the kitty's sessions
// open; `scanner status` says the kitty is failing, how many times and when
// it is tried next; once kitty answers again, status says ok.
func TestRunKittyFaults(t *testing.T) {
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	f, out, errOut := newFactory(t, fake)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(ctx, cmdscanner.RunOptions{Interval: 20 * time.Millisecond, Rescan: time.Minute}.From(f))
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	status := func() string {
		out.Reset()
		if err := cmdscanner.Status(cmdscanner.StatusOptions{}.From(f)); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	waitStatus := func(what string, cond func(string) bool) string {
		t.Helper()
		var last string
		kittytest.Eventually(t, "scanner status to say "+what, 10*time.Second, func() (bool, string) {
			last = status()
			return cond(last), last + "\nscanner log:\n" + errOut.String()
		})
		return last
	}
	waitStatus("the kitty is ok", func(s string) bool { return strings.Contains(s, "ok at ") })
	openRecords := func() int {
		jf, err := journal.New(f.Paths.Journal(), false).Read()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range jf.Records {
			if r.Open {
				n++
			}
		}
		return n
	}
	open := openRecords()
	if open == 0 {
		t.Fatal("no sessions recorded")
	}

	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	garbage := true
	var mu sync.Mutex
	fake.Hook(func(r kittytest.Request) ([]byte, bool) {
		if r.Cmd != "ls" {
			return nil, false
		}
		mu.Lock()
		g := garbage
		mu.Unlock()
		if g {
			return []byte("\x00\xffnot kitty"), true
		}
		<-release
		return nil, true
	})
	s := waitStatus("the kitty is failing", func(s string) bool { return strings.Contains(s, "failing (") })
	if !strings.Contains(s, "reply is not kitty's") || !strings.Contains(s, "next try") || !strings.Contains(s, "running, pid") {
		t.Errorf("status while kitty sends garbage:\n%s", s)
	}
	mu.Lock()
	garbage = false
	mu.Unlock()
	s = waitStatus("kitty does not answer", func(s string) bool { return strings.Contains(s, "did not answer in time") })
	if !strings.Contains(s, "failing (2 in a row)") && !strings.Contains(s, "failing (3 in a row)") {
		t.Errorf("status while kitty does not answer:\n%s", s)
	}
	if n := openRecords(); n != open {
		t.Errorf("%d sessions open while kitty failed, were %d", n, open)
	}
	fake.Hook(nil)
	waitStatus("the kitty is ok again", func(s string) bool { return strings.Contains(s, "ok at ") })
	if n := openRecords(); n != open {
		t.Errorf("%d sessions open after kitty recovered, were %d", n, open)
	}
}

// envOldScanner makes this test binary a scanner of an older kittymux: it
// holds the scanner lock of the state directory named, says in its status
// what such a scanner says of a journal of a newer version (journalError),
// and exits on SIGTERM.
const (
	envOldScanner      = "KITTYMUX_TEST_OLD_SCANNER"
	envOldJournalError = "KITTYMUX_TEST_OLD_JOURNAL_ERROR"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(envOldScanner); dir != "" {
		oldScanner(dir, os.Getenv(envOldJournalError))
	}
	os.Exit(m.Run())
}

func oldScanner(dir, journalError string) {
	lock, err := scanner.Lock(context.Background(), dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer lock.Unlock()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	now := time.Now()
	if err := scanner.WriteStatus(dir, scanner.Status{PID: os.Getpid(), Started: now, Updated: now, JournalError: journalError}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println("ready")
	select {
	case <-sigs:
		os.Exit(0)
	case <-time.After(time.Minute):
		os.Exit(3)
	}
}

// TestRunTakesOverFromOlder: a scanner of an older kittymux, which cannot
// write the journal since this one's version of it (it says so in its
// status), is stopped by `scanner run`, which then runs in its place. A
// running scanner that says anything else is left alone.
func TestRunTakesOverFromOlder(t *testing.T) {
	for _, tc := range []struct {
		name, journalError string
		takesOver          bool
	}{
		{"older", "journal /x/agent-sessions.json has version 2, this kittymux knows 1: journal was written by a newer kittymux", true},
		{"another error", "lock journal: permission denied", false},
		{"no error", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
			f, _, errOut := newFactory(t, fake)
			if err := statefile.EnsureState(f.Paths); err != nil {
				t.Fatal(err)
			}
			old := exec.Command(os.Args[0], "-test.run=^$")
			old.Env = append(os.Environ(), envOldScanner+"="+f.Paths.StateDir, envOldJournalError+"="+tc.journalError)
			out, err := old.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			old.Stderr = os.Stderr
			if err := old.Start(); err != nil {
				t.Fatal(err)
			}
			exited, gone := make(chan error, 1), make(chan struct{})
			defer func() {
				old.Process.Kill()
				<-gone
			}()
			r := bufio.NewReader(out)
			line, err := r.ReadString('\n')
			go func() {
				io.Copy(io.Discard, r)
				exited <- old.Wait()
				close(gone)
			}()
			if err != nil || line != "ready\n" {
				t.Fatalf("the older scanner said %q, %v", line, err)
			}

			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() {
				done <- cmdscanner.Run(ctx, cmdscanner.RunOptions{Interval: 20 * time.Millisecond, Rescan: time.Minute,
					Signals: []os.Signal{}}.From(f))
			}()
			if !tc.takesOver {
				select {
				case err := <-done:
					if err != nil || !strings.Contains(errOut.String(), "already running") {
						t.Errorf("run: %v, said %q", err, errOut)
					}
				case <-time.After(15 * time.Second):
					t.Fatal("run did not say another scanner runs")
				}
				select {
				case err := <-exited:
					t.Fatalf("the running scanner was stopped: %v", err)
				default:
				}
				cancel()
				return
			}
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("the older scanner: %v", err)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("the older scanner was not stopped")
			}
			deadline := time.Now().Add(10 * time.Second)
			for st := scanner.Current(f.Paths.StateDir); !st.Running || st.Status == nil || st.Status.PID != os.Getpid(); st = scanner.Current(f.Paths.StateDir) {
				if time.Now().After(deadline) {
					t.Fatalf("this scanner did not take over: %+v\n%s", st, errOut)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if !strings.Contains(errOut.String(), "is of an older kittymux") {
				t.Errorf("run said %q", errOut)
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}
