package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Daemon is a service of the agent's that runs its TUIs' conversations and
// keeps a conversation after its TUI is gone: codex 0.171.0's app-server
// daemon (`codex app-server --managed-daemon`), which holds the thread's
// rollout file open. A TUI attached to the daemon (plain `codex resume
// <id>`) opens such a conversation; one that runs conversations itself
// (--no-daemon, -c) shows "This conversation is open in another app" and
// waits, so the prompt offers the attach instead.
type Daemon struct {
	// Command are words after the program that the daemon's argv holds,
	// all of them ("app-server", "--managed-daemon").
	Command []string `json:"command"`
	// Apart are the flags with which the agent runs a conversation itself,
	// apart from the daemon.
	Apart []string `json:"apart"`
	// Attach are the words after the program that open a conversation the
	// daemon holds; {id} is its id.
	Attach []string `json:"attach"`
}

// apart reports whether argv runs the conversation apart from the daemon.
func (d *Daemon) apart(argv []string) bool {
	return slices.ContainsFunc(argv, func(w string) bool {
		name, _, _ := strings.Cut(w, "=")
		return slices.Contains(d.Apart, name)
	})
}

// heldByDaemon is the daemon process of one of programs that holds file
// open, for a run (argv) that would open it apart; nil when none does or
// the run goes through the daemon.
func heldByDaemon(d *Daemon, programs []string, agent, file, id string, argv []string) *Held {
	if d == nil || file == "" || !d.apart(argv) {
		return nil
	}
	want, err := os.Stat(file)
	if err != nil {
		return nil
	}
	pid := daemonHolding(func(cmd []string) bool {
		return len(cmd) > 1 && slices.Contains(programs, filepath.Base(cmd[0])) &&
			!slices.ContainsFunc(d.Command, func(w string) bool { return !slices.Contains(cmd[1:], w) })
	}, want)
	if pid <= 1 {
		return nil
	}
	h := &Held{PID: pid, Runs: fmt.Sprintf("in %s's daemon (%s %s)", agent, agent, strings.Join(d.Command, " "))}
	for _, w := range d.Attach {
		h.Attach = append(h.Attach, strings.ReplaceAll(w, idPlaceholder, id))
	}
	return h
}

func checkDaemon(d *Daemon) string {
	if d == nil {
		return ""
	}
	if len(d.Command) == 0 || len(d.Apart) == 0 || len(d.Attach) == 0 {
		return "daemon needs \"command\", \"apart\" and \"attach\""
	}
	for _, f := range d.Apart {
		if !strings.HasPrefix(f, "-") {
			return fmt.Sprintf("daemon apart %q is not a flag", f)
		}
	}
	for _, w := range d.Attach {
		if w != idPlaceholder && !isTemplateWord(w) {
			return "daemon attach word " + w + " is not a plain word"
		}
	}
	return ""
}
