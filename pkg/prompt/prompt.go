package prompt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Choice is what the prompt ends in.
type Choice string

const (
	ChoiceResume Choice = "resume"
	ChoiceNew    Choice = "new"
	ChoiceShell  Choice = "shell"
)

// Env is everything the prompt touches outside itself; Main fills it from
// the process, tests replace parts.
type Env struct {
	In     *os.File // the terminal, when there is one
	Out    io.Writer
	Getenv func(string) string
	Paths  paths.Paths
	// Clock is the prompt's clock; nil is the system's.
	Clock    clock.Clock
	LookPath func(string) (string, error)
	// Exec replaces the process with argv, its environment plus env; it
	// returns only on failure.
	Exec func(path string, argv, env []string) error
	// Key is the sealing key; nil when this machine has none (then no
	// record is sealed).
	Key []byte
	// Validate checks a record read from the editable session file and
	// returns the path of the program to run. sealed: its seal held, so
	// what kittymux saw (its Exe, environment that loads code) is trusted.
	Validate func(r resumerecord.Record, sealed bool) (string, error)
	// NewArgv is the command for a new conversation of the record's agent.
	NewArgv func(resumerecord.Record) ([]string, error)
	// LatestPerDir reports whether the agent's latest conversation is that
	// of the directory it starts in (claude --continue), so the question
	// can say so; nil: not known, so not said.
	LatestPerDir func(agent string) bool
	// Width is the terminal's width in columns; nil asks the terminal.
	Width func() int
	// IsTerminal reports whether In is a terminal.
	IsTerminal func() bool
	// Outcome records what the window became, before it becomes it (the
	// restore report); nil records nothing.
	Outcome func(journal.Restore)
	// Conversation is what the agent's own files say of the record's
	// conversation; nil: not asked.
	Conversation func(resumerecord.Record) conversations.Conversation
	// Candidates are the conversations a choose record's window could
	// have held (agents.Set.Candidates, or the agent's own CLI at program,
	// the path the prompt would exec, lists them); nil: none listed.
	Candidates func(r resumerecord.Record, program string) []agents.Candidate
	// ExactArgv is the command resuming conversation id of the record's
	// agent, with the record's flags.
	ExactArgv func(r resumerecord.Record, id string) ([]string, error)
	// Slot is when a start of agent that runs without asking may run, and
	// the interval between them (stagger.go); nil: at once.
	Slot func(agent string) (time.Time, time.Duration)

	// convDir is the conversation's own directory where it is not the
	// window's: the resume runs there.
	convDir string
	// heldBy: the agent's background service runs the conversation.
	heldBy *conversations.Held
	// unchecked: why the agent's files cannot say whether it still has
	// the conversation (opencode's database).
	unchecked string
	// learnedFrom: the record named no conversation, and the journal
	// learned the one of its window's agent process after the save, from
	// this source (learned.go).
	learnedFrom string
	// movedFrom: the record named this conversation, and the journal
	// says its agent process left it after the save for r.ID.
	movedFrom string
	// byResumeAll: another window's `a` answered this one, with the rest
	// of the waiting windows (their starts are spaced as unasked ones).
	byResumeAll bool
	// picked says how the user chose the conversation, for the report.
	picked string
	// jrnl is the journal the run reads (journal()).
	jrnl *journal.Journal
}

// resumeAllFor is how long `a` keeps answering the other waiting windows.
const resumeAllFor = 2 * time.Minute

func (e *Env) clk() clock.Clock { return clock.Or(e.Clock) }

