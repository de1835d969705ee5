package agents

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/grammar"
)

// requiredRealCLIs are installed by CI (.ci/run): their absence fails the
// test under KITTYMUX_E2E=require. The other captured CLIs are checked when
// they are on PATH.
var requiredRealCLIs = []string{"claude", "codex"}

// helpTimeout is the deadline of one CLI's help runs (the probes' default).
const helpTimeout = 20 * time.Second

// runHelp runs a CLI's help as a probe does: stdin from /dev/null, in a
// scratch directory, output and errors together.
func runHelp(ctx context.Context, path string, args, env []string) (string, error) {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = os.TempDir(), env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestCapturedHelpIsCurrent re-reads the help of each installed CLI whose
// help is captured and fails when no captured version's help is current for
// what kittymux uses: an option or subcommand of the definition whose arity
// changed, appeared or went, or a new option with a value that the
// definition does not list. The pinned version and the newer captured ones
// (capturedCLI.newer) each pass. Recapture with
// testdata/agents/capture-help.sh and correct the definition.
func TestCapturedHelpIsCurrent(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	env := scratchEnv(t)
	for _, cli := range capturedCLIs {
		t.Run(cli.agent, func(t *testing.T) {
			a := s.agents[cli.agent].get()
			path, ok := a.find(exec.LookPath)
			if !ok {
				msg := cli.agent + " is not on PATH (npm install its package and put node_modules/.bin on PATH)"
				if slices.Contains(requiredRealCLIs, cli.agent) && os.Getenv("KITTYMUX_E2E") == "require" {
					t.Fatal(msg)
				}
				t.Skip(msg)
			}
			ctx, cancel := context.WithTimeout(context.Background(), helpTimeout)
			defer cancel()
			var live grammar.Grammar
			for _, args := range append([][]string{nil}, cli.subs...) {
				args = append(slices.Clone(args), "--help")
				out, err := runHelp(ctx, path, args, env)
				if err != nil && out == "" {
					t.Fatalf("%s %s: %v", path, strings.Join(args, " "), err)
				}
				live.MergeHelp(cli.agent, args, out)
			}
			now := CompileGrammar(&live)
			var closest []string
			for i, c := range cli.versions() {
				stale := staleCapture(a, CompileGrammar(c.grammar(t)), now, c.version, path)
				if len(stale) == 0 {
					return
				}
				if i == 0 || len(stale) < len(closest) {
					closest = stale
				}
			}
			for _, e := range closest {
				t.Error(e)
			}
		})
	}
}

// staleCapture lists where the captured help of version and the help of the
// installed CLI at path differ for what definition a uses.
func staleCapture(a *Agent, captured, now *CompiledGrammar, version, path string) []string {
	var out []string
	for _, f := range definitionFlags(a) {
		if captured.arity[f] != now.arity[f] {
			out = append(out, fmt.Sprintf("%s: arity %d in the captured help of %s, %d in the installed %s",
				f, captured.arity[f], version, now.arity[f], path))
		}
	}
	for f, ar := range now.arity {
		if _, known := a.kinds[f]; !known && ar != grammar.ArityNone && !AlwaysHelper[f] {
			out = append(out, fmt.Sprintf("%s takes a value in the installed %s and the definition does not list it", f, path))
		}
	}
	for _, sc := range a.subcommands {
		if w := sc.Words[0]; captured.Subs[w] != now.Subs[w] {
			out = append(out, fmt.Sprintf("subcommand %q: in the captured help of %s %v, in the installed %s %v",
				w, version, captured.Subs[w], path, now.Subs[w]))
		}
	}
	slices.Sort(out)
	return out
}

// definitionFlags are the options a definition names, the templates' too.
func definitionFlags(a *Agent) []string {
	var out []string
	for f, k := range a.kinds {
		if k != KindSecret { // kept out whatever the help says
			out = append(out, f)
		}
	}
	out = append(out, templateFlags(a.Def.Exact)...)
	out = append(out, templateFlags(a.Def.Latest)...)
	slices.Sort(out)
	return slices.Compact(out)
}

// scratchEnv is the environment of a probe run in a test: the CLIs write
// under HOME and the XDG directories on --help, so those point into a
// temporary directory.
func scratchEnv(t *testing.T) []string {
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || strings.HasPrefix(k, "XDG_") || k == "CODEX_HOME" || k == "CLAUDE_CONFIG_DIR" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "NO_COLOR=1", "TERM=dumb")
}
