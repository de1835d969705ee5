package restart

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
)

// TestRestartPIDReused: while `agents restart` asks its question the agent
// ends and an unrelated process gets its pid. Restart saw the agent (its
// pid and start); on "y" the pid is another process's: it gets no signal,
// nothing is typed, and the line does not say restarted.
func TestRestartPIDReused(t *testing.T) {
	set := loadSet(t)
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	pid := other.Process.Pid

	for _, direct := range []bool{false, true} {
		w := window(1, "", direct, "/usr/bin/claude", "--resume", uuid1)
		w.ForegroundProcesses[0].PID = pid
		if direct {
			w.PID = pid
		}
		fk := &fakeKitty{}
		fk.ls = func() []kitty.OSWindow {
			return []kitty.OSWindow{{ID: 1, Tabs: []kitty.Tab{{ID: 1, Windows: []kitty.Window{w}}}}}
		}
		// The agent as seen when the question was asked: its pid, and the
		// start of the agent that ran then (not the sleep's).
		agentStart := func(int) string { return "the agent's start" }
		ts := Plan([]Kitty{{Instance: kitty.Instance{Socket: "unix:/k"}, LS: fk.ls()}}, PlanOptions{Agents: set,
			Read: readFrom(fk.ls), Start: agentStart,
			Records: live.Records{ProcRoot: t.TempDir(), Getenv: func(string) string { return "" }}})
		if len(ts) != 1 || ts[0].Skip != "" {
			t.Fatalf("plan: %+v", ts)
		}
		r := &Runner{Client: func(kitty.Instance) Client { return fk }, Procs: OS{}, ResumeBin: "/opt/km/kittymux-resume",
			Self: "/opt/km/kittymux", Agents: set, Key: make([]byte, 32), Poll: time.Millisecond,
			Bounds: Bounds{Clean: 20 * time.Millisecond, Term: 20 * time.Millisecond, Kill: 20 * time.Millisecond, Start: 50 * time.Millisecond}}
		res := r.Run(t.Context(), ts, false)[0]
		if res.Outcome == Restarted || !strings.Contains(res.Why, "no longer the process seen") {
			t.Errorf("direct %v: %+v; want failed, the process no longer the one seen", direct, res)
		}
		if err := syscall.Kill(pid, 0); err != nil {
			t.Fatalf("direct %v: the unrelated process %d was signalled: %v", direct, pid, err)
		}
		if st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(st), ") Z") {
			t.Fatalf("direct %v: the unrelated process %d ended", direct, pid)
		}
		for _, s := range fk.sent {
			if !strings.Contains(s, "kittymux-resume") {
				t.Errorf("direct %v: typed %q into the window", direct, s)
			}
		}
	}
}
