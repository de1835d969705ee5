package prompt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// remoteChoice is what a remote record's question ends in: one of the
// host's requests (remote.DoResume, DoNew, DoShell), or a shell here.
const localShell = "local"

// runRemote brings back a window whose agent ran on another machine
// (Record.Remote): it asks, always (the host's word is a hint, and ssh may
// ask for a password), then runs the ssh command kittymux saw the window
// run, exactly, with a remote command kittymux builds (remote.CheckCommand)
// that hands the hint's agent, id and directory to the host's kittymux as
// arguments: the host resumes the id only if its own journal holds it.
func (e *Env) runRemote(r resumerecord.Record) error {
	sealErr := r.VerifyIn(e.Key, ".")
	s, ok := remote.ParseSSH(r.Argv)
	path, err := e.sshProgram(s, sealErr == nil)
	if !ok || err != nil {
		if err == nil {
			err = errors.New("its command is not an ssh command")
		}
		e.outcome(r, journal.OutcomeShell, err.Error(), false)
		e.warn("kittymux: not reconnecting: %v; opening a shell.", err)
		return e.shell(r)
	}
	if !e.IsTerminal() {
		e.outcome(r, journal.OutcomeShell, "no terminal to ask", false)
		e.warn("kittymux: %s ran on %s; no terminal to ask, so nothing runs there: a shell here.", r.Agent, printable(s.Host()))
		return e.shell(r)
	}
	what, err := e.askRemote(r, s, sealErr)
	if err != nil {
		e.outcome(r, journal.OutcomeShell, err.Error(), false)
		e.warn("kittymux: %v; opening a shell.", err)
		return e.shell(r)
	}
	if what == localShell {
		e.outcome(r, journal.OutcomeShell, "chosen", true)
		return e.shell(r)
	}
	hint := remote.Hint{Agent: r.Agent, ID: r.ID, Dir: r.RemoteDir, Host: r.Remote}
	cmd, err := remote.CheckCommand(hint, what)
	if err != nil {
		e.outcome(r, journal.OutcomeShell, err.Error(), true)
		e.warn("kittymux: %v; opening a shell.", err)
		return e.shell(r)
	}
	switch what {
	case remote.DoResume:
		e.outcome(r, journal.OutcomeResumed, "on "+s.Host()+", if its journal holds it", true)
	case remote.DoNew:
		e.outcome(r, journal.OutcomeNew, "on "+s.Host(), true)
	default:
		e.outcome(r, journal.OutcomeShell, "on "+s.Host(), true)
	}
	return e.failed(r, e.exec(path, s.Command(cmd), nil))
}

// sshProgram is the file to run for s: in a sealed record the one
// kittymux saw the window run; otherwise only the ssh (or kitten) that
// PATH finds here.
func (e *Env) sshProgram(s remote.SSH, sealed bool) (string, error) {
	if len(s.Argv) == 0 {
		return "", errors.New("no command")
	}
	prog := s.Argv[0]
	if sealed && filepath.IsAbs(prog) {
		if fi, err := os.Stat(prog); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s is not a program here", prog)
		}
		return prog, nil
	}
	found, err := e.LookPath(filepath.Base(prog))
	if err != nil {
		return "", fmt.Errorf("%s is not installed here", filepath.Base(prog))
	}
	if filepath.IsAbs(prog) && !sameFile(prog, found) {
		return "", fmt.Errorf("%s is not the %s on PATH (%s), and the record is not sealed", prog, filepath.Base(prog), found)
	}
	return found, nil
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// askRemote asks what to do: Enter resumes on the host, n starts a new
// conversation there, s opens a shell there, l (Esc, Ctrl-C, Ctrl-D) a
// shell here.
func (e *Env) askRemote(r resumerecord.Record, s remote.SSH, sealErr error) (what string, err error) {
	host := printable(s.Host())
	q := fmt.Sprintf("%s on %s was running here — resume session %s (reported by %s)?",
		printable(r.Agent), host, printable(ids.Short(r.ID)), printable(r.Remote))
	first := text(0, plain, q)
	if sealErr != nil {
		label := "(edited)"
		if errors.Is(sealErr, resumerecord.ErrNotSealed) {
			label = "(unconfirmed)"
		}
		first.atoms = append(first.atoms, atom{pieces: []piece{{label, red}}, sep: " "})
	}
	paras := []para{first, text(2, dim, printable(r.RemoteDir)+" on "+host+"; the host checks the session against its own journal before it runs")}
	if sealErr != nil {
		paras = append(paras, text(2, red, "check this command: "+sealErr.Error()),
			para{indent: 2, whole: true, atoms: words(printable(recognize.Quote(r.Argv)), plain)})
	}
	keys := para{indent: 2}
	for _, h := range [][2]string{{"Enter", "resume on " + host}, {"n", "new conversation there"}, {"s", "shell there"}, {"l", "local shell"}, {"i", "commands"}} {
		keys.atoms = append(keys.atoms, atom{pieces: []piece{{h[0], bold}, {" " + h[1], plain}}, sep: "   "})
	}
	paras = append(paras, keys)
	b := &block{e: e, paras: func(int) []para { return paras }}
	hint := remote.Hint{Agent: r.Agent, ID: r.ID, Dir: r.RemoteDir, Host: r.Remote}
	err = e.wait(r, b, 250*time.Millisecond, func() bool { return false }, func(c byte, keys <-chan byte) bool {
		switch c {
		case '\r', '\n':
			what = remote.DoResume
		case 'n', 'N':
			what = remote.DoNew
		case 's', 'S':
			what = remote.DoShell
		case 'l', 'L', 3, 4:
			what = localShell
		case 'i', 'I':
			var more []para
			for _, do := range []string{remote.DoResume, remote.DoNew, remote.DoShell} {
				if cmd, err := remote.CheckCommand(hint, do); err == nil {
					more = append(more, text(2, dim, do+":"), para{indent: 4, whole: true, atoms: words(printable(recognize.Quote(s.Command(cmd))), plain)})
				}
			}
			paras = append(paras, more...)
			b.add(more)
			return false
		case 0x1b:
			if drainSequence(e.clk(), keys) {
				return false
			}
			what = localShell
		default:
			return false
		}
		return true
	})
	fmt.Fprint(e.Out, "\r\n")
	return what, err
}
