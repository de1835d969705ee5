//go:build linux

package root_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// fifoWorld is a user's home with a fake kitty whose one window runs a
// (fake) claude, and the kittymux commands run against them as the user
// runs them: the command line, in a process of its own.
type fifoWorld struct {
	home   string
	paths  paths.Paths
	claude int // the claude process's pid
	env    []string
	// to is the fake kitty's address, given as --to to every command:
	// none looks for other kitties (the scanner would find every kitty of
	// the user on the machine, and talk to it).
	to string
}

func newFIFOWorld(t *testing.T, binDir string) *fifoWorld {
	t.Helper()
	w := &fifoWorld{home: filepath.Join(kittytest.ShortTempDir(t), "home")}
	w.paths = paths.Paths{StateDir: filepath.Join(w.home, ".local", "state", "kittymux"), ConfigDir: filepath.Join(w.home, ".config", "kittymux")}
	for _, d := range []string{w.paths.StateDir, w.paths.ConfigDir, filepath.Join(w.home, ".config", "kitty")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	claude := exec.Command(filepath.Join(binDir, "claude"), "--resume", "a21e57a7-5c1d-4b7a-9e0f-2d5c8a1b6e21")
	claude.Dir, claude.Env = "/", []string{"HOME=" + w.home, "PATH=" + binDir}
	if err := claude.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = claude.Process.Kill()
		_ = claude.Wait()
	})
	w.claude = claude.Process.Pid
	ls := []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Title: "api", Windows: []kitty.Window{{
		ID: 2, Title: "✳ api", PID: os.Getpid(), Cwd: "/", Cmdline: []string{"/bin/bash"},
		ForegroundProcesses: []kitty.Process{{PID: w.claude, Cmdline: claude.Args, Cwd: "/"}},
	}}}}}}
	doc, err := json.Marshal(ls)
	if err != nil {
		t.Fatal(err)
	}
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: doc})
	w.to = fake.Addr.String()
	w.env = []string{"HOME=" + w.home, "XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"), "KITTY_LISTEN_ON=" + fake.Addr.String(),
		"KITTYMUX_RESUME_BIN=/opt/kittymux/bin/kittymux-resume", "TMPDIR=" + t.TempDir(),
		// The fake agents, this test binary as kittymux (testscript.Main's
		// directory), and the system's own.
		"PATH=" + binDir + string(filepath.ListSeparator) + os.Getenv("PATH")}
	return w
}

// run runs kittymux with args and returns its output (stdout and stderr)
// and its exit code. A command still running when its bound (2 s on an
// idle machine, stretched when the machine is busy) is over is killed, and
// the test fails: it hung.
func (w *fifoWorld) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	bin, err := exec.LookPath("kittymux")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"--to", w.to}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Env, cmd.Dir = &out, &out, w.env, w.home
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// A command that waits for a FIFO's writer never ends; one that ends
	// may still take its probes' deadline (doctor runs the installed CLIs,
	// probe.CommandProbeTimeout), which a loaded machine can reach.
	bound := kittytest.NewBound(t, "kittymux "+strings.Join(args, " ")+" to end", probe.CommandProbeTimeout+2*time.Second)
	for {
		select {
		case err := <-done:
			var exit *exec.ExitError
			switch {
			case err == nil:
				return out.String(), 0
			case errors.As(err, &exit) && exit.ExitCode() >= 0:
				return out.String(), exit.ExitCode()
			}
			t.Fatalf("kittymux %s: %v\n%s", strings.Join(args, " "), err, out.String())
		case <-time.After(50 * time.Millisecond):
			if bound.Over() {
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("%v: it hangs\n%s", bound, out.String())
			}
		}
	}
}

