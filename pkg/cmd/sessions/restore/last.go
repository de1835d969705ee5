package restore

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
)

// printNoLast prints the lines of whyNoLast: the first as an error, the
// others as they are.
func printNoLast(w io.Writer, lines []string) error {
	for i, l := range lines {
		if i == 0 {
			l = "kittymux: " + l
		}
		// Save names come from the sessions directory.
		fmt.Fprintln(w, kitty.Printable(l))
	}
	return &factory.SilentError{Code: factory.ExitError}
}

// whyNoLast says why `restore last` restores nothing: the kitty that ended
// last was restored (or dismissed) already, or every kitty saved still runs;
// and what could be restored instead.
func whyNoLast(c ended.Choice, now time.Time) []string {
	var b strings.Builder
	switch {
	case c.Done != nil && c.Done.State == ended.Restored:
		m := c.Done.Mark
		fmt.Fprintf(&b, "the session that ended last, %s, was restored already, %s", describeEnded(*c.Done, now), history.When(now, m.Restored))
		if m.RestoredName != "" && m.RestoredName != c.Done.Newest.Name {
			fmt.Fprintf(&b, " (from %s)", m.RestoredName)
		}
		b.WriteString("; `restore last` does not restore it twice")
	case c.Done != nil:
		fmt.Fprintf(&b, "the session that ended last, %s, was dismissed %s", describeEnded(*c.Done, now), history.When(now, c.Done.Mark.Dismissed))
	default:
		var running []string
		for _, k := range c.Running {
			s := "kitty " + k.Key
			if k.State == ended.This {
				s += " (this one)"
			}
			running = append(running, s)
		}
		verb := "run"
		if len(running) == 1 {
			verb = "runs"
		}
		fmt.Fprintf(&b, "no kitty with a save has ended: %s still %s; `restore last` restores only a kitty that went away",
			strings.Join(running, ", "), verb)
	}
	if len(c.Others) > 0 {
		b.WriteString("\nother sessions that ended, to restore by name (`kittymux sessions restore NAME`):")
		for _, k := range c.Others {
			fmt.Fprintf(&b, "\n  %s", describeEnded(k, now))
			if k.State == ended.Dismissed {
				b.WriteString(", dismissed " + history.When(now, k.Mark.Dismissed))
			}
		}
	} else if c.Done != nil {
		b.WriteString("\nno other session ended; `kittymux sessions saves` lists every save, to restore one by name")
	} else {
		b.WriteString("\n`kittymux sessions saves` lists every save, to restore one by name")
	}
	return strings.Split(b.String(), "\n")
}

// describeEnded names a kitty that ended and how.
func describeEnded(k ended.Kitty, now time.Time) string {
	how := "gone without a quit, last saved " + history.When(now, k.Newest.At)
	if k.Quit {
		how = "quit " + history.When(now, k.Newest.At)
	}
	who := "kitty " + k.Key
	if ended.PIDOf(k.Key) == 0 {
		who = "a kitty"
	}
	return kitty.Printable(k.Newest.Name) + " (" + who + ", " + how + ")"
}

// printLeftOut says which agent windows do not come back, and why.
func printLeftOut(w io.Writer, left []offer.LeftOut, now time.Time) {
	for _, l := range left {
		// Ids and directories come from the editable file.
		fmt.Fprintf(w, "  left out: %s: %s %s, before kitty ended\n", kitty.Printable(l.Agent.String()), l.Why, history.When(now, l.Closed))
	}
}
