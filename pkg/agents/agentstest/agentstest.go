// Package agentstest holds what the tests of pkg/agents, pkg/probe and
// pkg/plan share: the shipped definitions, recognised command lines and ids
// of each agent's form.
package agentstest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/testkit/modelstub"
)

// Ids of each agent's form.
const (
	UUID    = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	CodexID = "0199a213-81c0-7800-8aa1-bbab2a035a53" // uuid v7, as codex makes them
	SesID   = "ses_6Jb3kX9qP2"
	AmpID   = "T-4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	TokenID = "20250301_3"
)

// Shipped loads the shipped definitions.
func Shipped(t testing.TB) *agents.Set {
	t.Helper()
	s, err := agents.Load("")
	if err != nil {
		t.Fatalf("load shipped definitions: %v", err)
	}
	return s
}

// Recognised is the command a typed line recognises as.
func Recognised(t testing.TB, s *agents.Set, line string) recognize.Command {
	t.Helper()
	c, ok := recognize.String(s, line)
	if !ok {
		t.Fatalf("%q not recognised", line)
	}
	return c
}

// NeedCLI skips without the agent CLI, unless CI requires the real ones.
func NeedCLI(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("%s is not on PATH; .ci/run installs it from npm", name)
		}
		t.Skip(name + " is not on PATH (KITTYMUX_E2E=require makes this fatal)")
	}
	return p
}

// RunCLI runs an agent CLI to its end in dir with HOME=home.
func RunCLI(t testing.TB, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(modelstub.Isolated(os.Environ()), env...)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%q: %v\n%s", argv, err, out)
	}
	return string(out)
}

// realDir makes the directory and returns it with symlinks resolved.
func realDir(t testing.TB, parts ...string) string {
	t.Helper()
	d := filepath.Join(parts...)
	if err := os.MkdirAll(d, 0o700); err != nil {
		t.Fatal(err)
	}
	r, err := filepath.EvalSymlinks(d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// AtStandIn is the installed cli in a HOME of its own, set up by homeOf
// (modelstub's ClaudeHome, CodexHome, ...) to talk to the model stand-in,
// and a work directory named work: the cli's program, HOME, the
// directory, the environment and the stand-in.
func AtStandIn(t testing.TB, cli, work string, homeOf func(*modelstub.Server, testing.TB, string, ...string) []string) (
	bin, home, dir string, env []string, stub *modelstub.Server) {
	bin = NeedCLI(t, cli)
	stub = modelstub.Start(t)
	root := t.TempDir()
	home, dir = realDir(t, root, "home"), realDir(t, root, work)
	return bin, home, dir, append(homeOf(stub, t, home, dir), "HOME="+home), stub
}