// runScanner runs `kittymux scanner run` until its status shows a pass
// over the fake kitty that started after it did, then stops it with
// SIGTERM. Each wait has its bound (on an idle machine: 10 s for the
// first pass, 2 s to stop); a scanner stuck on a FIFO shows no pass, or
// does not stop, and fails the test.
func (w *fifoWorld) runScanner(t *testing.T) {
	t.Helper()
	bin, err := exec.LookPath("kittymux")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--to", w.to, "scanner", "run", "--interval", "100ms")
	var out kittytest.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Env, cmd.Dir = &out, &out, w.env, w.home
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	kittytest.Eventually(t, "scanner run to finish a pass over the kitty", 10*time.Second, func() (bool, string) {
		st := scanner.Current(w.paths.StateDir)
		return st.Running && st.Status != nil && st.Status.Updated.After(start) && len(st.Status.Kitties) == 1, out.String()
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	bound := kittytest.NewBound(t, "scanner run to stop at SIGTERM", 2*time.Second)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("scanner run: %v\n%s", err, out.String())
			}
			return
		case <-time.After(50 * time.Millisecond):
			if bound.Over() {
				t.Fatalf("%v\n%s", bound, out.String())
			}
		}
	}
}

// TestFIFOsNeverBlock: a FIFO put where kittymux reads a file (by the
// user, or by any program of the user) is refused where it is met, with an
// error that says so, and every command ends: none waits for a writer that
// never comes. The running scanner still passes over the kitty, and stops
// cleanly at SIGTERM.
func TestFIFOsNeverBlock(t *testing.T) {
	binDir, _ := kittytest.FakeAgents(t, "claude")
	const refused = "not a regular file (a FIFO)"
	commands := [][]string{{"sessions", "list"}, {"sessions", "saves"}, {"doctor"}, {"setup", "--dry-run"},
		{"scanner", "status"}, {"scanner", "poll", "--once"}}
	for _, tc := range []struct {
		name string
		path func(w *fifoWorld) string
		// say are the commands whose output names the FIFO refused;
		// the others pass over it (a file they may do without).
		say  []string
		more [][]string // commands run for this place only
	}{
		{name: "claude's sessions file", path: func(w *fifoWorld) string {
			return filepath.Join(w.home, ".claude", "sessions", strconv.Itoa(w.claude)+".json")
		}},
		{name: "claude's settings.json", path: func(w *fifoWorld) string { return filepath.Join(w.home, ".claude", "settings.json") },
			say: []string{"doctor"}},
		{name: "config.json", path: func(w *fifoWorld) string { return w.paths.Config() },
			say: []string{"doctor", "setup --dry-run"}},
		{name: "scanner.lock", path: func(w *fifoWorld) string { return filepath.Join(w.paths.StateDir, paths.ScannerLockName) },
			say: []string{"doctor", "scanner status", "scanner run"}, more: [][]string{{"scanner", "run"}}},
		{name: "resume.json", path: func(w *fifoWorld) string { return w.paths.UserAgents() },
			say: []string{"sessions list", "doctor", "scanner poll --once"}},
		{name: "kitty.conf", path: func(w *fifoWorld) string { return filepath.Join(w.home, ".config", "kitty", "kitty.conf") },
			say: []string{"doctor", "setup --dry-run"}},
		{name: "the journal", path: func(w *fifoWorld) string { return w.paths.Journal() },
			say: []string{"doctor", "scanner poll --once"}},
		{name: "a save", path: func(w *fifoWorld) string { return w.paths.Session("work") },
			say: []string{"sessions saves"}},
		{name: "the leases' registry", path: func(w *fifoWorld) string {
			return filepath.Join(w.paths.StateDir, paths.LeasesName, paths.LeasesRegistryName)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newFIFOWorld(t, binDir)
			fifo := tc.path(w)
			if err := os.MkdirAll(filepath.Dir(fifo), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range slices.Concat(commands, tc.more) {
				line := strings.Join(args, " ")
				out, code := w.run(t, args...)
				if strings.Contains(out, "panic:") || code > 2 {
					t.Errorf("kittymux %s: exit %d\n%s", line, code, out)
				}
				// Whatever is refused, the agent window is still listed,
				// with its conversation from its command line.
				if line == "sessions list" && (!strings.Contains(out, "claude") || !strings.Contains(out, "a21e57a7")) {
					t.Errorf("kittymux sessions list lost the claude window:\n%s", out)
				}
				said := strings.Contains(out, refused) && strings.Contains(out, filepath.Base(fifo))
				if want := slices.Contains(tc.say, line); said != want {
					t.Errorf("kittymux %s: names the FIFO refused: %v, want %v\n%s", line, said, want, out)
				}
			}
			if tc.name != "scanner.lock" {
				w.runScanner(t)
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the FIFO was replaced: %v %v", fi, err)
			}
		})
	}
}
