// Package probe runs the installed agent CLIs to confirm the flags their
// definitions rely on (Check), reads each one's option grammar from its
// --help (pkg/grammar), and caches the results by binary.
package probe

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/grammar"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// CacheTTL is how long a probe result is trusted while the binary is
// unchanged.
const CacheTTL = 12 * time.Hour

// FailureTTL is how long a failed probe (a timeout, say) is remembered: long
// enough that the next commands do not wait for it again, short enough that
// a CLI still unpacking itself on its first run is tried again soon.
const FailureTTL = 5 * time.Minute

// DefaultProbeTimeout is the deadline of `sessions check`: every CLI answered
// --help within 8 s on its first run (seen on this project's CI machines), most within 5.
const DefaultProbeTimeout = 20 * time.Second

// CommandProbeTimeout is the deadline of the probes a list, save or publish
// needs: they must never stall the command. The node CLIs answer --help in
// 0.5-5 s on a busy 2-core machine (gemini, qodercli the slowest); a CLI
// slower than this is kept as saved, and says so, until `sessions check`
// probes it with more time. Results are cached, so it is paid rarely.
const CommandProbeTimeout = 6 * time.Second

// maxProbeOutput caps what a probe may print; help text is a few kilobytes.
const maxProbeOutput = 1 << 20

// Caps of the files a probe reads: its cache, and an npm package's
// package.json, which a cloned repository's node_modules can hold.
const (
	maxCacheFile   = 4 << 20
	maxPackageJSON = 1 << 20
)

// agent is what a probe reads of one agent's definition.
type agent struct {
	name   string
	probes []agents.Probe // the definition's runs
}

// CheckOptions configure Check.
type CheckOptions struct {
	// CachePath is the report cache (paths.Paths.ResumeCheck()); empty
	// disables the cache.
	CachePath string
	// StateDir is the state directory the cache lies under, refused if it
	// is a link (paths.Paths.StateDir); empty: the cache's own directory.
	StateDir string
	// Refresh ignores cached results (they are still rewritten).
	Refresh bool
	// RetryFailures ignores cached failures and timeouts: `sessions check`
	// is what a user runs to try a CLI again, with its longer deadline.
	RetryFailures bool
	// Clock gives the time probes are checked and cached at (clock.Real
	// when nil).
	Clock clock.Clock
	// LookPath defaults to exec.LookPath.
	LookPath func(string) (string, error)
	// Timeout is one deadline for every probe run together (they run in
	// parallel); DefaultProbeTimeout when zero.
	Timeout time.Duration
	// Env of the probe runs (a scratch HOME, say); nil inherits.
	Env []string
	// Agents limits the check to these agents; empty means all.
	Agents []string
}

// CheckOptionsFor returns the options `sessions check` uses: the cache in
// the state directory.
func CheckOptionsFor(p paths.Paths) CheckOptions {
	return CheckOptions{CachePath: p.ResumeCheck(), StateDir: p.StateDir}
}

// Report is the result of Check, as `sessions check --json` prints it.
type Report struct {
	CheckedAt time.Time    `json:"checked_at"`
	Agents    []AgentCheck `json:"agents"`
}

// AgentCheck is one agent's probe result.
type AgentCheck struct {
	Agent     string   `json:"agent"`
	Path      string   `json:"path,omitempty"`      // as found on PATH
	RealPath  string   `json:"real_path,omitempty"` // symlinks resolved
	Version   string   `json:"version,omitempty"`   // package.json version of an npm install
	Installed bool     `json:"installed"`
	OK        bool     `json:"ok"`                // installed, probes ran, every expected token seen
	Missing   []string `json:"missing,omitempty"` // expected tokens not seen
	Error     string   `json:"error,omitempty"`   // a probe that could not run or timed out
	// TimedOut: the probe did not answer within the deadline.
	TimedOut bool `json:"timed_out,omitempty"`
	// Grammar is the option syntax read from the CLI's help.
	Grammar *grammar.Grammar `json:"grammar,omitempty"`
	// CheckedAt is when the probes ran; older than now for a cached result.
	CheckedAt time.Time `json:"checked_at"`
	Cached    bool      `json:"cached,omitempty"`
}

// Probes are probe results by agent, as Decide uses them. A nil Probes means
// not checked: the definitions are trusted.
type Probes map[string]AgentCheck

// Probes derives what Decide needs from a report.
func (r Report) Probes() Probes {
	p := make(Probes, len(r.Agents))
	for _, a := range r.Agents {
		p[a.Agent] = a
	}
	return p
}

// Grammar is the option grammar the probe of agent read from its help, nil
// when there is none.
func (p Probes) Grammar(agent string) *grammar.Grammar {
	return p[agent].Grammar
}

type cacheFile struct {
	Version int                   `json:"version"`
	Agents  map[string]cacheEntry `json:"agents"`
}

type cacheEntry struct {
	// Key ties the result to one build of the CLI and one set of probes:
	// upgrading the CLI or editing the definition invalidates it.
	Key    string     `json:"key"`
	Result AgentCheck `json:"result"`
}

