package hookinstall_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/hookinstall"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealCLIsRunTheHooks installs the hooks into a scratch HOME for the
// real CLIs on PATH and runs each once (`-p`, not logged in: the session
// still starts and the prompt is still submitted), then reads what the hooks
// recorded. It proves the settings file, the event names and the payload
// are what the installed CLI uses. claude is required under
// KITTYMUX_E2E=require; gemini is checked when it is on PATH.
func TestRealCLIsRunTheHooks(t *testing.T) {
	for _, tc := range []struct {
		agent    string
		required bool
		args     []string
		env      []string
		// wait bounds the run on an idle machine (stretched on a busy one):
		// claude gives up at once when not logged in; gemini retries its
		// model call, so it is stopped once its hooks recorded the prompt.
		wait time.Duration
	}{
		{"claude", true, []string{"-p", "say hi"}, nil, 90 * time.Second},
		// gemini wants some auth and a trusted directory before it starts.
		{"gemini", false, []string{"-p", "say hi"}, []string{"GEMINI_API_KEY=not-a-key", "GEMINI_CLI_TRUST_WORKSPACE=true"}, 20 * time.Second},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			cli, err := exec.LookPath(tc.agent)
			if err != nil {
				if tc.required && os.Getenv("KITTYMUX_E2E") == "require" {
					t.Fatalf("%s is not on PATH", tc.agent)
				}
				t.Skipf("%s is not on PATH (required with KITTYMUX_E2E=require: claude)", tc.agent)
			}
			home := t.TempDir()
			// What the CLI detached (a hook still running, a child of its
			// own) ends before the TempDir goes.
			t.Cleanup(func() { kittytest.EndLeftovers(home) })
			bin := filepath.Join(t.TempDir(), "kittymux")
			if out, err := exec.Command("go", "build", "-o", bin, "github.com/kittymux/kittymux/cmd/kittymux").CombinedOutput(); err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			a, _ := hookinstall.Find(tc.agent)
			env := hookinstall.Env{Getenv: func(string) string { return "" }, Home: home, Exe: bin}
			if _, err := hookinstall.Install(a, env); err != nil {
				t.Fatal(err)
			}
			state := filepath.Join(home, "state")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd := exec.CommandContext(ctx, cli, tc.args...)
			cmd.Dir = home
			// The CLI's own children (gemini re-spawns node) go with it.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			cmd.WaitDelay = 5 * time.Second
			for _, kv := range os.Environ() {
				k, _, _ := strings.Cut(kv, "=")
				if k == "HOME" || strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "KITTY_") || k == "CLAUDE_CONFIG_DIR" ||
					k == "GEMINI_CLI_HOME" || strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "GEMINI_") || strings.HasPrefix(k, "GOOGLE_") {
					continue
				}
				cmd.Env = append(cmd.Env, kv)
			}
			cmd.Env = append(cmd.Env, "HOME="+home, "XDG_STATE_HOME="+state, "KITTY_WINDOW_ID=42", "KITTY_PID=1")
			cmd.Env = append(cmd.Env, tc.env...)
			out := &kittytest.Buffer{}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { _ = cmd.Wait(); close(exited) }() // not logged in: it fails, after the hooks ran
			j := journal.New(filepath.Join(state, "kittymux", "agent-sessions.json"), false)
			prompted := func() bool {
				f, err := j.Read()
				return err == nil && len(f.Records) == 1 && (f.Records[0].State == agents.StateWorking || f.Records[0].RunsFinished > 0)
			}
			bound := kittytest.NewBound(t, tc.agent+"'s hooks to record the prompt", tc.wait)
		wait:
			for !prompted() && !bound.Over() {
				select {
				case <-exited:
					break wait
				case <-time.After(100 * time.Millisecond):
				}
			}
			if bound.Over() {
				t.Log(bound)
			}
			cancel()
			<-exited
			f, err := j.Read()
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Records) != 1 {
				log, _ := os.ReadFile(filepath.Join(state, "kittymux", "hook.log"))
				t.Fatalf("%d records; %s said:\n%s\nhook.log:\n%s", len(f.Records), tc.agent, out, log)
			}
			r := f.Records[0]
			t.Logf("%s: id %s, state %s, runs %d", tc.agent, r.ID, r.State, r.RunsFinished)
			if r.Agent != tc.agent || r.IDFrom != "hook" || r.ID == "" || r.WindowID != 42 || r.HookAt == nil || r.Dir == "" {
				t.Errorf("record %+v", r)
			}
			// The prompt was submitted: the record saw it work (and, where the
			// turn ended, a run finished).
			if r.State != agents.StateWorking && r.RunsFinished == 0 {
				t.Errorf("no prompt recorded: state %s, runs %d", r.State, r.RunsFinished)
			}
		})
	}
}
