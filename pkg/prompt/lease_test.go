package prompt_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestOneConversationOneWindow: two restored windows hold the same record.
// The first resumes it, and the agent it execs holds the lease; the second
// says where the conversation is open and offers a new one or a shell. Once
// the first agent exits, the conversation can be resumed again. Real
// processes throughout: the prompt binary, its exec, the fake agent.
func TestOneConversationOneWindow(t *testing.T) {
	w := newWorld(t)
	w.extraEnv = []string{"KITTY_PID=4242", "KITTY_LISTEN_ON=unix:/tmp/kitty-4242", "KITTY_WINDOW_ID=1"}
	args := w.seal(claudeRecord())
	resume := []string{"claude", "--model", "sonnet", "--resume", uuid}

	// Window 1 resumes, and its agent keeps running.
	first := exec.Command(w.bin, args...)
	first.Env, first.Dir = w.env(), w.cwd
	tty, err := pty.Start(first)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	asked := make(chan struct{})
	go func() {
		var seen []byte
		waiting := true
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			if waiting {
				seen = append(seen, buf[:n]...)
				if strings.Contains(string(seen), "i commands") {
					close(asked)
					waiting = false
				}
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = first.Process.Kill(); _ = first.Wait() })
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("window 1 did not ask")
	}
	if _, err := tty.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	recs := w.log.WaitFor(t, 1, 10*time.Second)
	if diff := cmp.Diff(resume, append([]string{recs[0].Name}, recs[0].Args...)); diff != "" {
		t.Fatalf("window 1 ran (-want +got):\n%s", diff)
	}
	if recs[0].PID != first.Process.Pid {
		t.Fatalf("the agent (pid %d) is not the prompt's process (%d): no exec", recs[0].PID, first.Process.Pid)
	}

	// Window 2 is asked for the same conversation.
	w.extraEnv = []string{"KITTY_PID=4242", "KITTY_LISTEN_ON=unix:/tmp/kitty-4242", "KITTY_WINDOW_ID=2"}
	before := len(w.log.Records())
	r := kittytest.RunPTY(t, kittytest.PTYOptions{Path: w.bin, Args: args, Env: w.env(), Dir: w.cwd,
		WaitFor: "n new conversation   s shell", Keys: []string{"n"}, Done: func() bool { return len(w.log.Records()) > before }})
	wantWhere := `claude conversation 3e8b5c17 is already open in kitty 4242 (unix:/tmp/kitty-4242), tab "api work", window 1, process `
	if !strings.Contains(r.Out, wantWhere) {
		t.Errorf("window 2 does not say where it is open:\n%s", r.Out)
	}
	got := w.log.Records()[before:]
	if len(got) != 1 || !cmp.Equal(append([]string{got[0].Name}, got[0].Args...), []string{"claude", "--model", "sonnet"}) {
		t.Errorf("window 2 ran %+v, want a new conversation", got)
	}

	// With no terminal to ask, the second window opens a shell.
	before = len(w.log.Records())
	out, _ := w.runNoTerminal(args, nil)
	got = w.log.Records()[before:]
	if len(got) != 1 || got[0].Name != "-fakesh" || !strings.Contains(out, "already open in kitty 4242") {
		t.Errorf("no terminal: ran %+v, said:\n%s", got, out)
	}

	// The first agent exits: its lease goes with it.
	_ = first.Process.Kill()
	_ = first.Wait()
	res := w.runPTY(args, "\r", true)
	if diff := cmp.Diff(resume, argvOf(res)); diff != "" {
		t.Errorf("after window 1's agent exited (-want +got):\n%s\n%s", diff, res.out)
	}
}

// TestOpenByHandElsewhere: the conversation runs in another window, started
// by hand (no lease), and the journal has it open there (its hook or its
// records said so): the prompt does not resume it a second time.
func TestOpenByHandElsewhere(t *testing.T) {
	w := newWorld(t)
	w.extraEnv = []string{"KITTY_PID=4242", "KITTY_WINDOW_ID=1"}
	now := time.Now()
	_, err := journal.New(filepath.Join(w.state, "agent-sessions.json"), false).Update(func(f *journal.File) error {
		f.Upsert(journal.Record{Key: "k", Agent: "claude", ID: uuid, IDFrom: "hook", Open: true, FirstSeen: now, LastSeen: now,
			KittyPID: 4242, KittySocket: "unix:/tmp/kitty-4242", WindowID: 7, TabTitle: "by hand", PID: os.Getpid()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := w.runNoTerminal(w.seal(claudeRecord()), nil)
	recs := w.log.Records()
	if len(recs) != 1 || recs[0].Name != "-fakesh" ||
		!strings.Contains(out, `already open in kitty 4242 (unix:/tmp/kitty-4242), tab "by hand", window 7`) {
		t.Errorf("ran %+v, said:\n%s", recs, out)
	}
}

// TestLeaseNotKeptByAChild: a resumed agent starts a helper that outlives
// it and exits. The helper inherited the lease's descriptor, but the lease
// names the agent, which is gone: the next resume of the conversation
// proceeds.
func TestLeaseNotKeptByAChild(t *testing.T) {
	w := newWorld(t)
	args := w.seal(claudeRecord())
	resume := []string{"claude", "--model", "sonnet", "--resume", uuid}
	pidFile := filepath.Join(w.dir, "helper.pid")
	w.extraEnv = []string{"KITTY_PID=4242", "KITTY_WINDOW_ID=1", "FAKEAGENT_BACKGROUND=" + pidFile, "FAKEAGENT_EXIT=0"}
	// The run is done once the helper's pid is written: stopped before,
	// the agent would never write it.
	w.until = func() bool { fi, err := os.Stat(pidFile); return err == nil && fi.Size() > 0 }
	first := w.runPTY(args, "\r", true)
	w.until = nil
	if diff := cmp.Diff(resume, argvOf(first)); diff != "" {
		t.Fatalf("first resume (-want +got):\n%s\n%s", diff, first.out)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the agent's helper: %v", err)
	}
	helper, err := strconv.Atoi(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(helper, syscall.SIGKILL) })
	if err := syscall.Kill(helper, 0); err != nil {
		t.Fatalf("the helper %d does not run: %v", helper, err)
	}
	waitGone(t, first.records[0].PID)

	w.extraEnv = []string{"KITTY_PID=4242", "KITTY_WINDOW_ID=2"}
	second := w.runPTY(args, "\r", true)
	if diff := cmp.Diff(resume, argvOf(second)); diff != "" || strings.Contains(second.out, "already open") {
		t.Errorf("second resume, the helper %d still running (-want +got):\n%s\n%s", helper, diff, second.out)
	}
}

// waitGone waits until process pid has ended (a zombie counts as ended).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	b := kittytest.NewBound(t, fmt.Sprintf("process %d to end", pid), 5*time.Second)
	for {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			return
		}
		if b.Over() {
			t.Fatalf("%v", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