// Run validates r, asks (or not), and execs the answer. It returns only when
// nothing could be exec'd; the error says why.
//
// A sealed record runs as the user chose: asked, or not (auto modes, a
// --direct save, no terminal to ask). A record whose seal does not hold was
// edited by hand or copied from another machine: if it still validates it
// is shown in full, marked edited, and runs only on a key press; with no
// terminal it does not run and a shell opens.
func Run(e *Env, r resumerecord.Record) error {
	if r.Remote != "" {
		return e.runRemote(r)
	}
	sealErr := r.VerifyIn(e.Key, ".")
	sealed := sealErr == nil
	r = e.learned(r, sealed)
	path, err := e.Validate(r, sealed)
	switch {
	case errors.Is(err, recognize.ErrNotInstalled):
		e.outcome(r, journal.OutcomeAgentMissing, err.Error(), false)
		e.warn("kittymux: %s is not installed here (%v); opening a shell.", r.Agent, err)
		e.warn("kittymux: the session file still holds the record; once %s is installed, restore again.", r.Agent)
		return e.shell(r)
	case err != nil:
		e.outcome(r, journal.OutcomeShell, err.Error(), false)
		e.warn("kittymux: not resuming %s: %v", orAgent(r.Agent), err)
		return e.shell(r)
	}
	if gone, why := e.checkConversation(r); gone {
		return e.gone(r, path, why)
	}
	if e.heldBy != nil {
		return e.held(r, path)
	}
	if where := e.openElsewhere(r); where != "" {
		return e.elsewhere(r, path, where)
	}
	if !sealed {
		if errors.Is(sealErr, resumerecord.ErrNotSealed) {
			e.warn("kittymux: unconfirmed record: %v; check it before it runs.", sealErr)
		} else {
			e.warn("kittymux: edited record: %v; check it before it runs.", sealErr)
		}
		if !e.IsTerminal() {
			e.outcome(r, journal.OutcomeShell, "an edited record with no terminal to ask", false)
			e.warn("kittymux: no terminal to ask, so an edited record does not run; opening a shell.")
			return e.shell(r)
		}
	} else {
		switch {
		case r.Confirm && !e.IsTerminal():
			e.outcome(r, journal.OutcomeShell, "the command may hold a prompt and there is no terminal to ask", false)
			e.warn("kittymux: not resuming %s without a key: %s may hold a prompt; opening a shell.", r.Agent, recognize.Quote(r.Argv))
			return e.shell(r)
		case r.Mode == "choose" && (!e.IsTerminal() || r.Direct || e.Getenv("KITTYMUX_RESUME") == "auto" || exists(e.Paths.ResumeAuto()) || e.resumeAllActive()):
			// Nobody to choose, or asked not to be asked: never a guess.
			e.outcome(r, journal.OutcomeNew, "several conversations could be this window's and none was chosen", false)
			return e.failed(r, e.exec(path, r.Argv, r.Env))
		case r.Confirm:
			// Asked even in auto mode: the user sees the whole command first.
		case !e.IsTerminal():
			// Nobody to ask: run the command the record holds.
			return e.resume(path, r, false)
		case r.Direct || e.Getenv("KITTYMUX_RESUME") == "auto" || exists(e.Paths.ResumeAuto()) || e.resumeAllActive():
			return e.resume(path, r, false)
		}
	}
	if r.Mode == "choose" {
		// An agent whose CLI lists its conversations runs it before any
		// key: only for a record kittymux sealed.
		if sealed || !agents.Listed(r.Agent) {
			if cands := e.candidates(r, path); len(cands) > 0 {
				return e.choose(r, path, sealed, cands)
			}
		}
		// Nothing of the agent's here to choose from: the question is
		// whether to start a new conversation.
		r.Mode = "new"
	}
	choice, err := e.ask(r, sealed)
	if err != nil {
		e.outcome(r, journal.OutcomeShell, err.Error(), false)
		fmt.Fprint(e.Out, "\r\n")
		e.warn("kittymux: %v; opening a shell.", err)
		return e.shell(r)
	}
	switch choice {
	case ChoiceResume:
		return e.resume(path, r, true)
	case ChoiceNew:
		argv, err := e.NewArgv(r)
		if err != nil {
			e.outcome(r, journal.OutcomeShell, "cannot start a new conversation: "+err.Error(), true)
			e.warn("kittymux: cannot start a new %s conversation: %v", r.Agent, err)
			return e.shell(r)
		}
		e.outcome(r, journal.OutcomeNew, "", true)
		return e.failed(r, e.exec(path, argv, r.Env))
	}
	e.outcome(r, journal.OutcomeShell, "chosen", true)
	return e.shell(r)
}

