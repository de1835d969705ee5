package root_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// termQueries are what a program asks a terminal and waits for: the colours
// (OSC 10/11/4;n ... ;?), the cursor position and status (DSR), the
// device attributes (DA1, DA2).
var termQueries = regexp.MustCompile(`\x1b\][0-9;]*;\?|\x1b\[[0-9]*n|\x1b\[[>=]?[0-9]*c`)

// versionLine is the shape of program's --version (pkg/version's golden
// test has the line itself), ended as a terminal ends it.
func versionLine(program string) *regexp.Regexp {
	return regexp.MustCompile(`^` + program + ` \S+ \((revision [0-9a-f]+(, modified)?(, \S+)?|no revision); go\S+ \w+/\w+\)\r\n$`)
}

// bins are kittymux and kittymux-resume built from this module, once for
// the test binary (buildBins), removed when its tests are done.
var bins struct {
	once sync.Once
	dir  string
	err  error
}

// removingBins runs the tests, then removes what buildBins built.
type removingBins struct{ m *testing.M }

func (r removingBins) Run() int {
	code := r.m.Run()
	if bins.dir != "" {
		os.RemoveAll(bins.dir)
	}
	return code
}

// buildBins returns the directory of the built binaries.
func buildBins(t *testing.T) string {
	bins.once.Do(func() {
		if bins.dir, bins.err = os.MkdirTemp("", "kittymux-start-"); bins.err != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", bins.dir, "github.com/kittymux/kittymux/cmd/...").CombinedOutput()
		if err != nil {
			bins.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if bins.err != nil {
		t.Fatalf("build: %v", bins.err)
	}
	return bins.dir
}

// commandPaths are the words of every command in the tree, hidden ones too:
// ["sessions", "restore"].
func commandPaths(t *testing.T) [][]string {
	f, _, _ := factorytest.New(t)
	var out [][]string
	var walk func(c *cobra.Command, words []string)
	walk = func(c *cobra.Command, words []string) {
		out = append(out, words)
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), words...), sub.Name()))
		}
	}
	walk(root.NewCmdRoot(f), nil)
	return out
}

// ptyRun runs bin with args in a pseudo-terminal that never answers what it
// is asked, and returns all it wrote and how long it took. A run still
// going after 10 s is killed.
func ptyRun(t *testing.T, env []string, bin string, args ...string) (string, time.Duration) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = env, t.TempDir()
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	output := kittytest.Capture(f)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	took := time.Since(start)
	// The last bytes may still be in the pty: read until they are in.
	for prev := ""; ; {
		time.Sleep(20 * time.Millisecond)
		if s := output(); s == prev {
			return s, took
		} else {
			prev = s
		}
	}
}

// TestNoTerminalQueryAtStart runs every command's --help, and the commands
// that are safe with an empty HOME, in a terminal that never answers: none
// writes a query for the terminal to answer, and each ends well within the
// 5 s a query would wait for its answer.
func TestNoTerminalQueryAtStart(t *testing.T) {
	dir := buildBins(t)
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8"}
	type run struct {
		bin  string
		args []string
	}
	var runs []run
	for _, words := range commandPaths(t) {
		if len(words) > 0 && words[0] == "help" {
			continue
		}
		runs = append(runs, run{"kittymux", append(words, "--help")})
	}
	for _, args := range []string{"", "--version", "version", "version --json", "sessions", "sessions saves",
		"sessions list", "sessions history", "sessions templates", "sessions check", "sessions recover --dry-run",
		"doctor", "setup --dry-run --integrations no", "scanner status", "scanner poll --once", "integration status",
		"completion bash", "agents restart --dry-run", "sessions restore last", "bogus", "sessions bogus"} {
		runs = append(runs, run{"kittymux", strings.Fields(args)})
	}
	runs = append(runs, run{"kittymux-resume", []string{"--version"}}, run{"kittymux-resume", []string{"--help"}})
	for _, r := range runs {
		what := strings.TrimSpace(r.bin + " " + strings.Join(r.args, " "))
		bound := kittytest.NewBound(t, what+" to end", 500*time.Millisecond)
		out, took := ptyRun(t, env, filepath.Join(dir, r.bin), r.args...)
		if q := termQueries.FindAllString(out, -1); q != nil {
			t.Errorf("%s wrote terminal queries %q; output:\n%q", what, q, out)
		}
		if len(r.args) == 1 && r.args[0] == "--version" && !versionLine(r.bin).MatchString(out) {
			t.Errorf("%s printed %q", what, out)
		}
		if took > bound.Limit() && bound.Over() {
			t.Errorf("%s took %v: %v", what, took.Round(time.Millisecond), bound)
		}
	}
}

// TestFormAsksTheTerminalNothing: a form (the template of sessions new)
// shows, the option marked in bold, without a query for the terminal to answer either.
func TestFormAsksTheTerminalNothing(t *testing.T) {
	dir := buildBins(t)
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "TERM=xterm-256color", "LANG=C.UTF-8"}
	run := kittytest.RunPTY(t, kittytest.PTYOptions{Path: filepath.Join(dir, "kittymux"), Args: []string{"sessions", "new", "x"},
		Env: env, Dir: home, WaitFor: "Template", Timeout: 40 * time.Second, Keys: []string{"\x03"}})
	if !run.Exited || run.Code != 2 {
		t.Errorf("exit %d (exited %v); output:\n%q", run.Code, run.Exited, run.Out)
	}
	if q := termQueries.FindAllString(run.Out, -1); q != nil {
		t.Errorf("the form wrote terminal queries %q; output:\n%q", q, run.Out)
	}
	if !strings.Contains(run.Out, "\x1b[1m> 1 agent") {
		t.Errorf("the form has no colour:\n%q", run.Out)
	}
}
