package kittytest

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/creack/pty"
)

// PTYOptions describe a program run in a pseudo-terminal, as a person in a
// kitty window would run it.
type PTYOptions struct {
	Path string
	Args []string
	Env  []string
	Dir  string
	// WaitFor is text to wait for before typing Keys; empty types at once.
	WaitFor string
	// Shown, when set, runs once WaitFor has shown, before Keys are typed:
	// what another window does while this one waits.
	Shown func()
	// Keys are written one element at a time, 80 ms apart: a key's escape
	// sequence ("\x1b[A") arrives whole, a lone Esc alone.
	Keys []string
	// Steps are typed after Keys, each once the program has shown the
	// Then of the one before: a form's keys, each taken before the next is
	// typed.
	Steps []PTYStep
	// Done reports that the run reached what the test waits for (a fake
	// agent logged its argv, say); the program is then killed. The run also
	// ends when the program exits.
	Done    func() bool
	Timeout time.Duration // default 10 s on an idle machine, stretched on a busy one (Bound)
}

// PTYStep is keys typed, and what the program shows once it has taken
// them.
type PTYStep struct {
	Keys string
	// Then is text the output shows after Keys were written, its escape
	// sequences left out.
	Then string
}

// Keys splits typed text into keys: each rune alone, but an arrow key's
// escape sequence (ESC [ X) kept whole.
func Keys(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "\x1b[") && i+3 <= len(s) {
			out = append(out, s[i:i+3])
			i += 3
			continue
		}
		r := []rune(s[i:])[0]
		out = append(out, string(r))
		i += len(string(r))
	}
	return out
}

// PTYRun is what came of it.
type PTYRun struct {
	Out    string
	Exited bool
	Code   int
}

// Capture reads r (a pty's master side) until it fails, in the
// background; the function it returns is everything read so far.
func Capture(r io.Reader) (output func() string) {
	output, _ = capture(r)
	return output
}

// capture is Capture, with a channel closed once the reader ended (the
// terminal's other side closed and all it had written was read).
func capture(r io.Reader) (output func() string, drained <-chan struct{}) {
	var mu sync.Mutex
	var out bytes.Buffer
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return func() string { mu.Lock(); defer mu.Unlock(); return out.String() }, ended
}

// escapes are the terminal's control sequences: CSI, and OSC ended by BEL
// or ST.
var escapes = regexp.MustCompile("\x1b\\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)")

// Plain is a program's output without its escape sequences.
func Plain(out string) string { return escapes.ReplaceAllString(out, "") }

// RunPTY runs a program in a pseudo-terminal, types Keys, and waits for Done
// or the program's exit.
func RunPTY(t TB, o PTYOptions) PTYRun {
	t.Helper()
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	cmd := exec.Command(o.Path, o.Args...)
	cmd.Env, cmd.Dir = o.Env, o.Dir
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 120})
	if err != nil {
		t.Fatalf("start %s in a pty: %v", o.Path, err)
	}
	defer f.Close()
	output, drained := capture(f)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-done
	}
	// read waits, bounded, for the reader to take all the program wrote
	// before it ended: on a busy machine a fixed pause was not enough (the
	// prompt's last line missing from a run's output).
	read := func() string {
		select {
		case <-drained:
		case <-time.After(2 * time.Second):
		}
		return output()
	}
	bound := NewBound(t, filepath.Base(o.Path)+" in a pty", o.Timeout)
	if o.WaitFor != "" {
		for !strings.Contains(output(), o.WaitFor) {
			select {
			case <-done:
				t.Fatalf("%s exited before showing %q; output:\n%s", o.Path, o.WaitFor, output())
			default:
			}
			if bound.Over() {
				stop()
				t.Fatalf("%v: %s did not show %q; output:\n%s", bound, o.Path, o.WaitFor, output())
			}
			time.Sleep(10 * time.Millisecond)
		}
		if o.Shown != nil {
			o.Shown()
		}
	}
	for _, k := range o.Keys {
		_, _ = f.Write([]byte(k))
		time.Sleep(80 * time.Millisecond)
	}
	for i, step := range o.Steps {
		mark := len(output())
		_, _ = io.WriteString(f, step.Keys)
		for !strings.Contains(Plain(output()[mark:]), step.Then) {
			if bound.Over() {
				stop()
				t.Fatalf("%v: after step %d (%q), %s did not show %q; output:\n%s", bound, i+1, step.Keys, o.Path, step.Then, output())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for {
		select {
		case <-done:
			return PTYRun{Out: read(), Exited: true, Code: cmd.ProcessState.ExitCode()}
		default:
		}
		if o.Done != nil && o.Done() {
			stop()
			return PTYRun{Out: read()}
		}
		if bound.Over() {
			stop()
			t.Fatalf("%v: neither exited nor done; output:\n%s", bound, output())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