// outcome records what the window is about to become.
func (e *Env) outcome(r resumerecord.Record, what, why string, asked bool) {
	if e.Outcome == nil {
		return
	}
	e.Outcome(journal.Restore{At: e.clk().Now(), Agent: r.Agent, Mode: string(r.Mode), ID: r.ID, Tab: r.Tab, Outcome: what, Why: why, Asked: asked})
}

// failed records that the command chosen could not be run (exec returned).
func (e *Env) failed(r resumerecord.Record, err error) error {
	if err != nil {
		e.outcome(r, journal.OutcomeFailed, err.Error(), false)
	}
	return err
}

func orAgent(a string) string {
	if a == "" {
		return "this window"
	}
	return a
}

func (e *Env) exec(path string, argv, env []string) error {
	err := e.Exec(path, argv, env)
	// Still here: the exec failed. Say so, and keep the window usable.
	e.warn("kittymux: could not run %s: %v", recognize.Quote(argv), err)
	return err
}

// shell gives the user a shell: back to the one that started us, or the
// user's login shell in this directory.
func (e *Env) shell(r resumerecord.Record) error {
	if r.FromShell {
		return nil
	}
	sh := e.Getenv("SHELL")
	if sh == "" {
		sh = "/bin/sh"
	}
	path, err := e.LookPath(sh)
	if err != nil {
		path = "/bin/sh"
	}
	// A leading "-" in argv[0] makes any shell a login shell.
	err = e.Exec(path, []string{"-" + filepath.Base(path)}, nil)
	e.warn("kittymux: could not start %s: %v", path, err)
	return err
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// resumeAllActive: another window's `a` asked every waiting window to resume.
func (e *Env) resumeAllActive() bool {
	b, err := userfile.Read(e.Paths.ResumeAllUntil(), 64)
	if err != nil {
		return false
	}
	until, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return err == nil && e.clk().Now().Unix() < until
}

// setResumeAll answers the other waiting windows for a while. Failing to
// is no reason not to resume this one.
func (e *Env) setResumeAll() {
	if statefile.EnsureState(e.Paths) != nil {
		return
	}
	until := e.clk().Now().Add(resumeAllFor).Unix()
	_ = statefile.WriteFile(e.Paths.StateDir, e.Paths.ResumeAllUntil(), []byte(strconv.FormatInt(until, 10)+"\n"))
}

// question is the prompt as paragraphs: the question first and short,
// then the directory, the tab and what the journal knows, then the keys.
// narrow: a window under 40 columns gets the short key hints.
func (e *Env) question(r resumerecord.Record, sealed, narrow bool) []para {
	var q string
	switch r.Mode {
	case "exact":
		q = "resume " + printable(ids.Short(r.ID)) + "?"
		switch {
		case e.movedFrom != "":
			q = "resume " + printable(ids.Short(r.ID)) + " (where it went after the save)?"
		case e.learnedFrom != "":
			q = "resume " + printable(ids.Short(r.ID)) + " (learned after the save)?"
		}
	case "latest":
		q = "resume its latest conversation?"
		if e.LatestPerDir != nil && e.LatestPerDir(r.Agent) {
			q = "resume its latest conversation in this directory?"
		}
	default:
		q = "conversation unknown: start a new one?"
	}
	first := text(0, plain, printable(r.Agent)+" · "+q)
	if !sealed {
		label := "(edited)"
		if r.Seal == "" {
			label = "(unconfirmed)"
		}
		first.atoms = append(first.atoms, atom{pieces: []piece{{label, red}}, sep: " "})
	}
	ps := []para{first}
	if wd := e.dir(); wd != "" && e.convDir == "" {
		ps = append(ps, para{indent: 2, atoms: []atom{{pieces: []piece{{wd, dim}}, tail: true}}})
	}
	ps = append(ps, e.ownDir()...)
	switch {
	case e.movedFrom != "":
		ps = append(ps, text(2, dim, "the save had "+printable(ids.Short(e.movedFrom))+": this window's agent left it for this one later, as "+e.learnedFrom+" reported"))
	case e.learnedFrom != "":
		ps = append(ps, text(2, dim, "the save did not know it yet: "+e.learnedFrom+" reported it for this window's agent later"))
	}
	ps = append(ps, e.uncheckedWhy(r)...)
	facts, tab := e.journalFacts(r)
	var parts []string
	if tab != "" {
		parts = append(parts, "tab "+quoted(tab))
	}
	if facts != "" {
		parts = append(parts, strings.Split(facts, " · ")...)
	}
	var about []atom
	for i, part := range parts {
		ws := words(part, plain)
		if i < len(parts)-1 && len(ws) > 0 {
			// "·" ends a line rather than starts one.
			last := &ws[len(ws)-1]
			last.pieces = append(last.pieces, piece{" ·", plain})
		}
		about = append(about, ws...)
	}
	if len(about) > 0 {
		ps = append(ps, para{indent: 2, atoms: about})
	}
	if !sealed {
		// An edited record is shown in full: the key press is the check.
		ps = append(ps, e.commands(r)...)
	} else if r.Confirm {
		ps = append(ps, text(2, red, "check this command: a word in it may be a prompt"),
			para{indent: 2, whole: true, atoms: words(printable(recognize.Quote(r.Argv)), plain)})
	}
	return append(ps, hints(r, narrow))
}

// hints are the keys, each hint whole on its line: the key letter bold.
func hints(r resumerecord.Record, narrow bool) para {
	first := "resume"
	if r.Mode == "new" {
		first = "start"
	}
	newConv, sep := "new conversation", "   "
	if narrow {
		newConv, sep = "new", "  "
	}
	p := para{indent: 2}
	for _, h := range [][2]string{{"Enter", first}, {"n", newConv}, {"s", "shell"}, {"a", "resume all"}, {"i", "commands"}} {
		p.atoms = append(p.atoms, atom{pieces: []piece{{h[0], bold}, {" " + h[1], plain}}, sep: sep})
	}
	return p
}

// dir is the working directory as the prompt shows it: ~ for home,
// printable; "" when unknown.
func (e *Env) dir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if home := e.Getenv("HOME"); home != "" && home != "/" && (wd == home || strings.HasPrefix(wd, home+"/")) {
		wd = "~" + wd[len(home):]
	}
	return printable(wd)
}

