package prompt

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// A record in choose mode: several of the agent's conversations could be
// the one its window held, and nothing kittymux saw says which. The prompt
// lists them from the agent's own files (Env.Candidates), newest first,
// each by the user's first message, its age and its turns, and "open in
// window N" when another window holds it. A key 1-9 resumes that one, n
// starts a new conversation, s opens a shell; Enter resumes only when
// exactly one is free. What a line shows is the user's own text, printed
// as plain printable characters: it chooses nothing, only the key does.

// chooseRefresh is how often the list looks again at which conversations
// another window took.
const chooseRefresh = time.Second

// choice is one listed conversation and where it is open, if anywhere.
type choice struct {
	c     agents.Candidate
	where string
}

// candidates are the conversations r's window could have held.
func (e *Env) candidates(r resumerecord.Record, program string) []agents.Candidate {
	if e.Candidates == nil {
		return nil
	}
	if agents.Listed(r.Agent) && e.IsTerminal() {
		e.say(dim, "kittymux: asking "+printable(r.Agent)+" for its conversations here…")
	}
	return e.Candidates(r, program)
}

// choose asks which of cands the window held, and resumes it.
func (e *Env) choose(r resumerecord.Record, path string, sealed bool, cands []agents.Candidate) error {
	picked, err := e.pick(r, sealed, cands)
	if err != nil {
		e.outcome(r, journal.OutcomeShell, err.Error(), false)
		e.warn("kittymux: %v; opening a shell.", err)
		return e.shell(r)
	}
	switch {
	case picked == nil:
		e.outcome(r, journal.OutcomeShell, "chosen", true)
		return e.shell(r)
	case picked.ID == "":
		e.outcome(r, journal.OutcomeNew, fmt.Sprintf("chosen over %d conversations of %s here", len(cands), r.Agent), true)
		return e.failed(r, e.exec(path, r.Argv, r.Env))
	}
	argv, err := e.ExactArgv(r, picked.ID)
	if err != nil {
		e.outcome(r, journal.OutcomeShell, "cannot resume the chosen conversation: "+err.Error(), true)
		e.warn("kittymux: cannot resume %s: %v; opening a shell.", picked.ID, err)
		return e.shell(r)
	}
	rr := r
	rr.Mode, rr.ID, rr.Argv = "exact", picked.ID, argv
	e.picked = fmt.Sprintf("chosen by the user from %d conversations of %s here", len(cands), r.Agent)
	return e.resume(path, rr, true)
}

// holders says, for each candidate, where it is open now.
func (e *Env) holders(r resumerecord.Record, cands []agents.Candidate) []choice {
	out := make([]choice, len(cands))
	for i, c := range cands {
		rr := r
		rr.ID = c.ID
		out[i] = choice{c: c, where: e.openWhere(rr)}
	}
	return out
}

// pick shows the list and waits for a key: the chosen candidate, an empty
// one for a new conversation, nil for a shell.
func (e *Env) pick(r resumerecord.Record, sealed bool, cands []agents.Candidate) (picked *agents.Candidate, err error) {
	list := e.holders(r, cands)
	var note string
	b := &block{e: e, paras: func(w int) []para { return e.chooseBlock(r, sealed, list, note, w) }}
	err = e.wait(r, b, chooseRefresh, func() bool {
		if again := e.holders(r, cands); !sameHolders(again, list) {
			list = again
			b.draw()
		}
		return false
	}, func(c byte, keys <-chan byte) bool {
		got, done, msg := e.chooseKey(c, list, keys)
		if done {
			picked = got
			return true
		}
		if msg != "" {
			note = msg
			b.draw()
		}
		return false
	})
	return picked, err
}

