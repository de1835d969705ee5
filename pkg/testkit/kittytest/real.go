//go:build linux

// Real kitty under Xvfb, with Pdeathsig so nothing outlives the test binary:
// Linux only, as is CI.

package kittytest

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
)

const (
	// readyTimeout bounds start-up on an idle machine; a busy one stretches
	// it (Bound). Measured on a 2-CPU machine: Xvfb 0.2-0.4 s, then kitty
	// 0.26.5 answers ls 0.7-1.2 s after exec (llvmpipe), 2-3 s with two
	// starting at once, 5-7 s on a heavily loaded machine; kitty 0.48.2 once
	// took over 20 s at load 12 on 2 CPUs.
	readyTimeout = 30 * time.Second
	// requestTimeout bounds one remote-control request of the helpers on an
	// idle machine, stretched as the machine is busy when it is sent.
	requestTimeout = 5 * time.Second
)

// RealOptions configures StartReal.
type RealOptions struct {
	// Env is extra NAME=VALUE for kitty and so for every process in its
	// windows, such as AgentLog.Env. It wins over what StartReal sets.
	Env []string
	// Session is a session file kitty starts with (--session) instead of
	// one window with the shell.
	Session string
	// Cwd is kitty's working directory, and so its first window's. Default:
	// the throw-away HOME.
	Cwd string
	// Config is extra kitty.conf lines, after StartReal's own.
	Config []string
	// Args are extra arguments for kitty (after --config), such as
	// --listen-on.
	Args []string
	// NoSocket: kitty is not expected to answer on its socket (another
	// process holds the path): StartReal returns once kitty runs its
	// window's shell.
	NoSocket bool
	// Kitty is the kitty binary. Default: kitty on PATH, the oldest kitty
	// kittymux supports in CI (Debian 12's 0.26.5). A test that needs a
	// newer kitty passes NeedKitty's.
	Kitty string
}

// Real is a real kitty running under its own Xvfb, with a throw-away config,
// HOME and XDG directories, for tests. StartReal makes one.
type Real struct {
	Addr     kitty.Address // the remote-control socket
	Client   *kitty.Client
	PID      int    // kitty's pid
	Dir      string // the temporary directory holding everything
	Version  kitty.Version
	ListenOn string // listen_on as written in kitty.conf: "unix:<Dir>/k"
	Display  string // ":N", the Xvfb kitty draws on
	Home     string // HOME of kitty and its windows, inside Dir
	// Env is kitty's environment: what its windows inherit, before kitty
	// adds KITTY_WINDOW_ID, KITTY_LISTEN_ON and the like.
	Env []string
	// Launched is when kitty was exec'd, after Xvfb was ready: a benchmark
	// leaves the X server's start out.
	Launched time.Time

	t        testing.TB
	logPath  string
	kitty    *exec.Cmd
	xvfb     *exec.Cmd
	kittyEnd chan struct{} // closed when the kitty process has exited
	xvfbEnd  chan struct{}
	stopOnce sync.Once
}

// StartReal starts Xvfb and a real kitty on it and returns once kitty
// answers ls over its socket with at least one window. Both are stopped when
// the test ends. Without kitty or Xvfb the test is skipped, or fails when
// KITTYMUX_E2E=require.
func StartReal(t testing.TB, opts RealOptions) *Real {
	t.Helper()
	kittyBin, xvfbBin := findReal(t, opts.Kitty)
	r := newReal(t, shortTempDir(t))
	confPath := r.writeConfig(opts.Config)
	start := time.Now()
	r.startXvfb(xvfbBin)
	xvfbReady := time.Since(start)
	r.Env = mergeEnv(r.kittyEnv(filepath.Dir(confPath)), opts.Env...)
	r.Version = kittyVersion(t, kittyBin, r.Env)
	launched := r.startKitty(kittyBin, confPath, opts)
	if opts.NoSocket {
		r.waitShell(launched)
	} else {
		r.waitReady(launched)
	}
	f, why := Stretch()
	t.Logf("kitty %s (pid %d) on Xvfb %s: Xvfb ready after %v, kitty answered ls %v after exec, %v in all; bounds ×%.1f (%s)",
		r.Version, r.PID, r.Display, xvfbReady.Round(time.Millisecond), time.Since(launched).Round(time.Millisecond),
		time.Since(start).Round(time.Millisecond), f, why)
	return r
}