// commands is each key's whole command, for checking.
func (e *Env) commands(r resumerecord.Record) []para {
	env := ""
	if len(r.Env) > 0 {
		env = recognize.Quote(r.Env) + " "
	}
	cmd := func(key, what string) para {
		return para{indent: 2, hang: 9, whole: true,
			atoms: append([]atom{{pieces: []piece{{key, bold}}}}, words(printable(what), plain)...)}
	}
	ps := []para{cmd("Enter ", env+recognize.Quote(r.Argv))}
	if argv, err := e.NewArgv(r); err == nil {
		ps = append(ps, cmd("n     ", env+recognize.Quote(argv)))
	}
	if r.FromShell {
		ps = append(ps, cmd("s/Esc ", "back to the shell"))
	} else {
		ps = append(ps, cmd("s/Esc ", e.shellPath()+" (login shell)"))
	}
	return ps
}

func (e *Env) shellPath() string {
	if sh := e.Getenv("SHELL"); sh != "" {
		return sh
	}
	return "/bin/sh"
}

// color: emphasis, unless NO_COLOR is set, the terminal is dumb (or
// unnamed), or the output is a file, not a terminal.
func (e *Env) color() bool {
	if f := asFile(e.Out); f != nil && !term.IsTerminal(int(f.Fd())) {
		return false
	}
	t := e.Getenv("TERM")
	return e.Getenv("NO_COLOR") == "" && t != "" && t != "dumb"
}

