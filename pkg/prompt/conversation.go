package prompt

import (
	"fmt"
	"os"
	"strings"

	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// checkConversation asks the agent's own files about r's conversation
// before anything is offered: a conversation the agent no longer has is
// never resumed (the agent would fail, or quietly start another), and one
// it has runs in the directory it belongs to. gone reports that the
// conversation cannot be resumed; why says why.
func (e *Env) checkConversation(r resumerecord.Record) (gone bool, why string) {
	if r.Mode != "exact" || r.ID == "" || e.Conversation == nil {
		return false, ""
	}
	c := e.Conversation(r)
	e.unchecked = c.Unchecked
	switch {
	case c.Archived:
		return true, c.Lost(r.Agent)
	case c.Known && !c.Found:
		return true, conversations.WhyGone + " (not in " + e.tilde(c.Store) + ")"
	case c.Held != nil:
		e.heldBy = c.Held
		return false, ""
	case !c.Found || c.Dir == "":
		return false, ""
	}
	wd, _ := os.Getwd()
	if paths.SameDir(wd, c.Dir) {
		return false, ""
	}
	if fi, err := os.Stat(c.Dir); err != nil || !fi.IsDir() {
		return true, "its directory " + e.tilde(c.Dir) + " no longer exists"
	}
	e.convDir = c.Dir
	return false, ""
}

// gone says the conversation cannot be resumed, and offers a new one or a
// shell; with no terminal to ask, a shell.
func (e *Env) gone(r resumerecord.Record, path, why string) error {
	e.warn("kittymux: %s conversation %s: %s.", r.Agent, ids.Short(r.ID), why)
	if !e.IsTerminal() {
		e.outcome(r, journal.OutcomeShell, why, false)
		e.warn("kittymux: nothing to resume; opening a shell.")
		return e.shell(r)
	}
	fmt.Fprint(e.Out, "  Enter/n new conversation   s shell\r\n")
	if e.askElsewhere() == ChoiceNew {
		argv, err := e.NewArgv(r)
		if err != nil {
			e.outcome(r, journal.OutcomeShell, why+"; cannot start a new conversation: "+err.Error(), true)
			e.warn("kittymux: cannot start a new %s conversation: %v", r.Agent, err)
			return e.shell(r)
		}
		e.outcome(r, journal.OutcomeNew, why, true)
		return e.failed(r, e.exec(path, argv, r.Env))
	}
	e.outcome(r, journal.OutcomeShell, why, true)
	return e.shell(r)
}

// held says the conversation runs in the agent's own background service
// (claude --bg, codex's daemon) and offers to attach to it there, rather than resume it a
// second time; with no terminal to ask, a shell.
func (e *Env) held(r resumerecord.Record, path string) error {
	h := e.heldBy
	where := fmt.Sprintf("pid %d", h.PID)
	if h.Dir != "" {
		where += ", in " + e.tilde(h.Dir)
	}
	attach := append([]string{r.Argv[0]}, h.Attach...)
	e.warn("kittymux: %s conversation %s runs %s (%s): `%s` opens it here.", r.Agent, ids.Short(r.ID), h.Runs, where, recognize.Quote(attach))
	why := "runs " + h.Runs + " (" + where + ")"
	if !e.IsTerminal() {
		e.outcome(r, journal.OutcomeShell, why, false)
		e.warn("kittymux: not resuming it a second time; opening a shell.")
		return e.shell(r)
	}
	fmt.Fprint(e.Out, "  Enter/a attach   n new conversation   s shell\r\n")
	switch e.askHeld() {
	case ChoiceResume:
		e.outcome(r, journal.OutcomeAttached, why, true)
		return e.failed(r, e.exec(path, attach, r.Env))
	case ChoiceNew:
		argv, err := e.NewArgv(r)
		if err != nil {
			e.outcome(r, journal.OutcomeShell, why+"; cannot start a new conversation: "+err.Error(), true)
			return e.shell(r)
		}
		e.outcome(r, journal.OutcomeNew, why, true)
		return e.failed(r, e.exec(path, argv, r.Env))
	}
	e.outcome(r, journal.OutcomeShell, why, true)
	return e.shell(r)
}

// askHeld waits for a (or Enter), n, or s (or Esc, Ctrl-C, Ctrl-D).
func (e *Env) askHeld() Choice {
	return e.readChoice(func(b byte) (Choice, bool) {
		switch b {
		case 'a', 'A', '\r', '\n':
			return ChoiceResume, true
		case 'n', 'N':
			return ChoiceNew, true
		}
		return "", false
	})
}

// uncheckedWhy is the paragraph that says kittymux could not check that
// the agent still has the conversation, and why; nil when it could.
func (e *Env) uncheckedWhy(r resumerecord.Record) []para {
	if e.unchecked == "" {
		return nil
	}
	return []para{text(2, plain, "not checked that "+printable(r.Agent)+" still has it: "+printable(e.unchecked))}
}

// ownDir is the paragraph that says the conversation resumes in its own
// directory, not the window's; nil when they are the same.
func (e *Env) ownDir() []para {
	if e.convDir == "" {
		return nil
	}
	return []para{text(2, plain, "resumes in "+printable(e.tilde(e.convDir))+", the conversation's own directory (this window is in "+e.dir()+")")}
}

// resumedWhy is what the restore report says of a resume: in its own
// directory, not checked; "" for neither.
func (e *Env) resumedWhy(r resumerecord.Record) string {
	var why []string
	if w := e.ownDirWhy(); w != "" {
		why = append(why, w)
	}
	if e.unchecked != "" {
		why = append(why, "not checked that "+r.Agent+" still has it: "+e.unchecked)
	}
	if e.picked != "" {
		why = append(why, e.picked)
	}
	return strings.Join(why, "; ")
}

// ownDirWhy is what the restore report says of a resume in the
// conversation's own directory; "" in the window's.
func (e *Env) ownDirWhy() string {
	if e.convDir == "" {
		return ""
	}
	return "in its own directory " + e.convDir
}

// intoOwnDir moves to the conversation's own directory just before its
// resume runs (after the outcome is recorded with the window's directory,
// which is how the restore report finds the window).
func (e *Env) intoOwnDir() {
	if e.convDir == "" {
		return
	}
	if err := os.Chdir(e.convDir); err != nil {
		e.warn("kittymux: cannot enter the conversation's directory %s: %v", e.tilde(e.convDir), err)
		return
	}
	e.say(plain, "kittymux: resuming in "+e.tilde(e.convDir)+", the conversation's own directory.")
}

// tilde shows a path under home with ~.
func (e *Env) tilde(p string) string {
	if home := e.Getenv("HOME"); home != "" && home != "/" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + p[len(home):]
	}
	return p
}