// chooseKey is what key c does: done with the candidate chosen (empty: a
// new conversation; nil: a shell), or a note to show.
func (e *Env) chooseKey(c byte, list []choice, keys <-chan byte) (*agents.Candidate, bool, string) {
	free := func() []int {
		var out []int
		for i, ch := range list {
			if ch.where == "" {
				out = append(out, i)
			}
		}
		return out
	}
	switch {
	case c >= '1' && c <= '9':
		i := int(c - '1')
		if i >= len(list) {
			return nil, false, fmt.Sprintf("pick 1–%d", len(list))
		}
		if list[i].where != "" {
			return nil, false, fmt.Sprintf("%d is open in %s: pick another", i+1, list[i].where)
		}
		return &list[i].c, true, ""
	case c == '\r' || c == '\n':
		if f := free(); len(f) == 1 {
			return &list[f[0]].c, true, ""
		}
		return nil, false, fmt.Sprintf("pick 1–%d", len(list))
	case c == 'n' || c == 'N':
		return &agents.Candidate{}, true, ""
	case c == 's' || c == 'S' || c == 3 || c == 4:
		return nil, true, ""
	case c == 0x1b:
		if !drainSequence(e.clk(), keys) {
			return nil, true, ""
		}
	}
	return nil, false, ""
}

func sameHolders(a, b []choice) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].where != b[i].where {
			return false
		}
	}
	return true
}

// chooseBlock is the list as drawn: a question, a line per conversation
// (its first message cut to the line at a word), the keys.
func (e *Env) chooseBlock(r resumerecord.Record, sealed bool, list []choice, note string, width int) []para {
	head := text(0, plain, printable(r.Agent)+" · which conversation was this window's?")
	if !sealed {
		head.atoms = append(head.atoms, atom{pieces: []piece{{"(unconfirmed)", red}}, sep: " "})
	}
	ps := []para{head}
	if wd := e.dir(); wd != "" {
		ps = append(ps, para{indent: 2, atoms: []atom{{pieces: []piece{{wd, dim}}, tail: true}}})
	}
	now := e.clk().Now()
	if ran := ranWhen(r, now); ran != "" {
		ps = append(ps, text(2, dim, ran))
	}
	for i, ch := range list {
		facts := age(now.Sub(ch.c.Modified))
		if ch.c.Turns > 0 {
			facts += " · " + turns(ch.c.Turns)
		}
		if ch.where != "" {
			facts += " · open in " + printable(ch.where)
		}
		room := max(width-7-kitty.Cells(facts), 10)
		first := cutAtWord(printable(strings.Join(strings.Fields(ch.c.First), " ")), room)
		st := plain
		if ch.where != "" {
			st = dim
		}
		ps = append(ps, para{indent: 2, hang: 5, atoms: []atom{
			{pieces: []piece{{strconv.Itoa(i + 1), bold}}},
			{pieces: []piece{{first, st}}, sep: " "},
			{pieces: []piece{{facts, dim}}, sep: " · "},
		}})
	}
	if note != "" {
		ps = append(ps, text(2, red, note))
	}
	keys := para{indent: 2}
	for _, h := range [][2]string{{"1–" + strconv.Itoa(len(list)), "resume"}, {"n", "new conversation"}, {"s", "shell"}} {
		keys.atoms = append(keys.atoms, atom{pieces: []piece{{h[0], bold}, {" " + h[1], plain}}, sep: "   "})
	}
	return append(ps, keys)
}

// ranWhen says when the window's agent ran, as the save saw it: the
// conversations listed were written since it started. "" when not known.
func ranWhen(r resumerecord.Record, now time.Time) string {
	if r.Since <= 0 {
		return ""
	}
	out := "its " + printable(r.Agent) + " started " + wallTime(time.Unix(r.Since, 0), now)
	if r.LastSeen > 0 {
		out += ", last seen running " + wallTime(time.Unix(r.LastSeen, 0), now)
	}
	return out
}

// wallTime is t as a wall-clock time, with its day when that is not now's.
func wallTime(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("Jan 2 15:04")
}

// cutAtWord cuts s to at most n cells, at a word where it can, with "…".
func cutAtWord(s string, n int) string {
	if kitty.Cells(s) <= n {
		return s
	}
	out := ""
	for _, w := range strings.Fields(s) {
		next := strings.TrimSpace(out + " " + w)
		if kitty.Cells(next)+1 > n {
			break
		}
		out = next
	}
	if out == "" {
		r := []rune(s)
		for len(r) > 0 && kitty.Cells(string(r))+1 > n {
			r = r[:len(r)-1]
		}
		out = string(r)
	}
	return out + "…"
}

func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min ago"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h ago"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + " days ago"
}

func turns(n int) string {
	if n == 1 {
		return "1 turn"
	}
	return strconv.Itoa(n) + " turns"
}