// newReal is a Real in dir, not started yet, that stops what it starts when
// the test ends and then shows kitty's and Xvfb's output if the test
// failed.
func newReal(t testing.TB, dir string) *Real {
	r := &Real{
		t:        t,
		Dir:      dir,
		Home:     filepath.Join(dir, "home"),
		ListenOn: "unix:" + filepath.Join(dir, "k"),
		logPath:  filepath.Join(dir, "kitty.log"),
		kittyEnd: make(chan struct{}),
		xvfbEnd:  make(chan struct{}),
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("kitty's output (%s):\n%s", r.logPath, r.Log())
			if b, err := os.ReadFile(filepath.Join(dir, "xvfb.log")); err == nil && len(b) > 0 {
				t.Logf("Xvfb's output:\n%s", b)
			}
		}
	})
	t.Cleanup(r.Stop)
	return r
}

// writeConfig makes the throw-away HOME and XDG directories and writes
// kitty.conf with the extra lines; it returns kitty.conf's path.
func (r *Real) writeConfig(extra []string) string {
	t := r.t
	t.Helper()
	confDir := filepath.Join(r.Dir, "config", "kitty")
	for _, d := range []string{r.Home, confDir, filepath.Join(r.Dir, "cache"), filepath.Join(r.Dir, "state"),
		filepath.Join(r.Dir, "data")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(r.Dir, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(confDir, "kitty.conf")
	if err := os.WriteFile(conf, []byte(kittyConf(r.ListenOn, extra)), 0o644); err != nil {
		t.Fatal(err)
	}
	return conf
}

// kittyEnv is kitty's environment before RealOptions.Env: the test
// process's without what ties it to the user's session, the throw-away
// HOME and XDG directories, kitty's config directory confDir, and Xvfb's
// display.
func (r *Real) kittyEnv(confDir string) []string {
	dir, runDir := r.Dir, filepath.Join(r.Dir, "run")
	return mergeEnv(isolatedEnv(os.Environ()),
		"HOME="+r.Home,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_CONFIG_DIRS="+filepath.Join(dir, "etc-xdg"), // not /etc/xdg/kitty/kitty.conf
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_RUNTIME_DIR="+runDir,
		"KITTY_CONFIG_DIRECTORY="+confDir,
		"DISPLAY="+r.Display,
		// kitty 0.26 needs OpenGL 3.3; Xvfb has no GPU, Mesa's llvmpipe does it.
		"LIBGL_ALWAYS_SOFTWARE=1",
		// A bus that is not there: no talking to the user's session bus, and
		// no dbus autolaunch either.
		"DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(runDir, "no-bus"),
		"SHELL=/bin/bash",
	)
}

// startKitty starts kitty with kitty.conf at conf, its output to the log,
// and connects to its socket; it returns when kitty was exec'd.
func (r *Real) startKitty(bin, conf string, opts RealOptions) time.Time {
	t := r.t
	t.Helper()
	args := append([]string{"--config", conf}, opts.Args...)
	if opts.Session != "" {
		args = append(args, "--session", opts.Session)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = r.Env
	cmd.Dir = cmp.Or(opts.Cwd, r.Home)
	logFile, err := os.Create(r.logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start kitty: %v", err)
	}
	r.kitty, r.PID = cmd, cmd.Process.Pid
	go func() { _ = cmd.Wait(); close(r.kittyEnd) }()
	launched := time.Now()
	r.Launched = launched

	// The rule kittymux relies on: listen_on from kitty.conf gets "-<pid>".
	addr, err := kitty.ParseAddress(kitty.WithPIDSuffix(r.ListenOn, r.PID))
	if err != nil {
		t.Fatal(err)
	}
	r.Addr, r.Client = addr, kitty.NewClient(addr)
	return launched
}

// kittyConf is the throw-away kitty.conf. Every option here exists in 0.26.5.
func kittyConf(listenOn string, extra []string) string {
	lines := []string{
		"# Written by kittytest.StartReal for one test.",
		"allow_remote_control socket-only",
		"listen_on " + listenOn,
		"shell_integration enabled",
		"startup_session none",
		"confirm_os_window_close 0",
		"update_check_interval 0",
		"shell /bin/bash",
		"linux_display_server x11",
		"remember_window_size no",
		"initial_window_width 1000",
		"initial_window_height 700",
		"enable_audio_bell no",
		"sync_to_monitor no",
	}
	return strings.Join(append(lines, extra...), "\n") + "\n"
}

// NeedReal skips the test, or fails it when KITTYMUX_E2E=require, unless
// StartReal can run: kitty and Xvfb are installed and -short is not given.
// Call it first in a test that prepares things before StartReal.
func NeedReal(t testing.TB) {
	t.Helper()
	findReal(t, "")
}

// NeedKitty returns the kitty binary for a test that needs kitty need or
// newer (kitty.VersionSaveAsSession, say): $KITTYMUX_KITTY, else kitty on
// PATH. When that kitty is older, or kitty or Xvfb is missing, the test is
// skipped, or fails when KITTYMUX_E2E=require: CI must not pass without
// running it.
func NeedKitty(t testing.TB, need kitty.Version) string {
	t.Helper()
	bin := os.Getenv("KITTYMUX_KITTY")
	if bin == "" {
		bin = "kitty"
	}
	path, _ := findReal(t, bin)
	// Its environment as StartReal gives it: no kitty of the user's is asked.
	if v := kittyVersion(t, path, isolatedEnv(os.Environ())); !v.AtLeast(need) {
		msg := fmt.Sprintf("%s is kitty %s; this test needs kitty %s or newer: point KITTYMUX_KITTY at one", path, v, need)
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatal(msg + " (KITTYMUX_E2E=require)")
		}
		t.Skip(msg + "; KITTYMUX_E2E=require makes this fatal")
	}
	return path
}

// findReal finds kitty and Xvfb, or skips (fails with KITTYMUX_E2E=require).
// kittyBin "" is kitty on PATH.
func findReal(t testing.TB, kittyBin string) (string, string) {
	t.Helper()
	var missing []string
	if kittyBin == "" {
		kittyBin = "kitty"
	}
	kittyPath, err := exec.LookPath(kittyBin)
	if err != nil {
		missing = append(missing, kittyBin)
	}
	xvfbPath, err := exec.LookPath("Xvfb")
	if err != nil {
		missing = append(missing, "Xvfb")
	}
	switch {
	case len(missing) > 0 && os.Getenv("KITTYMUX_E2E") == "require":
		t.Fatalf("real kitty tests need kitty and Xvfb, missing: %s (KITTYMUX_E2E=require)", strings.Join(missing, ", "))
	case len(missing) > 0:
		t.Skipf("real kitty tests need kitty and Xvfb (missing: %s); KITTYMUX_E2E=require makes this fatal",
			strings.Join(missing, ", "))
	case testing.Short() && os.Getenv("KITTYMUX_E2E") != "require":
		t.Skip("real kitty tests are skipped with -short; KITTYMUX_E2E=require runs them")
	}
	return kittyPath, xvfbPath
}

// shortTempDir makes the test's directory. The socket inside must stay well
// under the 108 bytes of sun_path, and t.TempDir() holds the test's name.
func shortTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "km")
	if err == nil && len(dir) > 80 {
		os.Remove(dir)
		dir, err = os.MkdirTemp("/tmp", "km")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A shell may still be writing its history as it dies of SIGHUP.
		for i := 0; ; i++ {
			err := os.RemoveAll(dir)
			if err == nil || i == 10 {
				if err != nil {
					t.Logf("remove %s: %v", dir, err)
				}
				return
			}
			time.Sleep(pollInterval)
		}
	})
	return dir
}

