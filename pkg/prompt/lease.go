package prompt

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/lease"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// openElsewhere says where r's conversation is open already: a lease
// another live process holds (a prompt resumed it there), or an open
// journal record of a live agent process in another window (started by
// hand, its id reported by a hook or the agent's records). "" when it is
// free.
func (e *Env) openElsewhere(r resumerecord.Record) string {
	if h := e.holder(r); h != nil {
		return h.Where()
	}
	return ""
}

// openWhere is openElsewhere said short for a list line: "window N (tab
// T)" in this kitty, with the kitty's pid in another.
func (e *Env) openWhere(r resumerecord.Record) string {
	h := e.holder(r)
	switch {
	case h == nil:
		return ""
	case h.WindowID <= 0:
		return h.Where()
	}
	where := fmt.Sprintf("window %d", h.WindowID)
	if h.KittyPID > 0 && strconv.Itoa(h.KittyPID) != e.Getenv("KITTY_PID") {
		where = fmt.Sprintf("kitty %d, window %d", h.KittyPID, h.WindowID)
	}
	if h.Tab != "" {
		where += fmt.Sprintf(" (tab %q)", h.Tab)
	}
	return where
}

// holder is who holds r's conversation open elsewhere, nil when none.
func (e *Env) holder(r resumerecord.Record) *lease.Holder {
	if r.ID == "" {
		return nil
	}
	if h := lease.Find(e.Paths.StateDir, r.Agent, r.ID); h != nil && h.PID != os.Getpid() {
		return h
	}
	j := e.journal()
	rec, err := j.LatestOf(r.Agent, r.ID)
	if err != nil || rec == nil || !rec.Open || rec.PID <= 0 || rec.PID == os.Getpid() || !alive(rec.PID) {
		return nil
	}
	if rec.Start != "" && !(procid.ID{PID: rec.PID, Start: rec.Start}).Is() {
		return nil // its pid is another process's now
	}
	if strconv.Itoa(rec.WindowID) == e.Getenv("KITTY_WINDOW_ID") && strconv.Itoa(rec.KittyPID) == e.Getenv("KITTY_PID") {
		return nil // this very window: what ran here before
	}
	return &lease.Holder{PID: rec.PID, KittyPID: rec.KittyPID, KittySocket: rec.KittySocket, WindowID: rec.WindowID, Tab: rec.TabTitle}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// resume takes the lease on r's conversation and execs it: the lease's
// descriptor passes through that exec (and no other), so the agent holds
// it while it runs. A
// lease that cannot be written is no reason not to resume.
func (e *Env) resume(path string, r resumerecord.Record, asked bool) error {
	if r.ID == "" {
		e.waitTurn(r, asked)
		e.outcome(r, journal.OutcomeResumed, "", asked)
		return e.failed(r, e.exec(path, r.Argv, r.Env))
	}
	kpid, _ := strconv.Atoi(e.Getenv("KITTY_PID"))
	wid, _ := strconv.Atoi(e.Getenv("KITTY_WINDOW_ID"))
	l, other, err := lease.Take(e.Paths.StateDir, lease.Holder{Agent: r.Agent, ID: r.ID, PID: os.Getpid(),
		KittyPID: kpid, KittySocket: e.Getenv("KITTY_LISTEN_ON"), WindowID: wid, Tab: r.Tab, Since: e.clk().Now()})
	switch {
	case errors.Is(err, lease.ErrBusy):
		return e.elsewhere(r, path, other.Where())
	case err != nil:
		fmt.Fprintf(e.Out, "kittymux: %v (resuming anyway)\r\n", err)
	}
	e.waitTurn(r, asked)
	e.outcome(r, journal.OutcomeResumed, e.resumedWhy(r), asked)
	e.intoOwnDir()
	if err := l.HoldAcrossExec(); err != nil {
		fmt.Fprintf(e.Out, "kittymux: lease: %v (resuming anyway)\r\n", err)
	}
	err = e.exec(path, r.Argv, r.Env)
	l.Release()
	return e.failed(r, err)
}

// elsewhere tells the user the conversation is open in another window and
// offers a new conversation or a shell; never the same conversation twice.
func (e *Env) elsewhere(r resumerecord.Record, path, where string) error {
	fmt.Fprintf(e.Out, "kittymux: %s conversation %s is already open in %s.\r\n", r.Agent, ids.Short(r.ID), where)
	if !e.IsTerminal() {
		fmt.Fprint(e.Out, "kittymux: not resuming it a second time; opening a shell.\r\n")
		return e.shell(r)
	}
	fmt.Fprint(e.Out, "  Enter/n new conversation   s shell\r\n")
	switch e.askElsewhere() {
	case ChoiceNew:
		argv, err := e.NewArgv(r)
		if err != nil {
			fmt.Fprintf(e.Out, "kittymux: cannot start a new %s conversation: %v\r\n", r.Agent, err)
			return e.shell(r)
		}
		return e.exec(path, argv, r.Env)
	}
	return e.shell(r)
}

// askElsewhere waits for n (or Enter) or s (or Esc, Ctrl-C, Ctrl-D).
func (e *Env) askElsewhere() Choice {
	return e.readChoice(func(b byte) (Choice, bool) {
		switch b {
		case 'n', 'N', '\r', '\n':
			return ChoiceNew, true
		}
		return "", false
	})
}

// readChoice reads keys in raw mode until pick takes one; s, Esc, Ctrl-C,
// Ctrl-D and the end of input are a shell.
func (e *Env) readChoice(pick func(byte) (Choice, bool)) Choice {
	fd := int(e.In.Fd())
	if old, err := makeRaw(fd); err == nil {
		defer restore(fd, old)
	}
	buf := make([]byte, 1)
	for {
		if n, err := e.In.Read(buf); err != nil || n == 0 {
			return ChoiceShell
		}
		if c, ok := pick(buf[0]); ok {
			return c
		}
		switch buf[0] {
		case 's', 'S', 0x1b, 3, 4:
			return ChoiceShell
		}
	}
}

var (
	makeRaw = term.MakeRaw
	restore = term.Restore
)
