package offer

import (
	"fmt"
	"time"

	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/kitty"
)

// OfferView is the offer of kitty k's session as people see it: what it
// held and when it ended ("2 agents in 1 tab, ended unexpectedly 2 minutes
// ago"; "2 agents in 1 of 2 tabs" where another tab holds none), a paragraph a tab with its agents and their directories (home as
// ~), what was left out, and the keys. The save's file name is not shown:
// `sessions saves` lists it.
func OfferView(k ended.Kitty, sum Summary, left []LeftOut, now time.Time, home string) []Para {
	what := Count(sum.Windows, "window") + " in " + Count(len(sum.Tabs), "tab")
	if sum.Agents > 0 {
		// "2 agents in 2 tabs" where both are in one of them read as
		// agents in each: the tabs that hold agents, of how many.
		in := 0
		for _, t := range sum.Tabs {
			if len(t.Agents) > 0 {
				in++
			}
		}
		where := Count(in, "tab")
		if in < len(sum.Tabs) {
			where = fmt.Sprintf("%d of %s", in, Count(len(sum.Tabs), "tab"))
		}
		what = Count(sum.Agents, "agent") + " in " + where
	}
	how := "ended unexpectedly"
	if k.Quit {
		how = "quit"
	}
	ps := []Para{Heading(0, 2, fmt.Sprintf("%s, %s %s", what, how, Ago(now, k.Newest.At))), {}}
	for i, t := range sum.Tabs {
		title := fmt.Sprintf("tab %d:", i+1)
		if t.Title != "" {
			title = fmt.Sprintf("tab %q:", t.Title)
		}
		line := title + " " + Count(t.Windows, "window")
		for j, a := range t.Agents {
			a.Dir = Tilde(a.Dir, home)
			sep := ", "
			if j == 0 {
				sep = ": "
			}
			line += sep + a.String()
		}
		// Titles, ids and directories come from an editable file.
		ps = append(ps, Text(2, 4, kitty.Printable(line)))
	}
	for _, l := range left {
		a := l.Agent
		a.Dir = Tilde(a.Dir, home)
		ps = append(ps, Text(2, 4, kitty.Printable(fmt.Sprintf("left out: %s: %s %s, before kitty ended", a.String(), l.Why, Ago(now, l.Closed)))))
	}
	return append(ps, Para{}, Keys(2, [][2]string{{"Enter", "restore it here"}, {"n", "dismiss"}, {"l", "later"}}),
		Text(2, 2, "Later, `kittymux sessions restore last` restores it."))
}

// RecoverTab is one conversation the offer of a journal's kitty brings
// back.
type RecoverTab struct {
	Title      string
	Agent      Agent
	LastActive time.Time
}

// RecoverView is the offer of the conversations a kitty too old to save
// went away with (ended at gone), as `sessions recover` brings them back.
func RecoverView(tabs []RecoverTab, gone, now time.Time, since, home string) []Para {
	ps := []Para{Heading(0, 2, fmt.Sprintf("%s, ended unexpectedly %s", Count(len(tabs), "conversation"), Ago(now, gone))),
		Text(2, 2, "Its conversations, and any other that ended with its kitty in the last "+since+":"), {}}
	for _, t := range tabs {
		a := t.Agent
		a.Dir = Tilde(a.Dir, home)
		// Titles, ids and directories come from kitty's windows.
		ps = append(ps, Text(2, 4, kitty.Printable(fmt.Sprintf("tab %q: %s, last active %s", t.Title, a.String(), Ago(now, t.LastActive)))))
	}
	return append(ps, Para{}, Keys(2, [][2]string{{"Enter", "open them here"}, {"n", "dismiss"}, {"l", "later"}}),
		Text(2, 2, "Later, `kittymux sessions recover` brings them back."))
}
