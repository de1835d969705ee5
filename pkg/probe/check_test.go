package probe_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/agents/agentstest"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/probe"
)

// fakes is a directory of fake agent CLIs: shell scripts that print real help
// text and log each run, so tests can count invocations.
type fakes struct {
	t   *testing.T
	dir string
}

func newFakes(t *testing.T) *fakes {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatalf("the fake CLIs need sh: %v", err)
	}
	return &fakes{t: t, dir: t.TempDir()}
}

func helpFile(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "testdata", "agents", "help", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// write installs a fake called name whose body runs after the run is logged.
func (f *fakes) write(name, body string) string {
	f.t.Helper()
	p := filepath.Join(f.dir, name)
	script := fmt.Sprintf("#!/bin/sh\necho \"$PWD $*\" >> '%s.log'\n%s\n", p, body)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// writeText installs a fake that prints text for --help.
func (f *fakes) writeText(name, text string) string {
	f.t.Helper()
	txt := filepath.Join(f.dir, name+".txt")
	if err := os.WriteFile(txt, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return f.write(name, fmt.Sprintf("cat '%s'", txt))
}

// runs lists the logged runs of a fake: "cwd args".
func (f *fakes) runs(name string) []string {
	data, err := os.ReadFile(filepath.Join(f.dir, name+".log"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func (f *fakes) lookPath(name string) (string, error) {
	p := filepath.Join(f.dir, name)
	if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
		return p, nil
	}
	return "", exec.ErrNotFound
}

// installRealHelp installs fake claude and codex printing their real help.
func (f *fakes) installRealHelp() {
	f.write("claude", fmt.Sprintf("cat '%s'", helpFile(f.t, "claude-2.1.197.txt")))
	f.write("codex", fmt.Sprintf("if [ \"$1\" = resume ]; then cat '%s'; else cat '%s'; fi",
		helpFile(f.t, "codex-0.171.0-resume.txt"), helpFile(f.t, "codex-0.171.0.txt")))
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func at(t time.Time) clock.Clock { return clock.NewFake(t) }

// cmpCheck leaves the grammar to the grammar tests.
var cmpCheck = cmpopts.IgnoreFields(probe.AgentCheck{}, "Path", "RealPath", "CheckedAt", "Grammar")

func TestCheckRealHelpText(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	f.installRealHelp()
	rep, err := probe.Check(context.Background(), s, probe.CheckOptions{Clock: at(t0), LookPath: f.lookPath})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]probe.AgentCheck{}
	for _, a := range rep.Agents {
		got[a.Agent] = a
	}
	if len(rep.Agents) != len(s.Names()) {
		t.Errorf("report has %d agents, want every defined one (%d)", len(rep.Agents), len(s.Names()))
	}
	want := map[string]probe.AgentCheck{
		"claude": {Agent: "claude", Installed: true, OK: true},
		"codex":  {Agent: "codex", Installed: true, OK: true},
		"gemini": {Agent: "gemini"},
	}
	for n, wa := range want {
		if diff := cmp.Diff(wa, got[n], cmpCheck); diff != "" {
			t.Errorf("%s (-want +got):\n%s", n, diff)
		}
	}
	if got["claude"].Path != filepath.Join(f.dir, "claude") {
		t.Errorf("claude path %q", got["claude"].Path)
	}
	// codex needs its subcommand help too; every run in a fresh directory.
	runs := f.runs("codex")
	if len(runs) != 2 {
		t.Fatalf("codex ran %d times: %q", len(runs), runs)
	}
	wd, _ := os.Getwd()
	var args []string
	for _, r := range runs {
		cwd, a, _ := strings.Cut(r, " ")
		args = append(args, a)
		if cwd == wd || cwd == f.dir {
			t.Errorf("probe ran in %s, want a temporary directory", cwd)
		}
		if _, err := os.Stat(cwd); !os.IsNotExist(err) {
			t.Errorf("probe directory %s left behind", cwd)
		}
	}
	if diff := cmp.Diff([]string{"--help", "resume --help"}, args, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("codex probe args (-want +got):\n%s", diff)
	}
}

func TestCheckMissingFlag(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	help, err := os.ReadFile(helpFile(t, "claude-2.1.197.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// An older claude without --continue; "--continue-later" must not count.
	f.writeText("claude", strings.ReplaceAll(string(help), "--continue", "--continue-later"))
	rep, err := probe.Check(context.Background(), s, probe.CheckOptions{Clock: at(t0), LookPath: f.lookPath, Agents: []string{"claude"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []probe.AgentCheck{{Agent: "claude", Installed: true, OK: false, Missing: []string{"--continue"}}}
	if diff := cmp.Diff(want, rep.Agents, cmpCheck); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Decide follows the report: latest is refused, exact is fine.
	ws := []live.AgentWindow{
		{ID: 1, Cwd: "/a", Cmd: recognised(t, s, "claude")},
		{ID: 2, Cwd: "/b", Cmd: recognised(t, s, "claude --resume "+agentstest.UUID)},
	}
	got := plan.Decide(s, ws, rep.Probes())
	if got[0].Mode != plan.ModeAsSaved || got[0].Reason != "probe: flag --continue not in claude --help" {
		t.Errorf("window 1: %+v", got[0])
	}
	if got[1].Mode != plan.ModeExact {
		t.Errorf("window 2: %+v", got[1])
	}
}

func TestCheckExitStatus(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	// Help printed with a non-zero exit is still help.
	f.write("claude", fmt.Sprintf("cat '%s'; exit 1", helpFile(t, "claude-2.1.197.txt")))
	// A failing run without the tokens is an error.
	f.write("codex", "echo 'error: unexpected argument' >&2; exit 3")
	rep, err := probe.Check(context.Background(), s, probe.CheckOptions{Clock: at(t0), LookPath: f.lookPath, Agents: []string{"claude", "codex"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []probe.AgentCheck{
		{Agent: "claude", Installed: true, OK: true},
		{Agent: "codex", Installed: true, Error: "codex --help: exit status 3: error: unexpected argument"},
	}
	if diff := cmp.Diff(want, rep.Agents, cmpCheck); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCheckCache(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	f.installRealHelp()
	cache := filepath.Join(t.TempDir(), "state", "resume-check.json")
	opt := probe.CheckOptions{CachePath: cache, Clock: at(t0), LookPath: f.lookPath, Agents: []string{"claude", "codex"}}
	check := func(now time.Time, refresh bool) probe.Report {
		t.Helper()
		o := opt
		o.Clock, o.Refresh = at(now), refresh
		rep, err := probe.Check(context.Background(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}

	first := check(t0, false)
	if n := len(f.runs("claude")); n != 1 {
		t.Fatalf("claude ran %d times", n)
	}
	fi, err := os.Stat(cache)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("cache mode %v, want 0600", fi.Mode().Perm())
	}

	// An hour later: from the cache, nothing runs.
	second := check(t0.Add(time.Hour), false)
	if n := len(f.runs("claude")); n != 1 {
		t.Errorf("cache hit ran claude again (%d runs)", n)
	}
	for i, a := range second.Agents {
		if !a.Cached || !a.OK || !a.CheckedAt.Equal(t0) {
			t.Errorf("cached result %+v", a)
		}
		if diff := cmp.Diff(first.Agents[i], a, cmpopts.IgnoreFields(probe.AgentCheck{}, "Cached")); diff != "" {
			t.Errorf("cached result differs (-first +cached):\n%s", diff)
		}
	}

	// Refresh bypasses the cache.
	check(t0.Add(2*time.Hour), true)
	if n := len(f.runs("claude")); n != 2 {
		t.Errorf("refresh: claude ran %d times, want 2", n)
	}

	// 12 hours after the refresh the result is stale.
	check(t0.Add(15*time.Hour), false)
	if n := len(f.runs("claude")); n != 3 {
		t.Errorf("expired cache: claude ran %d times, want 3", n)
	}

	// An upgraded binary (new size and mtime) invalidates its entry only.
	p := f.write("claude", fmt.Sprintf("# upgraded\ncat '%s'", helpFile(t, "claude-2.1.197.txt")))
	if err := os.Chtimes(p, t0, t0); err != nil {
		t.Fatal(err)
	}
	codexRuns := len(f.runs("codex"))
	check(t0.Add(16*time.Hour), false)
	if n := len(f.runs("claude")); n != 4 {
		t.Errorf("changed binary: claude ran %d times, want 4", n)
	}
	if n := len(f.runs("codex")); n != codexRuns {
		t.Errorf("unchanged codex ran again (%d runs, was %d)", n, codexRuns)
	}

	// The cache is JSON keyed per agent.
	var onDisk map[string]any
	data, _ := os.ReadFile(cache)
	if err := json.Unmarshal(data, &onDisk); err != nil {
		t.Fatalf("cache is not JSON: %v", err)
	}
}

func TestCheckCacheKeyFollowsSymlinkAndPackageVersion(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	// An npm layout: bin/codex -> node_modules/@openai/codex/bin/codex.js
	pkg := filepath.Join(f.dir, "lib", "node_modules", "@openai", "codex")
	if err := os.MkdirAll(filepath.Join(pkg, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	writePkg := func(version string) {
		if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@openai/codex","version":"`+version+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writePkg("0.171.0")
	script := filepath.Join(pkg, "bin", "codex.js")
	body := fmt.Sprintf("#!/bin/sh\necho run >> '%s.log'\nif [ \"$1\" = resume ]; then cat '%s'; else cat '%s'; fi\n",
		filepath.Join(f.dir, "codex"), helpFile(t, "codex-0.171.0-resume.txt"), helpFile(t, "codex-0.171.0.txt"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(script, filepath.Join(f.dir, "codex")); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(t.TempDir(), "resume-check.json")
	opt := probe.CheckOptions{CachePath: cache, Clock: at(t0), LookPath: f.lookPath, Agents: []string{"codex"}}
	rep, err := probe.Check(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agents[0]; a.RealPath != script || a.Version != "0.171.0" || !a.OK {
		t.Errorf("result %+v", a)
	}
	// Same script, new package version: probed again.
	writePkg("0.172.0")
	opt.Clock = at(t0.Add(time.Minute))
	rep, err = probe.Check(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agents[0]; a.Cached || a.Version != "0.172.0" {
		t.Errorf("after upgrade: %+v", a)
	}
	if n := len(f.runs("codex")); n != 4 {
		t.Errorf("codex ran %d times, want 4 (2 probes, twice)", n)
	}
}

func TestCheckTimeout(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	// The child sleep must die with the script: the probe kills its group.
	// Once the file answer exists, it answers (the same binary: same key).
	answer := filepath.Join(t.TempDir(), "answer")
	f.write("gemini", fmt.Sprintf("if [ -e '%s' ]; then echo '  -r, --resume <id>'; else sleep 30 & sleep 30; fi", answer))
	f.installRealHelp()
	cache := filepath.Join(t.TempDir(), "resume-check.json")
	start := time.Now()
	rep, err := probe.Check(context.Background(), s, probe.CheckOptions{
		CachePath: cache, Clock: at(t0), LookPath: f.lookPath, Timeout: 300 * time.Millisecond,
		Agents: []string{"gemini", "claude"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("check took %v", el)
	}
	want := []probe.AgentCheck{
		{Agent: "gemini", Installed: true, Error: "gemini --help: no answer within 300ms", TimedOut: true},
		{Agent: "claude", Installed: true, OK: true},
	}
	if diff := cmp.Diff(want, rep.Agents, cmpCheck); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A timeout is remembered for a few minutes: the next command does not
	// wait for it again.
	if err := os.WriteFile(answer, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err = probe.Check(context.Background(), s, probe.CheckOptions{
		CachePath: cache, Clock: at(t0.Add(time.Minute)), LookPath: f.lookPath, Agents: []string{"gemini"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agents[0]; !a.Cached || !a.TimedOut {
		t.Errorf("a minute after a timeout: %+v", a)
	}
	if n := len(f.runs("gemini")); n != 1 {
		t.Errorf("gemini ran %d times, want 1: the timeout is cached", n)
	}
	// `sessions check` (RetryFailures) tries a remembered failure again at
	// once; a cached success it leaves alone.
	rep, err = probe.Check(context.Background(), s, probe.CheckOptions{
		CachePath: cache, Clock: at(t0.Add(2 * time.Minute)), LookPath: f.lookPath, Agents: []string{"gemini", "claude"},
		RetryFailures: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agents[0]; a.Cached || !a.OK {
		t.Errorf("retried failure: %+v", a)
	}
	if a := rep.Agents[1]; !a.Cached {
		t.Errorf("a cached success was probed again: %+v", a)
	}
	if n := len(f.runs("gemini")); n != 2 {
		t.Errorf("gemini ran %d times, want 2", n)
	}
	// Past FailureTTL a failure is probed again.
	if err := os.Remove(answer); err != nil {
		t.Fatal(err)
	}
	if _, err := probe.Check(context.Background(), s, probe.CheckOptions{
		CachePath: cache, Clock: at(t0.Add(3 * time.Minute)), LookPath: f.lookPath, Agents: []string{"gemini"},
		Timeout: 300 * time.Millisecond, Refresh: true,
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(answer, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err = probe.Check(context.Background(), s, probe.CheckOptions{
		CachePath: cache, Clock: at(t0.Add(probe.FailureTTL + 4*time.Minute)), LookPath: f.lookPath, Agents: []string{"gemini"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agents[0]; a.Cached || !a.OK {
		t.Errorf("after FailureTTL: %+v", a)
	}
	got := plan.Decide(s, []live.AgentWindow{{ID: 1, Cwd: "/a", Cmd: recognised(t, s, "gemini")}}, probe.Probes{
		"gemini": {Agent: "gemini", Installed: true, Error: "gemini --help: no answer within 300ms", TimedOut: true},
	})
	// No answer is no evidence against the definition: resumed from it.
	if want := "only gemini window: --resume latest is not per directory; probe: gemini --help: no answer within 300ms (remembered 5m0s), " +
		"so its definition's flags are used (`kittymux sessions check` waits up to 20s)"; got[0].Reason != want || got[0].Mode != plan.ModeLatest {
		t.Errorf("reason %q, want %q", got[0].Reason, want)
	}
}

func TestCheckCancelled(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	f.installRealHelp()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := probe.Check(ctx, s, probe.CheckOptions{Clock: at(t0), LookPath: f.lookPath, Agents: []string{"claude"}})
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agents[0]; a.OK || a.Error == "" {
		t.Errorf("cancelled check: %+v", a)
	}
}

func TestCheckUnknownAgent(t *testing.T) {
	s := loadShipped(t)
	if _, err := probe.Check(context.Background(), s, probe.CheckOptions{Agents: []string{"nope"}}); !errors.Is(err, agents.ErrUnknownAgent) {
		t.Errorf("err = %v", err)
	}
}

func TestInstalledAndUndefinedAgents(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	f.installRealHelp()
	other := t.TempDir()
	for _, n := range []string{"cline", "opencode"} {
		if err := os.WriteFile(filepath.Join(other, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Not executable, and a directory: neither counts.
	if err := os.WriteFile(filepath.Join(other, "auggie"), []byte(""), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(f.dir, "plandex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"cline"}, s.UndefinedAgents([]string{"", f.dir, other})); diff != "" {
		t.Errorf("undefined (-want +got):\n%s", diff)
	}
	want := map[string]string{"claude": filepath.Join(f.dir, "claude"), "codex": filepath.Join(f.dir, "codex")}
	if diff := cmp.Diff(want, s.Installed(f.lookPath)); diff != "" {
		t.Errorf("installed (-want +got):\n%s", diff)
	}
}

// TestCheckWritesOnlyChanges: a check that probes nothing new leaves the
// cache file alone (every `sessions list` used to rewrite and fsync it).
func TestCheckWritesOnlyChanges(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	f.installRealHelp()
	cache := filepath.Join(t.TempDir(), "resume-check.json")
	opt := probe.CheckOptions{CachePath: cache, Clock: at(t0), LookPath: f.lookPath}
	if _, err := probe.Check(context.Background(), s, opt); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(cache)
	if err != nil {
		t.Fatal(err)
	}
	opt.Clock = at(t0.Add(time.Hour))
	rep, err := probe.Check(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rep.Agents {
		if a.Installed && !a.Cached {
			t.Errorf("%s probed again within the TTL", a.Agent)
		}
	}
	after, err := os.Stat(cache)
	if err != nil {
		t.Fatal(err)
	}
	// renameio replaces the file: a rewrite is a new inode.
	if !os.SameFile(before, after) {
		t.Error("a check that found nothing new rewrote the cache")
	}
}

// TestCheckCacheRefusesLinkedState: a state directory that is a symbolic
// link is refused, and nothing is written where it points.
func TestCheckCacheRefusesLinkedState(t *testing.T) {
	s := loadShipped(t)
	f := newFakes(t)
	f.installRealHelp()
	top := t.TempDir()
	target := filepath.Join(top, "elsewhere")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(top, "state")
	if err := os.Symlink(target, state); err != nil {
		t.Fatal(err)
	}
	opt := probe.CheckOptions{CachePath: filepath.Join(state, "resume-check.json"), StateDir: state, Clock: at(t0), LookPath: f.lookPath}
	if _, err := probe.Check(context.Background(), s, opt); err == nil || !strings.Contains(err.Error(), state) {
		t.Errorf("err = %v, want a refusal naming %s", err, state)
	}
	entries, err := os.ReadDir(target)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("wrote %d entries through the link", len(entries))
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("target mode changed: %v %v", fi.Mode(), err)
	}
}