// width is the terminal's width in columns (TIOCGWINSZ): 80 when the
// terminal does not say, no limit when there is no terminal (a log keeps
// each message on one line).
func (e *Env) width() int {
	if e.Width != nil {
		return e.Width()
	}
	tty := false
	for _, f := range []*os.File{e.In, asFile(e.Out)} {
		if f == nil || !term.IsTerminal(int(f.Fd())) {
			continue
		}
		tty = true
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if !tty {
		return 1 << 20
	}
	return 80
}

func asFile(w io.Writer) *os.File {
	f, _ := w.(*os.File)
	return f
}

// say writes a message wrapped to the terminal, printable whatever it
// quotes.
func (e *Env) say(st style, msg string) {
	fmt.Fprint(e.Out, render(layout([]para{{whole: true, atoms: words(printable(msg), st)}}, e.width()), e.color()))
}

// warn is say in the terminal's red.
func (e *Env) warn(format string, args ...any) { e.say(red, fmt.Sprintf(format, args...)) }

// title sets the window title (OSC 2), and so kitty's tab title where the
// tab has none of its own.
func (e *Env) title(s string) {
	if e.Getenv("TERM") == "dumb" {
		return
	}
	fmt.Fprint(e.Out, "\x1b]2;"+printable(s)+"\x1b\\")
}

// waitingTitle names the agent and the tab it is restored in (or its
// directory): "claude ↻ api work".
func (e *Env) waitingTitle(r resumerecord.Record) string {
	_, tab := e.journalFacts(r)
	if tab == "" {
		if wd, err := os.Getwd(); err == nil {
			tab = filepath.Base(wd)
		}
	}
	t := printable(r.Agent) + " ↻"
	if tab = strings.TrimSpace(printable(tab)); tab != "" {
		t += " " + tab
	}
	return t
}

// ask shows the question and waits for one key. It also resumes a sealed
// record when another window's `a` says so while this one waits. While it
// waits the window's title names the agent and its tab; once answered, the
// title is the program's that runs next, until that program sets its own.
func (e *Env) ask(r resumerecord.Record, sealed bool) (choice Choice, err error) {
	defer func() {
		switch {
		case err != nil:
		case choice == ChoiceResume || choice == ChoiceNew:
			e.title(r.Agent)
		default:
			e.title(filepath.Base(e.shellPath()))
		}
	}()
	// What `i` added stays when the block is drawn again.
	var extra []para
	b := &block{e: e, paras: func(w int) []para { return append(e.question(r, sealed, w < 40), extra...) }}
	err = e.wait(r, b, 250*time.Millisecond, func() bool {
		// Another window's `a` answers only sealed records that need no check.
		if sealed && !r.Confirm && e.resumeAllActive() {
			e.byResumeAll = true
			e.say(plain, "resuming (another window chose: resume all)")
			choice = ChoiceResume
			return true
		}
		return false
	}, func(c byte, keys <-chan byte) bool {
		if ch, ok := e.keyChoice(c, r); ok {
			choice = ch
			return true
		}
		switch c {
		case 'i', 'I':
			more := e.commands(r)
			extra = append(extra, more...)
			b.add(more)
		case 0x1b:
			// A lone Esc is "shell"; Esc followed at once by more bytes
			// is a key's escape sequence (arrows, ...): ignore it.
			if !drainSequence(e.clk(), keys) {
				choice = ChoiceShell
				return true
			}
		}
		return false
	})
	return choice, err
}

// keyChoice is the answer a key gives, if it is one: Enter takes the
// record's mode, `a` does so for the other waiting windows too.
func (e *Env) keyChoice(c byte, r resumerecord.Record) (Choice, bool) {
	switch c {
	case 'a', 'A':
		e.setResumeAll()
		fallthrough
	case '\r', '\n':
		if r.Mode == "new" {
			return ChoiceNew, true
		}
		return ChoiceResume, true
	case 'n', 'N':
		return ChoiceNew, true
	case 's', 'S', 3, 4: // Ctrl-C and Ctrl-D also mean "just a shell"
		return ChoiceShell, true
	}
	return "", false
}

// drainSequence reads the rest of an escape sequence after its Esc, and no
// more: a key typed right after it (an arrow, then Enter) is still a key.
// CSI (Esc [ ... final byte) and SS3 (Esc O x) are read to their end, any
// other byte is Alt with that key. False when nothing came within 40 ms:
// a lone Esc.
func drainSequence(c clock.Clock, keys <-chan byte) bool {
	next := func() (byte, bool) {
		select {
		case b, ok := <-keys:
			return b, ok
		case <-c.After(40 * time.Millisecond):
			return 0, false
		}
	}
	b, ok := next()
	if !ok {
		return false
	}
	switch b {
	case 'O':
		next()
	case '[':
		// Parameter and intermediate bytes, up to the final byte.
		for b, ok = next(); ok && (b < 0x40 || b > 0x7e); b, ok = next() {
		}
	}
	return true
}
