package sessions

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/store"
)

// saved reads the saves and what became of the kitties they are of.
type saved struct {
	paths    paths.Paths
	errOut   io.Writer
	discover func(context.Context) ([]kitty.Instance, error)
	// self is the key of the kitty the command runs in, "" outside kitty.
	self string
}

// kitties reads every save and says, for each kitty with autosaves,
// whether it still runs and what became of its session.
func (s saved) kitties(ctx context.Context) ([]ended.Kitty, []ended.Save, error) {
	all, err := store.List(s.paths)
	if err != nil {
		return nil, nil, err
	}
	saves := ended.Saves(all)
	st, err := ended.Read(s.paths)
	if err != nil {
		fmt.Fprintf(s.errOut, "kittymux: warning: %v\n", err)
	}
	return ended.Kitties(saves, s.liveness(ctx), s.self, st), saves, nil
}

// liveness: a kitty's pid says whether it runs; discovery (asked once, and
// only for a kitty known by its socket alone) says it for the others.
func (s saved) liveness(ctx context.Context) ended.Alive {
	var byPID, bySocket ended.Alive
	return func(key string) bool {
		if ended.PIDOf(key) > 0 {
			if byPID == nil {
				byPID = ended.Liveness(nil)
			}
			if byPID(key) {
				return true
			}
		}
		if bySocket == nil {
			insts, _ := s.discover(ctx)
			bySocket = ended.Liveness(insts)
		}
		return bySocket(key)
	}
}

// selfKey is the key of the kitty the command runs in, "" outside kitty
// or with --to.
func selfKey(to string, getenv func(string) string) string {
	if to != "" {
		return ""
	}
	if pid, err := strconv.Atoi(getenv("KITTY_PID")); err == nil && pid > 0 && getenv("KITTY_LISTEN_ON") != "" {
		return strconv.Itoa(pid)
	}
	return ""
}

// resolveRestore finds the session `restore NAME|last` opens, and the key
// of the kitty whose session it brings back once restored ("" when it is
// not an ended kitty's).
func (s saved) resolve(ctx context.Context, name string) (store.Info, string, error) {
	ks, saves, err := s.kitties(ctx)
	if err != nil {
		return store.Info{}, "", err
	}
	if name != "last" {
		info, err := store.Resolve(s.paths, name)
		if err != nil {
			return info, "", err
		}
		for _, k := range ks {
			for _, s := range saves {
				if s.Name == info.Name && s.Kitty == k.Key && k.State != ended.Running && k.State != ended.This {
					return info, k.Key, nil
				}
			}
		}
		return info, "", nil
	}
	c := ended.Last(ks, saves)
	if c.Pick != nil {
		info, err := store.Resolve(s.paths, c.Pick.Name)
		return info, c.Pick.Kitty, err
	}
	if len(saves) == 0 {
		_, err := store.Resolve(s.paths, "last")
		return store.Info{}, "", err
	}
	return store.Info{}, "", lastError(c, time.Now())
}

// nothingLast: `restore last` finds no session to restore. Its lines say
// why and what could be restored instead.
type nothingLast struct{ lines []string }

func (e *nothingLast) Error() string { return strings.Join(e.lines, "; ") }

// print writes the lines: the first as an error, the others as they are.
func (e *nothingLast) print(w io.Writer) error {
	for i, l := range e.lines {
		if i == 0 {
			l = "kittymux: " + l
		}
		// Save names come from the sessions directory.
		fmt.Fprintln(w, kitty.Printable(l))
	}
	return &factory.SilentError{Code: factory.ExitError}
}

// lastError says why `restore last` restores nothing: the kitty that ended
// last was restored (or dismissed) already, or every kitty saved still runs;
// and what could be restored instead.
func lastError(c ended.Choice, now time.Time) error {
	var b strings.Builder
	switch {
	case c.Done != nil && c.Done.State == ended.Restored:
		m := c.Done.Mark
		fmt.Fprintf(&b, "the session that ended last, %s, was restored already, %s", describeEnded(*c.Done, now), when(now, m.Restored))
		if m.RestoredName != "" && m.RestoredName != c.Done.Newest.Name {
			fmt.Fprintf(&b, " (from %s)", m.RestoredName)
		}
		b.WriteString("; `restore last` does not restore it twice")
	case c.Done != nil:
		fmt.Fprintf(&b, "the session that ended last, %s, was dismissed %s", describeEnded(*c.Done, now), when(now, c.Done.Mark.Dismissed))
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
				b.WriteString(", dismissed " + when(now, k.Mark.Dismissed))
			}
		}
	} else if c.Done != nil {
		b.WriteString("\nno other session ended; `kittymux sessions saves` lists every save, to restore one by name")
	} else {
		b.WriteString("\n`kittymux sessions saves` lists every save, to restore one by name")
	}
	return &nothingLast{lines: strings.Split(b.String(), "\n")}
}

// describeEnded names a kitty that ended and how.
func describeEnded(k ended.Kitty, now time.Time) string {
	how := "gone without a quit, last saved " + when(now, k.Newest.At)
	if k.Quit {
		how = "quit " + when(now, k.Newest.At)
	}
	who := "kitty " + k.Key
	if ended.PIDOf(k.Key) == 0 {
		who = "a kitty"
	}
	return kitty.Printable(k.Newest.Name) + " (" + who + ", " + how + ")"
}

// when is a time for people: the clock time, and how long ago.
func when(now, t time.Time) string {
	layout := "15:04:05"
	if now.Local().Format(time.DateOnly) != t.Local().Format(time.DateOnly) {
		layout = time.DateTime
	}
	return "at " + t.Local().Format(layout) + " (" + history.Ago(now, t) + ")"
}

// markRestored records that key's session was restored, which ends its
// offer and makes it no longer `restore last`.
func (s saved) markRestored(key string, info store.Info, at time.Time) {
	if key == "" {
		return
	}
	if err := ended.MarkRestored(s.paths, key, info.Name, at); err != nil {
		fmt.Fprintf(s.errOut, "kittymux: warning: restored, but not recorded as restored: %v\n", err)
	}
}

// withoutClosed leaves out of an ended kitty's save the agent windows the
// journal says were closed by hand before that kitty ended: what is loaded
// is then a copy in sessions/.restore/, of the same base name (kitty names
// the session after it). It returns the session to load and what was left
// out.
func (s saved) withoutClosed(key string, info store.Info) (store.Info, []ended.LeftOut) {
	pid := ended.PIDOf(key)
	if pid == 0 {
		return info, nil
	}
	jf, err := journal.New(s.paths.Journal(), false).Read()
	if err != nil {
		return info, nil
	}
	data, err := store.ReadRaw(info.Path)
	if err != nil {
		return info, nil
	}
	kept, left, err := ended.WithoutClosed(data, jf, pid)
	if err != nil || len(left) == 0 {
		return info, nil
	}
	path := filepath.Join(s.paths.SessionsDir(), paths.RestoreCopiesName, filepath.Base(info.Path))
	if err := statefile.WriteFile(s.paths.StateDir, path, kept); err != nil {
		fmt.Fprintf(s.errOut, "kittymux: warning: %v; the windows closed by hand come back too\n", err)
		return info, nil
	}
	info.Path = path
	return info, left
}

// printLeftOut says which agent windows do not come back, and why.
func printLeftOut(w io.Writer, left []ended.LeftOut, now time.Time) {
	for _, l := range left {
		// Ids and directories come from the editable file.
		fmt.Fprintf(w, "  left out: %s: %s %s, before kitty ended\n", kitty.Printable(l.Agent.String()), l.Why, when(now, l.Closed))
	}
}