const cacheVersion = 2

// Check probes every defined agent found on PATH, all in parallel under one
// deadline (opt.Timeout): each probe runs with stdin from /dev/null, in a
// temporary directory, and its output must show every expected token; the
// help text also gives the CLI's option grammar. Results are cached in
// opt.CachePath, keyed by the resolved binary (path, size, mtime, npm package
// version) and the probes: CacheTTL for a result, FailureTTL for a timeout
// or a failure, so the next command does not wait again. The cache is
// written only when a result changed. The report is returned even when the
// cache cannot be written.
func Check(ctx context.Context, s *agents.Set, opt CheckOptions) (Report, error) {
	opt = opt.withDefaults()
	names, err := checked(s, opt.Agents)
	if err != nil {
		return Report{}, err
	}
	now := opt.Clock.Now()
	cache := readCache(opt.CachePath)
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()

	results := make([]AgentCheck, len(names))
	keys := make([]string, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		a := &agent{name: n, probes: s.ProbeRuns(n)}
		res := AgentCheck{Agent: n, CheckedAt: now}
		path, ok := s.LookPath(n, opt.LookPath)
		if !ok {
			results[i] = res
			continue
		}
		res.Path, res.Installed = path, true
		key, real, version := a.cacheKey(path)
		res.RealPath, res.Version = real, version
		keys[i] = key
		if r, hit := cache.lookup(n, key, now, opt); hit {
			results[i] = r
			continue
		}
		wg.Go(func() { results[i] = a.probe(ctx, res, opt) })
	}
	wg.Wait()

	report := Report{CheckedAt: now, Agents: results}
	if opt.CachePath == "" || !cache.update(results, keys) {
		// Nothing new: a command that changes nothing writes nothing.
		return report, nil
	}
	if err := writeCache(opt.StateDir, opt.CachePath, cache); err != nil {
		return report, err
	}
	return report, nil
}

func (opt CheckOptions) withDefaults() CheckOptions {
	if opt.Clock == nil {
		opt.Clock = clock.Real
	}
	if opt.LookPath == nil {
		opt.LookPath = exec.LookPath
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultProbeTimeout
	}
	return opt
}

// checked are the agents a check probes: only (each defined), or all.
func checked(s *agents.Set, only []string) ([]string, error) {
	if len(only) == 0 {
		return s.Names(), nil
	}
	var names []string
	for _, n := range only {
		if _, ok := s.Definition(n); !ok {
			return nil, fmt.Errorf("check %s: %w", n, agents.ErrUnknownAgent)
		}
		names = append(names, n)
	}
	return names, nil
}

// lookup returns the cached result of agent when it may still be used: the
// same build and probes (key), fresh at now, and not a failure a check that
// retries failures runs again.
func (c cacheFile) lookup(agent, key string, now time.Time, opt CheckOptions) (AgentCheck, bool) {
	e, hit := c.Agents[agent]
	if !hit || opt.Refresh || key == "" || e.Key != key || !e.fresh(now) || (opt.RetryFailures && e.Result.Error != "") {
		return AgentCheck{}, false
	}
	res := e.Result
	res.Cached = true
	return res, true
}

// update records the results that are new in c (keys[i] is the cache key
// of results[i]) and drops agents no longer installed; it reports whether
// anything changed.
func (c *cacheFile) update(results []AgentCheck, keys []string) bool {
	if c.Agents == nil {
		c.Agents = map[string]cacheEntry{}
	}
	dirty := false
	for i, r := range results {
		_, had := c.Agents[r.Agent]
		switch {
		case r.Cached:
		case !r.Installed || keys[i] == "":
			if had {
				delete(c.Agents, r.Agent)
				dirty = true
			}
		default:
			r.Cached = false
			c.Agents[r.Agent] = cacheEntry{Key: keys[i], Result: r}
			dirty = true
		}
	}
	return dirty
}

// fresh reports whether a cached result may still be used at now.
func (e cacheEntry) fresh(now time.Time) bool {
	ttl := CacheTTL
	if e.Result.Error != "" {
		ttl = FailureTTL
	}
	at := e.Result.CheckedAt
	return !at.After(now) && now.Sub(at) < ttl
}

// helpRuns are the runs of a probe: the definition's probes, with the root
// --help first so its grammar (and its subcommands) is always read.
func (a *agent) helpRuns() []agents.Probe {
	if len(a.probes) == 0 {
		return nil
	}
	runs := []agents.Probe{{Args: []string{"--help"}}}
	for _, p := range a.probes {
		if slices.Equal(p.Args, runs[0].Args) {
			runs[0].Expect = append(runs[0].Expect, p.Expect...)
			continue
		}
		runs = append(runs, p)
	}
	return runs
}

// isHelp: the run prints a help text whose options are worth reading.
func isHelp(args []string) bool {
	last := args[len(args)-1]
	return last == "--help" || last == "-h"
}