// startXvfb starts an Xvfb on a display it picks itself (-displayfd), so
// tests and test processes running at once do not collide.
func (r *Real) startXvfb(bin string) {
	t := r.t
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	logFile, err := os.Create(filepath.Join(r.Dir, "xvfb.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{pw} // fd 3
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = childAttr()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	r.xvfb = cmd
	go func() { _ = cmd.Wait(); close(r.xvfbEnd) }()

	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(pr).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	b := NewBound(t, "Xvfb to report its display", readyTimeout)
	for {
		select {
		case n := <-got:
			if _, err := strconv.Atoi(n); err != nil {
				log, _ := os.ReadFile(filepath.Join(r.Dir, "xvfb.log"))
				t.Fatalf("Xvfb did not report a display (got %q):\n%s", n, log)
			}
			r.Display = ":" + n
			return
		case <-r.xvfbEnd:
			log, _ := os.ReadFile(filepath.Join(r.Dir, "xvfb.log"))
			t.Fatalf("Xvfb exited (%v) before reporting a display:\n%s", cmd.ProcessState, log)
		case <-time.After(pollInterval):
			if b.Over() {
				log, _ := os.ReadFile(filepath.Join(r.Dir, "xvfb.log"))
				t.Fatalf("%v; Xvfb's output:\n%s", b, log)
			}
		}
	}
}

func (r *Real) waitReady(start time.Time) {
	t := r.t
	t.Helper()
	b := NewBound(t, "kitty to answer ls at "+r.Addr.String()+" with a window", readyTimeout)
	b.start = start
	var lastErr error
	for {
		select {
		case <-r.kittyEnd:
			t.Fatalf("kitty exited during start-up (%v):\n%s", r.kitty.ProcessState, r.Log())
		default:
		}
		ctx, cancel := r.ctx()
		ls, err := r.Client.LS(ctx)
		cancel()
		if err == nil && len(kitty.Windows(ls)) > 0 {
			r.checkListenOn(ls)
			return
		}
		lastErr = err
		if b.Over() {
			socks, _ := filepath.Glob(filepath.Join(r.Dir, "k*"))
			t.Fatalf("%v; last error: %v (sockets in %s: %q)\nkitty's output so far:\n%s",
				b, lastErr, r.Dir, socks, r.Log())
		}
		time.Sleep(pollInterval)
	}
}

// waitShell waits until kitty runs its window's shell (a child of kitty
// running bash), for a kitty that does not answer on its socket.
func (r *Real) waitShell(start time.Time) {
	t := r.t
	t.Helper()
	b := NewBound(t, "kitty to run its window's shell", readyTimeout)
	b.start = start
	for {
		select {
		case <-r.kittyEnd:
			t.Fatalf("kitty exited during start-up (%v):\n%s", r.kitty.ProcessState, r.Log())
		default:
		}
		if childRunning(r.PID, "bash") {
			return
		}
		if b.Over() {
			t.Fatalf("%v\nkitty's output so far:\n%s", b, r.Log())
		}
		time.Sleep(pollInterval)
	}
}

// childRunning reports whether a child of pid runs the program named name
// (/proc: Linux).
func childRunning(pid int, name string) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[i+1:]))
		if i < 0 || len(f) < 2 || f[1] != strconv.Itoa(pid) {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && filepath.Base(exe) == name {
			return true
		}
	}
	return false
}

