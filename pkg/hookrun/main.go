package hookrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// MaxLog bounds the hook's log in the state directory (paths.Hookpaths.HookLogName):
// past it the oldest half goes.
const MaxLog = 64 << 10

// logWait bounds the wait for the log's lock: writers hold it for one
// small read and write.
const logWait = time.Second

// Main runs `kittymux hook AGENT EVENT` and returns its exit code: always
// 0, whatever happened, because a failing hook would show in (or block) the
// agent. Errors are logged. The run is bounded by RunWait, the read of
// stdin included: what has not finished by then is left, and the event is
// not recorded. moveLease is lease.Move (Options.MoveLease).
func Main(args []string, stdin io.Reader, moveLease func(stateDir string, pids []int, agent, id string) error) int {
	p := paths.FromEnv()
	o := Options{Paths: p, Getenv: os.Getenv, Ancestors: Ancestors,
		JournalOff: journal.IsOff(p.StateDir, os.Getenv), IsAgent: agentPrograms(p.UserAgents()), MoveLease: moveLease}
	if len(args) < 2 {
		Log(p, time.Now(), fmt.Sprintf("usage: kittymux hook AGENT EVENT (got %q)", args))
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), RunWait)
	defer cancel()
	type ran struct {
		res Result
		err error
	}
	done := make(chan ran, 1)
	go func() {
		// Extra words (a version the integration wrote) are for the installer.
		res, err := Run(ctx, o, args[0], args[1], stdin)
		done <- ran{res, err}
	}()
	var r ran
	select {
	case r = <-done:
	case <-time.After(RunWait + RunWait/4):
		// Every wait in Run is bounded by ctx; this is for a wait that is
		// not (a system call the kernel does not interrupt).
		r = ran{Result{Agent: args[0], Event: args[1]}, fmt.Errorf("not done after %v: %w", RunWait, context.DeadlineExceeded)}
	}
	// An agent run outside kitty, or a hook run by codex's shared daemon
	// (on every event; integration status and doctor say so once), has
	// nothing to record: not worth a line.
	if r.err != nil && !errors.Is(r.err, ErrNoWindow) && !errors.Is(r.err, ErrSharedServer) {
		Log(p, time.Now(), fmt.Sprintf("%s %s id=%s: %v", r.res.Agent, r.res.Event, r.res.ID, r.err))
	}
	return 0
}

// Log appends line to the hook log, keeping it under MaxLog. It is written
// only when something failed, so its cost is off the usual path. Hooks of
// several agents may log at once: each appends under a lock on
// hook.log.lock, held for one write, and the one that would take the log
// past MaxLog rewrites it with its newer half (the rewrite replaces the
// log's inode, so the log itself cannot be the lock). A log whose lock
// cannot be had in logWait loses the line rather than hold up the agent.
func Log(p paths.Paths, now time.Time, line string) {
	d, err := statefile.Make(p.StateDir)
	if err != nil {
		return
	}
	defer d.Close()
	lock, err := d.OpenLock(paths.HookLogName + ".lock")
	if err != nil {
		return
	}
	defer lock.Close()
	ctx, cancel := context.WithTimeout(context.Background(), logWait)
	defer cancel()
	if statefile.Flock(ctx, lock, syscall.LOCK_EX) != nil {
		return
	}
	entry := now.UTC().Format(time.RFC3339) + " " + line + "\n"
	if f, err := d.OpenInPlace(paths.HookLogName, os.O_WRONLY|os.O_APPEND|os.O_CREATE); err == nil {
		fi, err := f.Stat()
		if err == nil && fi.Size()+int64(len(entry)) <= MaxLog {
			_, err = f.WriteString(entry)
			f.Close()
			if err == nil {
				return
			}
		} else {
			f.Close()
		}
	}
	// Full, or not a log kittymux wrote (a link, a FIFO): rewritten.
	old, err := d.ReadFile(paths.HookLogName)
	if err != nil {
		old = nil
	}
	if len(old) > MaxLog/2 {
		old = old[len(old)-MaxLog/2:]
		if i := bytes.IndexByte(old, '\n'); i >= 0 {
			old = old[i+1:]
		}
	}
	_ = d.WriteFile(paths.HookLogName, append(old, entry...))
}
