// Package save is the one save path: mark each agent window with its id,
// ask kitty to save its session, rewrite the agent windows into restore
// records, and publish. `sessions save` and the scanner's autosave both go
// through it, so what a save holds never depends on who asked.
package save

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/screenhist"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// Kitty is what a save asks of the kitty it saves (kitty.Client).
type Kitty interface {
	LS(ctx context.Context) ([]kitty.OSWindow, error)
	SetUserVars(ctx context.Context, match string, vars []string) error
	Action(ctx context.Context, action string) error
}

// Options of one save. Kitty, Agents, Paths and ResumeBin are required.
type Options struct {
	Kitty Kitty
	// Instance is the kitty saved (its socket and pid), for the journal's
	// records of its windows; zero matches none.
	Instance kitty.Instance
	Agents   *agents.Set
	Paths    paths.Paths
	// ResumeBin is the absolute path of kittymux-resume.
	ResumeBin string
	// Name names the raw file while kitty writes it, and the published
	// session (sessions/NAME.kitty-session).
	Name string
	// All saves every OS window, not only the focused one.
	All bool
	// Direct makes the restored windows resume without asking.
	Direct bool
	// Getenv is this process's environment: where an agent keeps its
	// records when the agent process's own environment cannot be read.
	Getenv func(string) string
	// Check probes the agents the save holds (`sessions check`); nil trusts
	// the definitions.
	Check func(agentNames []string) probe.Probes
	// Clock is the clock; nil is the system's.
	Clock clock.Clock
	// ScreenHistory, when on, keeps what each plain window shows with the
	// save (screenhist), within its bounds, when Kitty can read a window's
	// text.
	ScreenHistory screenhist.Setting
}

// ErrKittyTooOld: the kitty did not know a command the save needs (its
// version was not known beforehand).
var ErrKittyTooOld = errors.New("sessions save needs kitty " + kitty.VersionSaveAsSession.String() + " or newer (save_as_session)")

// Take marks the agent windows, has kitty save, and rewrites the save. It
// writes nothing but kitty's raw file, which it always removes.
func Take(ctx context.Context, o Options) (*rewrite.Result, error) {
	ls, err := o.Kitty.LS(ctx)
	if err != nil {
		return nil, err
	}
	lr := live.Records{Getenv: o.Getenv, StateDir: o.Paths.StateDir}
	aws := lr.AgentWindows(o.Agents, ls)
	lr.ReadIDs(aws)
	// The journal confirms ids (a hook's, an earlier pass's); the user vars
	// kitty shows are not read: any program can set them. An unreadable
	// journal leaves the ids the agents' records and argv give.
	if jf, err := journal.New(o.Paths.Journal(), false).Read(); err == nil && jf != nil {
		recs := live.OpenRecords(jf, o.Instance.Socket, o.Instance.PID, aws)
		live.JournalIDs(aws, recs)
		for i, r := range recs {
			if r != nil {
				aws[i].Origin = r.Origin()
			}
		}
	}
	if err := markAgents(ctx, o.Kitty, aws); err != nil {
		if kitty.IsUnknownCommand(err) {
			return nil, tooOld(err)
		}
		return nil, err
	}
	if err := statefile.EnsureState(o.Paths); err != nil {
		return nil, err
	}
	raw, err := kittySave(ctx, o.Kitty, o.Paths.SessionsDir(), o.Name, o.All, clock.Or(o.Clock).Now())
	if err != nil {
		if kitty.IsUnknownCommand(err) {
			return nil, tooOld(err)
		}
		return nil, fmt.Errorf("kitty's save_as_session: %w; nothing was written", err)
	}
	// The save is read against what kitty lists once it has saved: the
	// marks just set, and any window opened or closed meanwhile, are in it.
	if after, err := o.Kitty.LS(ctx); err == nil {
		ls = after
	}
	ws := make([]live.AgentWindow, len(aws))
	for i, w := range aws {
		ws[i] = w.WithSince()
	}
	key, err := resumerecord.LoadOrCreateKey(o.Paths)
	if err != nil {
		return nil, fmt.Errorf("%w; nothing was written", err)
	}
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: o.Agents, ResumeBin: o.ResumeBin, Direct: o.Direct, Live: ws,
		Key: key, Check: o.Check, LS: saved(ls, o.All), Remote: remoteWindows(saved(ls, o.All))})
	if err != nil {
		return nil, fmt.Errorf("%w; nothing was written", err)
	}
	if tr, ok := o.Kitty.(TextReader); ok && o.ScreenHistory.On {
		res.HistoryTexts = ReadHistory(ctx, tr, res, o.ResumeBin, o.ScreenHistory.Bounds)
	}
	return res, nil
}