// checkListenOn asserts that kitty tells its windows the address we derived.
func (r *Real) checkListenOn(ls []kitty.OSWindow) {
	for _, w := range kitty.Windows(ls) {
		if got, ok := w.Window.Env["KITTY_LISTEN_ON"]; ok && got != r.Addr.String() {
			r.t.Fatalf("kitty's KITTY_LISTEN_ON is %q, but listen_on %q with pid %d gives %q",
				got, r.ListenOn, r.PID, r.Addr)
		}
	}
}

var versions sync.Map // kitty binary → kitty.Version

func kittyVersion(t testing.TB, bin string, env []string) kitty.Version {
	t.Helper()
	if v, ok := versions.Load(bin); ok {
		return v.(kitty.Version)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s --version: %v: %q", bin, err, out)
	}
	v, err := kitty.ParseVersion(string(out))
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	versions.Store(bin, v)
	return v
}

// Stop ends kitty (SIGTERM, then SIGKILL after 5 s) and then Xvfb. It runs by
// itself when the test ends; calling it again does nothing.
func (r *Real) Stop() {
	r.stopOnce.Do(func() {
		start := time.Now()
		if r.kitty != nil {
			terminate(r.kitty.Process, r.kittyEnd, 5*time.Second)
		}
		if r.xvfb != nil {
			terminate(r.xvfb.Process, r.xvfbEnd, 3*time.Second)
		}
		if d := time.Since(start); d > 2*time.Second {
			r.t.Logf("stopping kitty and Xvfb took %v", d.Round(time.Millisecond))
		}
	})
}

func terminate(p *os.Process, done <-chan struct{}, grace time.Duration) {
	_ = p.Signal(syscall.SIGTERM)
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	_ = p.Kill()
	<-done
}

// Getenv is the value of name in the environment kitty was started with
// (Env), "" when it has none.
func (r *Real) Getenv(name string) string {
	for _, kv := range r.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// Running reports whether the kitty process is still there.
func (r *Real) Running() bool {
	select {
	case <-r.kittyEnd:
		return false
	default:
		return true
	}
}

// Log returns what kitty wrote to stdout and stderr so far.
func (r *Real) Log() string {
	b, _ := os.ReadFile(r.logPath)
	return string(b)
}

// ctx bounds one request: requestTimeout, stretched as busy as the machine
// is now.
func (r *Real) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), Scaled(requestTimeout))
}

// LS returns kitty's windows; a failure fails the test.
func (r *Real) LS() []kitty.OSWindow {
	r.t.Helper()
	ctx, cancel := r.ctx()
	defer cancel()
	ls, err := r.Client.LS(ctx)
	if err != nil {
		r.t.Fatalf("ls: %v", err)
	}
	return ls
}

