package kittytest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The fake agent's source, built outside any module: it imports only the
// standard library, so the build does not depend on the test's working
// directory, GOFLAGS or the module cache.
//
//go:embed fakeagent/main.go
var fakeAgentSource []byte

// AgentNames are the agents of assets/resume-agents.json; FakeAgents installs all of them
// when given no names.
var AgentNames = []string{
	"claude", "codex", "gemini", "copilot", "opencode", "kilo", "pi", "qodercli", "droid", "amp", "crush",
	"cursor-agent", "kimi", "hermes", "goose", "omp", "mastracode", "grok", "aider", "junie",
}

// AgentRecord is one run of a fake agent, as it logged it.
type AgentRecord struct {
	Name string            `json:"name"` // base name of argv[0]: "claude"
	Args []string          `json:"args"` // argv[1:]
	Cwd  string            `json:"cwd"`
	PID  int               `json:"pid"`
	PPID int               `json:"ppid"`
	Env  map[string]string `json:"env"` // KITTY_*, KITTYMUX_*, FAKEAGENT_*, TERM, HOME, PWD, ...
}

// AgentLog is the file the fake agents of one FakeAgents call append to.
type AgentLog struct {
	Path   string // the JSON-lines file, $FAKEAGENT_LOG
	BinDir string // where the fakes are, first on PATH in Env
}

// Env is what a process needs to find the fakes on PATH and log into this
// log: pass it as RealOptions.Env.
func (l *AgentLog) Env() []string {
	return []string{"PATH=" + l.BinDir + string(os.PathListSeparator) + os.Getenv("PATH"), "FAKEAGENT_LOG=" + l.Path}
}

// Records returns the runs logged so far, in order. Help and version probes
// are runs too: their Args hold --help.
func (l *AgentLog) Records() []AgentRecord {
	recs, _ := l.read()
	return recs
}

// WaitFor waits until at least n runs are logged and returns them; it fails
// the test, showing the log, once the bound of timeout on an idle machine
// (stretched on a busy one: see Bound) runs out.
func (l *AgentLog) WaitFor(t testing.TB, n int, timeout time.Duration) []AgentRecord {
	t.Helper()
	b := NewBound(t, fmt.Sprintf("%d fake agent runs in the log", n), timeout)
	for {
		recs, err := l.read()
		if err != nil {
			t.Fatalf("fake agent log %s: %v", l.Path, err)
		}
		if len(recs) >= n {
			return recs
		}
		if b.Over() {
			raw, _ := os.ReadFile(l.Path)
			t.Fatalf("%v: %d runs logged; log %s:\n%s", b, len(recs), l.Path, raw)
		}
		time.Sleep(pollInterval)
	}
}

// WaitExited waits until every fake agent logged as running in the kitty
// of pid kittyPID has exited, or fails the test once the bound of timeout
// (stretched on a busy machine: see Bound) runs out. An agent outlives its
// kitty's SIGKILL until the hangup reaches it, which on a busy machine
// takes a while; until then its conversation is open elsewhere.
func (l *AgentLog) WaitExited(t testing.TB, kittyPID int, timeout time.Duration) {
	t.Helper()
	Eventually(t, fmt.Sprintf("the fake agents of kitty %d to exit", kittyPID), timeout, func() (bool, string) {
		var alive []int
		for _, r := range l.Records() {
			if r.Env["KITTY_PID"] == strconv.Itoa(kittyPID) && syscall.Kill(r.PID, 0) == nil {
				alive = append(alive, r.PID)
			}
		}
		return len(alive) == 0, fmt.Sprintf("still running: %v", alive)
	})
}

func (l *AgentLog) read() ([]AgentRecord, error) {
	data, err := os.ReadFile(l.Path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// A line still being written has no newline yet: leave it for the next
	// read.
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	} else {
		return nil, nil
	}
	var out []AgentRecord
	for i, line := range bytes.Split(data, []byte("\n")) {
		var r AgentRecord
		if err := json.Unmarshal(line, &r); err != nil {
			return out, fmt.Errorf("line %d: %w", i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// FakeAgents installs the fake agent under each name (all of AgentNames when
// none are given) in a fresh directory and returns that directory and the log
// the fakes write to. Put AgentLog.Env in the environment of whatever runs
// them. The fake is built once per test process.
func FakeAgents(t testing.TB, names ...string) (binDir string, log *AgentLog) {
	t.Helper()
	bin, err := fakeAgentBinary()
	if err != nil {
		t.Fatalf("build fake agent: %v", err)
	}
	if len(names) == 0 {
		names = AgentNames
	}
	base := t.TempDir()
	binDir = filepath.Join(base, "bin")
	if err := os.Mkdir(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// One file, hard links for the other names: argv[0] (what kitty's ls
	// shows) is then binDir/<name>, and so is /proc/<pid>/exe.
	first := filepath.Join(binDir, names[0])
	// Written by a child process, never opened for writing here: a
	// process this one forks meanwhile (a parallel test starting a
	// program) would inherit the descriptor until its exec, and an exec of
	// the fake in that moment fails with "text file busy".
	write := exec.Command("/bin/sh", "-c", `cat > "$1" && chmod 755 "$1"`, "sh", first)
	write.Stdin = bytes.NewReader(bin)
	if out, err := write.CombinedOutput(); err != nil {
		t.Fatalf("write the fake agent: %v\n%s", err, out)
	}
	for _, name := range names[1:] {
		if err := os.Link(first, filepath.Join(binDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return binDir, &AgentLog{Path: filepath.Join(base, "agents.jsonl"), BinDir: binDir}
}

var fakeAgent struct {
	once sync.Once
	bin  []byte
	err  error
}

// fakeAgentBinary builds the fake once and keeps the executable in memory, so
// nothing is left behind in a temporary directory when the process ends.
func fakeAgentBinary() ([]byte, error) {
	fakeAgent.once.Do(func() {
		fakeAgent.bin, fakeAgent.err = buildFakeAgent()
	})
	return fakeAgent.bin, fakeAgent.err
}

func buildFakeAgent() ([]byte, error) {
	// go test puts its own GOROOT/bin first on the test's PATH.
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("no go command on PATH: %w", err)
	}
	dir, err := os.MkdirTemp("", "kittymux-fakeagent-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), fakeAgentSource, 0o644); err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "fakeagent")
	cmd := exec.Command(goBin, "build", "-trimpath", "-buildvcs=false", "-o", out, "main.go")
	cmd.Dir = dir
	// Outside any module; the caller's GOFLAGS (-mod=vendor, ...) would only
	// get in the way.
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GO111MODULE=", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %w\n%s", err, msg)
	}
	return os.ReadFile(out)
}
