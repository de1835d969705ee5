package hookrun

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestTTYOfAgent: a hook that runs without a controlling terminal (claude
// starts its hooks in a session of their own) finds the agent's terminal
// through the agent process, and what it writes there reaches the
// terminal.
func TestTTYOfAgent(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	agent := exec.Command("sleep", "30")
	agent.Stdin, agent.Stdout, agent.Stderr = tty, tty, tty
	agent.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	defer func() { _ = agent.Process.Kill(); _ = agent.Wait() }()

	if got := ttyOf(agent.Process.Pid); got != tty.Name() {
		t.Fatalf("ttyOf(agent) = %q; want %q", got, tty.Name())
	}
	// The hook's own session has no terminal: it writes through the
	// agent's.
	hook := exec.Command(os.Args[0])
	hook.Env = []string{"KITTYMUX_TTY_HELPER_PID=" + strconv.Itoa(agent.Process.Pid)}
	hook.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if out, err := hook.CombinedOutput(); err != nil {
		t.Fatalf("hook without a terminal: %v\n%s", err, out)
	}
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 64)
		n, _ := io.ReadAtLeast(ptmx, b, len("hint"))
		got <- string(b[:n])
	}()
	select {
	case s := <-got:
		if s != "hint" {
			t.Errorf("the agent's terminal got %q; want %q", s, "hint")
		}
	case <-time.After(10 * time.Second):
		t.Error("nothing reached the agent's terminal")
	}

	for p, want := range map[string]bool{"/dev/pts/3": true, "/dev/tty1": true, "/dev/ttys004": true,
		"/dev/pts/": false, "/dev/null": false, "/dev/pts/3/../x": false, "/tmp/tty1": false, "/dev/ttyS0x": false} {
		if isTTYPath(p) != want {
			t.Errorf("isTTYPath(%q) = %v", p, !want)
		}
	}
}