// Launch opens a window in the active tab running args (the shell when
// none) and returns its id.
func (r *Real) Launch(args ...string) int {
	r.t.Helper()
	return r.LaunchWith(kitty.LaunchOptions{Args: args})
}

// LaunchWith opens a window as o says and returns its id.
func (r *Real) LaunchWith(o kitty.LaunchOptions) int {
	r.t.Helper()
	ctx, cancel := r.ctx()
	defer cancel()
	id, err := r.Client.Launch(ctx, o)
	if err != nil {
		r.t.Fatalf("launch %q: %v", o.Args, err)
	}
	return id
}

// WaitFor polls ls every 50 ms until cond holds and returns that ls. When
// the bound of timeout on an idle machine (stretched on a busy one: see
// Bound) runs out, it fails the test with the last ls. Errors from ls while
// waiting count as "not yet".
func (r *Real) WaitFor(cond func([]kitty.OSWindow) bool, timeout time.Duration) []kitty.OSWindow {
	r.t.Helper()
	b := NewBound(r.t, "kitty's windows as wanted", timeout)
	var lastRaw []byte
	var lastErr error
	for {
		if !r.Running() {
			r.t.Fatalf("kitty exited (%v); last ls:\n%s", r.kitty.ProcessState, indent(lastRaw))
		}
		ctx, cancel := r.ctx()
		raw, err := r.Client.LSRaw(ctx)
		cancel()
		if err == nil {
			var ls []kitty.OSWindow
			if err = json.Unmarshal(raw, &ls); err == nil {
				lastRaw = raw
				if cond(ls) {
					return ls
				}
			}
		}
		lastErr = err
		if b.Over() {
			r.t.Fatalf("%v (last error: %v); last ls:\n%s", b, lastErr, indent(lastRaw))
		}
		time.Sleep(pollInterval)
	}
}

// WaitForText polls the text of the window that match selects (extent
// "screen") until cond holds, and returns it; when the bound of timeout
// (stretched on a busy machine: see Bound) runs out, it fails the test with
// the last text.
func (r *Real) WaitForText(match string, cond func(string) bool, timeout time.Duration) string {
	r.t.Helper()
	b := NewBound(r.t, fmt.Sprintf("the text of kitty window %q as wanted", match), timeout)
	var text string
	var lastErr error
	for {
		ctx, cancel := r.ctx()
		s, err := r.Client.GetText(ctx, match, "screen")
		cancel()
		if err == nil {
			text = s
			if cond(s) {
				return s
			}
		}
		lastErr = err
		if b.Over() {
			r.t.Fatalf("%v (last error: %v); last text:\n%s", b, lastErr, text)
		}
		time.Sleep(pollInterval)
	}
}

func indent(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// isolatedEnv drops what would tie the test's kitty to the user's session:
// another kitty's address, the user's display, bus, config and state. It
// also drops what marks a CI machine (CI=true, GITHUB_ACTIONS, ...): a
// user's kitty has none of it, and the agent CLIs change on it (gemini
// 0.61.0 runs headless under CI=true even on a terminal, says "No input
// provided via stdin" and exits).
func isolatedEnv(env []string) []string {
	drop := []string{"HOME", "DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS",
		"SHELL", "ENV", "BASH_ENV", "HISTFILE", "PROMPT_COMMAND", "TERM", "TERMINFO", "COLORTERM", "GLFW_IM_MODULE",
		"CI", "CONTINUOUS_INTEGRATION", "BUILD_ID", "BUILD_NUMBER", "RUN_ID", "TF_BUILD", "JENKINS_URL", "TRAVIS"}
	prefixes := []string{"KITTY_", "KITTYMUX_", "XDG_", "FAKEAGENT_", "GITHUB_", "GITLAB_", "BUILDKITE", "CIRCLECI", "CI_"}
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(drop, k) {
			return true
		}
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	})
}

// mergeEnv adds NAME=VALUE pairs to env, replacing earlier values of a name.
func mergeEnv(env []string, add ...string) []string {
	out := slices.Clone(env)
	for _, kv := range add {
		k, _, _ := strings.Cut(kv, "=")
		out = slices.DeleteFunc(out, func(e string) bool { return strings.HasPrefix(e, k+"=") })
		out = append(out, kv)
	}
	return out
}

// childAttr puts Xvfb and kitty in their own process group and kills them if
// the test process dies before its cleanups run (a test timeout panics and
// exits): nothing outlives the test binary.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