// probe runs every probe of a in parallel and fills res.
func (a *agent) probe(ctx context.Context, res AgentCheck, opt CheckOptions) AgentCheck {
	runs := a.helpRuns()
	type outcome struct {
		out string
		err error
	}
	outs := make([]outcome, len(runs))
	var wg sync.WaitGroup
	for i, p := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := runProbe(ctx, res.Path, p.Args, opt.Env)
			outs[i] = outcome{out, err}
		}()
	}
	wg.Wait()

	res.OK = true
	var g grammar.Grammar
	parsed := false
	for i, p := range runs {
		label := a.name + " " + strings.Join(p.Args, " ")
		out, err := outs[i].out, outs[i].err
		if errors.Is(err, context.DeadlineExceeded) {
			return a.failed(res, fmt.Sprintf("%s: no answer within %s", label, opt.Timeout), true)
		}
		var exitErr *exec.ExitError
		if err != nil && !errors.As(err, &exitErr) {
			return a.failed(res, fmt.Sprintf("%s: %v", label, err), false)
		}
		var missing []string
		for _, tok := range p.Expect {
			if !grammar.Shows(out, tok) {
				missing = append(missing, tok)
			}
		}
		// Some CLIs exit non-zero after printing help; only a failing run
		// that also lacks the tokens is an error.
		if err != nil && len(missing) > 0 {
			return a.failed(res, fmt.Sprintf("%s: %v: %s", label, err, firstLine(out)), false)
		}
		res.Missing = append(res.Missing, missing...)
		if isHelp(p.Args) {
			parsed = g.MergeHelp(filepath.Base(res.Path), p.Args, out) || parsed
		}
	}
	if parsed {
		res.Grammar = &g
	}
	if len(res.Missing) > 0 {
		res.OK = false
	}
	return res
}

func (a *agent) failed(res AgentCheck, why string, timedOut bool) AgentCheck {
	res.OK, res.Error, res.TimedOut, res.Missing, res.Grammar = false, why, timedOut, nil, nil
	return res
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

type limitedBuffer struct {
	buf bytes.Buffer
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxProbeOutput - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// runProbe runs path with args: stdin /dev/null (exec's default for a nil
// Stdin), a fresh temporary directory so a CLI that writes on --help writes
// there, and the process group killed at ctx's deadline so a node wrapper's
// native child does not outlive it.
func runProbe(ctx context.Context, path string, args, env []string) (string, error) {
	dir, err := os.MkdirTemp("", "kittymux-probe-")
	if err != nil {
		return "", fmt.Errorf("create probe directory: %w", err)
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	agents.KillGroup(cmd)
	// Killed, a process that escaped the group could hold the pipe open:
	// stop reading soon after, the deadline is the command's.
	cmd.WaitDelay = 300 * time.Millisecond
	err = cmd.Run()
	if ctx.Err() != nil {
		return out.buf.String(), ctx.Err()
	}
	return out.buf.String(), err
}

// cacheKey identifies the installed build: the resolved binary's path, size
// and mtime, plus the npm package version when the binary sits in one (a
// node script changes little between versions), plus the probes.
func (a *agent) cacheKey(path string) (key, real, version string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", "", ""
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", real, ""
	}
	version = packageVersion(real)
	probes, _ := json.Marshal(a.helpRuns())
	sum := sha256.Sum256(probes)
	key = fmt.Sprintf("%s|%d|%d|%s|%s|g%d", real, fi.Size(), fi.ModTime().UnixNano(), version, hex.EncodeToString(sum[:6]), grammar.Version)
	return key, real, version
}

// packageVersion reads the version of the npm package holding file, if any.
func packageVersion(file string) string {
	if !strings.Contains(file, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
		return ""
	}
	dir := filepath.Dir(file)
	for range 4 {
		data, err := userfile.Read(filepath.Join(dir, "package.json"), maxPackageJSON)
		if err == nil {
			var pkg struct {
				Version string `json:"version"`
			}
			if json.Unmarshal(data, &pkg) == nil {
				return pkg.Version
			}
			return ""
		}
		if filepath.Base(filepath.Dir(dir)) == "node_modules" {
			break
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// readCache returns the cached results; a missing or unreadable cache is an
// empty one, since it only saves time.
func readCache(path string) cacheFile {
	var c cacheFile
	if path == "" {
		return c
	}
	data, err := userfile.Read(path, maxCacheFile)
	if err != nil {
		return c
	}
	if json.Unmarshal(data, &c) != nil || c.Version != cacheVersion {
		return cacheFile{}
	}
	return c
}

func writeCache(stateDir, path string, c cacheFile) error {
	c.Version = cacheVersion
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("encode probe cache: %w", err)
	}
	if stateDir == "" {
		stateDir = filepath.Dir(path)
	}
	if err := statefile.WriteFile(stateDir, path, append(data, '\n')); err != nil {
		return fmt.Errorf("write probe cache %s: %w", path, err)
	}
	return nil
}

// PackageVersion is the version in the package.json of the npm package
// that holds the program at path (symlinks followed), "" when it is none:
// read from the file, without running the program.
func PackageVersion(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	return packageVersion(real)
}
