package prompt

import (
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

var sgrCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestRewrapOnResize: the prompt asks the terminal its width, and when the
// window changes while it waits (SIGWINCH) it goes back over what it drew
// (as the terminal folded it) and draws it again to the new width.
func TestRewrapOnResize(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	output := kittytest.Capture(ptmx)
	waitFor := func(what string, cond func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond(output()) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s; output:\n%q", what, output())
			}
			time.Sleep(10 * time.Millisecond)
		}
		return output()
	}

	e := viewEnv(t, nil)
	e.In, e.Out = tty, tty
	type answer struct {
		c   Choice
		err error
	}
	done := make(chan answer, 1)
	go func() {
		c, err := e.ask(exact(nil), true)
		done <- answer{c, err}
	}()
	waitFor("question", func(s string) bool { return strings.Contains(sgrCode.ReplaceAllString(s, ""), "i commands") })

	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	// At 120 columns it drew 4 lines of 25, 54, 72 and 72 columns; at 40
	// a reflowing terminal holds them in 1+2+2+2 rows.
	const back = "\r\x1b[7A\x1b[J"
	got := waitFor("redraw", func(s string) bool {
		i := strings.Index(s, back)
		return i >= 0 && strings.Contains(sgrCode.ReplaceAllString(s[i:], ""), "i commands")
	})
	again := sgrCode.ReplaceAllString(got[strings.Index(got, back)+len(back):], "")
	want := "claude · resume 4f9e2a51?\r\n" +
		"  …/internal\r\n" +
		"  tab \"api work\" · last active 12m ago ·\r\n" +
		"  7 runs finished · 1h20m of work\r\n" +
		"  Enter resume   n new conversation\r\n" +
		"  s shell   a resume all   i commands\r\n"
	if again != want {
		t.Errorf("drawn again at 40 columns:\n%q\nwant\n%q", again, want)
	}

	if _, err := ptmx.Write([]byte("s")); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-done:
		if a.c != ChoiceShell || a.err != nil {
			t.Errorf("s: %q, %v", a.c, a.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("s did not answer")
	}
}
