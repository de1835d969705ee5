package hookrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/remote"
)

// OnHost reports whether the hook runs on a host reached over ssh
// (sshd's SSH_CONNECTION) rather than in a kitty of this machine: the ssh
// kitten passes its window's KITTY_WINDOW_ID on to the host, but never
// KITTY_PID, which every window of a kitty here has.
func OnHost(getenv func(string) string) bool {
	return getenv("SSH_CONNECTION") != "" && getenv("KITTY_PID") == ""
}

// runHost records an event on a host: in the host's journal, keyed by the
// agent's process (pid and start) as no kitty here knows the session, and
// then, as a hint, on the terminal the agent runs in (OSC 1337 SetUserVar
// to /dev/tty), which is the local kitty window at the far end of ssh.
func runHost(ctx context.Context, o Options, res *Result, p Payload) (Result, error) {
	procs := o.Ancestors(0)
	pids := make([]int, len(procs))
	for i, pr := range procs {
		pids[i] = pr.PID
	}
	isAgent := o.IsAgent
	if isAgent == nil {
		isAgent = shippedPrograms
	}
	chain, nested := ownChain(procs, res.Agent, isAgent)
	res.AgentPID, res.Nested = agentPID(procs, false), nested
	if len(chain) > 0 {
		res.AgentPID = chain[len(chain)-1]
	}
	start := o.Start
	if start == nil {
		start = procid.Start
	}
	var errs []error
	if !o.JournalOff {
		j := journal.New(o.Paths.Journal(), false)
		j.Clock = o.Clock
		wait := o.JournalWait
		if wait == 0 {
			wait = JournalWait
		}
		h := journal.HookRun{Agent: res.Agent, Socket: remote.HostSocket, AgentPID: res.AgentPID, PIDs: pids,
			Chain: chain, Nested: res.Nested, Start: start(res.AgentPID),
			Event: journal.HookEvent{ID: res.ID, State: res.State, Dir: p.Cwd, At: o.now()}}
		out, err := j.AddHookRun(ctx, wait, h)
		res.Key, res.Queued, res.Nested = out.Key, out.Queued, out.Nested
		if err != nil {
			errs = append(errs, fmt.Errorf("journal: %w", err))
		}
	}
	if !res.Nested && res.ID != "" {
		if err := tellWindow(o, *res, p.Cwd, slices.Concat(chain, []int{res.AgentPID})); err != nil {
			errs = append(errs, err)
		}
	}
	return *res, joinErrs(errs)
}

// tellWindow writes the hint to the agent's terminal; agent are the agent's
// processes, innermost first.
func tellWindow(o Options, res Result, dir string, agent []int) error {
	hostname := o.Hostname
	if hostname == nil {
		hostname = os.Hostname
	}
	host, err := hostname()
	if err != nil {
		return fmt.Errorf("host name: %w", err)
	}
	h := remote.Hint{Agent: res.Agent, ID: res.ID, Dir: dir, Host: host}
	if err := h.Check(); err != nil {
		return err
	}
	open := o.OpenTTY
	if open == nil {
		open = func() (io.WriteCloser, error) { return agentTTY(agent) }
	}
	tty, err := open()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	defer tty.Close()
	if _, err := tty.Write(h.OSC()); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	return nil
}

// agentTTY opens the terminal the hook's agent runs in: the hook's own
// controlling terminal (/dev/tty) where it has one, else the one the agent
// processes (pids, innermost first) have open, as agents run their hooks
// in a session of their own (claude does: /dev/tty is "no such device"
// there).
func agentTTY(pids []int) (io.WriteCloser, error) {
	f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err == nil {
		return f, nil
	}
	for _, pid := range pids {
		if pid <= 1 {
			continue
		}
		if path := ttyOf(pid); path != "" {
			return os.OpenFile(path, os.O_WRONLY|syscall.O_NOCTTY, 0)
		}
	}
	return nil, fmt.Errorf("%w, and the agent (pids %v) has no terminal open", err, pids)
}

// isTTYPath: p names a terminal device (/dev/pts/N, /dev/ttyN, /dev/ttysN),
// not any file a process might have open as its output.
func isTTYPath(p string) bool {
	rest, ok := strings.CutPrefix(p, "/dev/pts/")
	if !ok {
		if rest, ok = strings.CutPrefix(p, "/dev/ttys"); !ok {
			rest, ok = strings.CutPrefix(p, "/dev/tty")
		}
	}
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