// remoteWindows are the windows of ls that run ssh, read from the OS.
func remoteWindows(ls []kitty.OSWindow) map[int]remote.Seen {
	out := map[int]remote.Seen{}
	for _, s := range remote.Windows(ls, live.ReadProc) {
		out[s.WindowID] = s
	}
	return out
}

// Save takes a save and publishes it as sessions/NAME.kitty-session. It
// returns the published path.
func Save(ctx context.Context, o Options) (string, *rewrite.Result, error) {
	res, err := Take(ctx, o)
	if err != nil {
		return "", nil, err
	}
	path, err := Publish(o.Paths, o.Name, o.ResumeBin, res, clock.Or(o.Clock).Now())
	if err != nil {
		return "", nil, err
	}
	return path, res, nil
}

// markAgents sets kittymux_agent on each agent window, and kittymux_session
// with kittymux_pid (the agent process it belongs to) where the id is known,
// so kitty's save carries them as --var. Where no id is known both are
// unset: one left from an earlier process of the window (a conversation the
// user has since quit, a restored one) is not this conversation's.
func markAgents(ctx context.Context, c Kitty, aws []live.AgentWindow) error {
	for _, w := range aws {
		vars := []string{uservars.Agent + "=" + w.Cmd.Agent}
		id := w.KnownID
		if id == "" {
			id = w.Cmd.ID
		}
		if id != "" && w.PID > 0 {
			vars = append(vars, uservars.Session+"="+id, uservars.PID+"="+strconv.Itoa(w.PID))
		} else {
			vars = append(vars, uservars.Session, uservars.PID) // a name alone unsets it
		}
		if err := c.SetUserVars(ctx, "id:"+strconv.Itoa(w.Ref.Window.ID), vars); err != nil {
			return fmt.Errorf("mark window %d: %w", w.Ref.Window.ID, err)
		}
	}
	return nil
}

// rawStaleAfter is how old a raw save left by a killed save must be before
// the next save removes it: kitty writes it without a lock, so age is what
// tells a dead save's file from one being written now.
const rawStaleAfter = 10 * time.Minute

// removeStaleRaw removes raw saves that a killed save left behind (each
// holds a whole session), and the windows' texts of a quit save whose
// publish never ran.
func removeStaleRaw(dir string, now time.Time) {
	old, _ := userfile.Glob(filepath.Join(dir, ".raw-*.kitty-session"))
	texts, _ := userfile.Glob(filepath.Join(dir, ".raw-*"+QuitTextsExt))
	for _, p := range append(old, texts...) {
		fi, err := os.Lstat(p)
		switch {
		case err != nil || now.Sub(fi.ModTime()) <= rawStaleAfter:
		case fi.Mode().IsRegular():
			os.Remove(p)
		case fi.IsDir():
			QuitTexts{Dir: p}.Remove()
		}
	}
}

// kittySave asks kitty to write its session to a temp file beside the
// published ones and returns the bytes. The temp file is always removed.
func kittySave(ctx context.Context, c Kitty, dir, name string, all bool, now time.Time) ([]byte, error) {
	removeStaleRaw(dir, now)
	tmp, err := os.CreateTemp(dir, ".raw-"+name+"-*.kitty-session")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	path, err := filepath.Abs(tmp.Name())
	if err != nil {
		return nil, err
	}
	// kitty splits the action string shell-style: quote the path.
	q, err := syntax.Quote(path, syntax.LangPOSIX)
	if err != nil {
		return nil, err
	}
	action := "save_as_session --save-only --use-foreground-process "
	if !all {
		action += "--match=state:focused_os_window "
	}
	if err := c.Action(ctx, action+q); err != nil {
		return nil, err
	}
	raw, err := published.ReadRaw(path)
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, rewrite.ErrEmpty
	}
	return raw, nil
}

// saved is the part of ls that kitty's save covers: every OS window, or
// the one --match=state:focused_os_window matches (kitty's last focused
// one). A launch line for a window outside it is not kitty's (rewrite.Vet).
func saved(ls []kitty.OSWindow, all bool) []kitty.OSWindow {
	if all {
		return ls
	}
	for _, w := range ls {
		if w.LastFocused {
			return []kitty.OSWindow{w}
		}
	}
	return ls
}

// tooOld explains a kitty of unknown version that did not know a command.
func tooOld(err error) error {
	return fmt.Errorf("%w: %w; nothing was written", ErrKittyTooOld, err)
}
