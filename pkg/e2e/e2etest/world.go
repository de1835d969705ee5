//go:build linux

package e2etest

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	cmdscanner "github.com/kittymux/kittymux/pkg/cmd/scanner"
	"github.com/kittymux/kittymux/pkg/hookinstall"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// world is the setting of one real conversation: the stand-in, the
// agent's HOME, kittymux's state and the environment kitty and its windows
// get.
type world struct {
	t        *testing.T
	agent    Agent
	stub     *modelstub.Server
	kittyBin string
	home     string // the agent's HOME, kitty's too
	p        paths.Paths
	env      map[string]string // kittymux's environment
	kitty    []string          // kitty's environment (RealOptions.Env)
	scanLog  *kittytest.Buffer
	hookBin  string // the kittymux the hooks run, once installed
}

func newWorld(t *testing.T, agent Agent, kittyBin string, dirs ...string) *world {
	t.Helper()
	NeedCLI(t, agent.name)
	w := &world{t: t, agent: agent, stub: modelstub.Start(t), kittyBin: kittyBin, scanLog: &kittytest.Buffer{}}
	base := t.TempDir()
	w.home = filepath.Join(base, "home")
	xdgState := filepath.Join(base, "state")
	for _, d := range []string{w.home, xdgState} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.p = paths.Paths{StateDir: filepath.Join(xdgState, "kittymux"), ConfigDir: filepath.Join(base, "config")}
	agentEnv := agent.home(t, w.stub, w.home, dirs...)
	t.Cleanup(func() { kittytest.EndLeftovers(w.home) })
	// kitty for `restore` and `recover` to start: the one under test.
	kittyDir := filepath.Join(base, "bin")
	if err := os.Mkdir(kittyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kittyDir, "kitty"), []byte("#!/bin/sh\nexec '"+kittyBin+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.kitty = append([]string{"HOME=" + w.home, "XDG_STATE_HOME=" + xdgState}, agentEnv...)
	w.env = map[string]string{
		"HOME": filepath.Join(base, "kittymux-home"), "PATH": kittyDir + ":" + os.Getenv("PATH"),
		"XDG_STATE_HOME": xdgState, "KITTYMUX_RESUME_BIN": Bin(t, "kittymux-resume"), "KITTYMUX_PROBE_TIMEOUT": "60s",
		autosave.EnvSettle: "1s", autosave.EnvAtMostEvery: "2s", autosave.EnvAtLeastEvery: "10s", autosave.EnvKeep: "3",
	}
	return w
}

// factory is kittymux in-process with the world's environment, writing to out.
func (w *world) factory(out *kittytest.Buffer) *factory.Factory {
	f := factorytest.Writing(w.t, out, out)
	f.Getenv = func(k string) string { return w.env[k] }
	f.Paths = w.p
	return f
}

// agentFactory is kittymux in-process as the agent's hooks see it: the
// agent's HOME, and the kittymux the hooks run.
func (w *world) agentFactory(out *kittytest.Buffer, executable string) *factory.Factory {
	f := w.factory(out)
	f.Executable = executable
	env := maps.Clone(w.env)
	env["HOME"] = w.home
	f.Getenv = func(k string) string { return env[k] }
	return f
}

// scanner runs `kittymux scanner run` on k with short settings until the
// returned stop is called (or the test ends).
func (w *world) scanner(k *kittytest.Real) (stop func()) {
	t := w.t
	f := w.factory(w.scanLog)
	inst := kitty.Instance{Addr: k.Addr, Socket: k.Addr.String(), PID: k.PID, Version: k.Version, Source: "kitty.conf listen_on"}
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return []kitty.Instance{inst}, nil }
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- cmdscanner.Run(ctx, cmdscanner.RunOptions{Interval: 200 * time.Millisecond, Rescan: time.Second,
			Signals: []os.Signal{}}.From(f))
	}()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("scanner: %v", err)
			}
		}
	}
	t.Cleanup(stop)
	return stop
}

// startKitty starts a real kitty with the world's environment, on session
// when it is not "".
func (w *world) startKitty(bin, session string, config ...string) *kittytest.Real {
	// Each window as wide as the tab: the TUIs wrap what is typed.
	return kittytest.StartReal(w.t, kittytest.RealOptions{Env: w.kitty, Kitty: bin, Session: session, Cwd: w.home,
		Config: append([]string{"enabled_layouts stack"}, config...)})
}

// installHooks runs `kittymux integration install AGENT` for the agent's
// HOME, with a kittymux built for the hooks to run.
func (w *world) installHooks() {
	t := w.t
	t.Helper()
	bin := Bin(t, "kittymux")
	out := &kittytest.Buffer{}
	if code := root.Main(w.agentFactory(out, bin), []string{"integration", "install", w.agent.name}); code != 0 {
		t.Fatalf("integration install %s: exit %d\n%s", w.agent.name, code, out)
	}
	t.Logf("integration install %s:\n%s", w.agent.name, out)
	w.hookBin = bin
}

// integrationStatus is `kittymux integration status --json` of the agent
// for its HOME.
func (w *world) integrationStatus() hookinstall.Status {
	t := w.t
	t.Helper()
	out := &kittytest.Buffer{}
	if code := root.Main(w.agentFactory(out, w.hookBin), []string{"integration", "status", "--json", w.agent.name}); code != 0 {
		t.Fatalf("integration status: exit %d\n%s", code, out)
	}
	var got struct{ Integrations []hookinstall.Status }
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil || len(got.Integrations) != 1 {
		t.Fatalf("integration status: %v\n%s", err, out)
	}
	return got.Integrations[0]
}

// convOf finds the conversation id that holds word in the agent's own
// files under the world's HOME.
func (w *world) convOf(word string) string {
	w.t.Helper()
	var found []string
	// The agent writes its file as the turn goes: wait for it.
	for bound := kittytest.NewBound(w.t, "a conversation with "+word, 30*time.Second); len(found) == 0 && !bound.Over(); {
		found = w.agent.conv(w, word)
		time.Sleep(100 * time.Millisecond)
	}
	if len(found) != 1 {
		var files []string
		_ = filepath.WalkDir(w.home, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, strings.TrimPrefix(path, w.home))
			}
			return nil
		})
		w.t.Fatalf("%s is in %d conversations, want 1: %q; the agent's HOME holds %q", word, len(found), found, files)
	}
	return found[0]
}

// filesWith returns the files under the world's HOME whose path matches re
// and that hold word.
func (w *world) filesWith(re *regexp.Regexp, word string) []string {
	var found []string
	_ = filepath.WalkDir(w.home, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !re.MatchString(path) {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), word) {
			found = append(found, path)
		}
		return nil
	})
	return found
}

func windowMatch(id int) string { return "id:" + strconv.Itoa(id) }
