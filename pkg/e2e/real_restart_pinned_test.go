//go:build linux

package e2e_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	agentscmd "github.com/kittymux/kittymux/pkg/cmd/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/restart"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealRestartPIDReused: `agents restart` asks its question; while it
// waits, one agent exits, and the pid of another is taken by a process
// that is not the agent seen (its start differs: the start read when the
// agents were seen is made another here, as a pid taken over would have
// it). On "y" neither window is typed into, the process at the second
// pid gets no signal and runs on, and neither line says restarted.
func TestRealRestartPIDReused(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, log := kittytest.FakeAgents(t, "claude")
	k := kittytest.StartReal(t, kittytest.RealOptions{Env: append(log.Env(), "FAKEAGENT_TITLE=fake agent")})
	dirs := e2etest.WorkDirs(t, "gone", "reused")
	const (
		u1 = "27a00001-1111-4111-8111-111111111111"
		u2 = "27a00002-2222-4222-8222-222222222222"
	)
	gone := shellWindow(t, k, dirs[0], nil, "claude --resume "+u1)
	reused := shellWindow(t, k, dirs[1], nil, "claude --resume "+u2)
	pids := map[string]int{}
	for n := 2; len(pids) < 2; n++ {
		for _, r := range log.WaitFor(t, n, 30*time.Second) {
			if len(r.Args) == 2 && r.Args[0] == "--resume" {
				pids[filepath.Base(r.Cwd)] = r.PID
			}
		}
	}
	runs := resumes(log)

	env := map[string]string{"PATH": binDir + ":" + os.Getenv("PATH")}
	w := newRestartWorld(t, k, env)
	var out, errOut bytes.Buffer
	f := w.factory(t, &out, &errOut)
	asked := false
	cmd := agentscmd.NewCmdRestart(f, func(o *agentscmd.RestartOptions) error {
		o.Start = func(pid int) string {
			if pid == pids["reused"] {
				return "the start of the agent seen"
			}
			return procid.Start(pid)
		}
		o.Runner = func(r *restart.Runner) {
			r.Bounds = restart.Bounds{Clean: 2 * time.Second, Term: 2 * time.Second, Kill: 2 * time.Second, Start: 5 * time.Second}
		}
		o.Confirm = func(question, detail string) (bool, error) {
			asked = true
			// While the question waits, the first agent exits.
			if err := syscall.Kill(pids["gone"], syscall.SIGKILL); err != nil {
				t.Errorf("kill the first agent: %v", err)
			}
			k.WaitForText(winMatch(gone), func(s string) bool { return strings.Contains(s, "Killed") }, 30*time.Second)
			return true, nil
		}
		return agentscmd.Restart(t.Context(), o)
	})
	cmd.SetArgs([]string{"--json"})
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	code := factory.Report(&errOut, cmd.Execute())
	var got struct{ Windows []restart.Result }
	// The JSON, then cobra's usage after the error exit.
	if err := json.NewDecoder(bytes.NewReader(out.Bytes())).Decode(&got); err != nil || !asked {
		t.Fatalf("agents restart: exit %d, asked %v, %v\n%s\n%s", code, asked, err, out.String(), errOut.String())
	}
	if code != factory.ExitError || len(got.Windows) != 2 {
		t.Errorf("agents restart: exit %d\n%s", code, out.String())
	}
	for _, r := range got.Windows {
		if r.Outcome == restart.Restarted || !strings.Contains(r.Why, "no longer the process seen") {
			t.Errorf("window %d: %+v; want failed, not the process seen", r.WindowID, r)
		}
	}
	if err := syscall.Kill(pids["reused"], 0); err != nil {
		t.Errorf("the process at the reused pid %d was signalled: %v", pids["reused"], err)
	}
	time.Sleep(time.Second) // what would be typed or started shows by now
	for _, id := range []int{gone, reused} {
		if s, err := k.Client.GetText(t.Context(), winMatch(id), "screen"); err != nil || strings.Contains(s, "kittymux-resume") {
			t.Errorf("window %d was typed into (%v):\n%s", id, err, s)
		}
	}
	if n := resumes(log); n != runs {
		t.Errorf("%d fake agent runs resumed a conversation, want the %d started by hand: %+v", n, runs, log.Records())
	}
}

// resumes counts the fake agents' runs that resumed a conversation.
func resumes(log *kittytest.AgentLog) int {
	n := 0
	for _, r := range log.Records() {
		if len(r.Args) > 0 && r.Args[0] == "--resume" {
			n++
		}
	}
	return n
}
