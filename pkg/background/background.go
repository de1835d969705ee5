// Package background puts the background scanner together: the scanner, the
// autosave and the offer on start it drives, the watch on kitty's socket
// directories, and its status file. `kittymux scanner run` and `scanner
// poll` are its cobra wiring.
package background

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/logs"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/scanner"
)

// Options say where the scanner reads and writes, and how it finds kitty.
type Options struct {
	Paths    paths.Paths
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Executable is the running kittymux: the resume prompt is looked for
	// beside it, and the offer runs it.
	Executable string
	Discover   func(ctx context.Context) ([]kitty.Instance, error)
	Logf       logs.Logf
}

// build makes a Scanner; j may be nil. With autosave, it also returns the
// autosave and offer the scanner drives.
func build(ctx context.Context, o Options, j *journal.Journal, withAutosave bool) (*scanner.Scanner, *driven, error) {
	set, err := agents.Load(o.Paths.UserAgents())
	if set == nil {
		return nil, nil, err
	}
	if err != nil {
		o.Logf("agent definitions: %v", err)
	}
	so := scanner.Options{
		Set:      set,
		Journal:  j,
		Discover: o.Discover,
		Records:  live.Records{ProcRoot: "/proc", Getenv: o.Getenv, StateDir: o.Paths.StateDir},
		Logf:     o.Logf,
	}
	if j != nil {
		// The agents reached over ssh, beside the journal of those here.
		so.RemoteJournal = journal.New(o.Paths.RemoteJournal(), j.Off)
		so.ReadProc = live.ReadProc
	}
	var as *driven
	if withAutosave {
		as = &driven{as: newAutosaver(ctx, o, set), offer: newOfferer(o)}
		so.Autosave = as
	}
	return scanner.New(so), as, nil
}

// newAutosaver saves each kitty through the one save path, as `sessions
// save --all` would.
func newAutosaver(ctx context.Context, o Options, set *agents.Set) *autosave.Autosaver {
	settings, err := autosave.LoadSettings(o.Paths, o.Getenv)
	if err != nil {
		o.Logf("autosave settings: %v", err)
	}
	bin, binErr := save.ResumeBin(o.Getenv, o.Executable, o.LookPath)
	probeOpt := save.ProbeOptions{Paths: o.Paths, LookPath: o.LookPath, Warnf: o.Logf}
	warm := warmProbes(ctx, o, set)
	return &autosave.Autosaver{
		Settings: settings,
		Store:    autosave.Store{Paths: o.Paths, Keep: settings.Keep, ResumeBin: bin},
		Take: autosave.SaveOptions(save.Options{Agents: set, Paths: o.Paths, ResumeBin: bin, Getenv: o.Getenv,
			Check: func(names []string) probe.Probes { warm(); return save.Probes(ctx, set, probeOpt, names) }}),
		Off: func() string {
			if binErr != nil {
				return binErr.Error()
			}
			return autosave.Off(o.Paths, o.Getenv)
		},
		Logf: o.Logf,
	}
}

// describeAutosave is the status line of autosave as a whole. The settings
// are read once, at start; whether it is off, at each pass.
func describeAutosave(o Options) func() string {
	s, _ := autosave.LoadSettings(o.Paths, o.Getenv)
	on := fmt.Sprintf("on: settle %v, at most every %v, at least every %v while changed, keep %d per kitty",
		s.Settle, s.AtMostEvery, s.AtLeastEvery, s.Keep)
	return func() string {
		if why := autosave.Off(o.Paths, o.Getenv); why != "" {
			return "off: " + why
		}
		return on
	}
}

func openJournal(o Options) *journal.Journal {
	return journal.New(o.Paths.Journal(), journal.IsOff(o.Paths.StateDir, o.Getenv))
}

// Run runs the scanner until ctx ends: a pass every interval, a full
// rediscovery of kitty every rescan and whenever a socket directory
// changes, the status file written after each pass and when it stops. The
// caller holds the scanner lock.
func Run(ctx context.Context, o Options, interval, rescan time.Duration) error {
	j := openJournal(o)
	sc, as, err := build(ctx, o, j, true)
	if err != nil {
		return err
	}
	wake := make(chan struct{}, 1)
	w, err := scanner.Watch(ctx, wake, o.Logf)
	if err != nil {
		o.Logf("no socket directory watcher (%v): rescanning every %v only", err, rescan)
	}
	st := &statusWriter{o: o, w: w, dirs: kitty.SocketDirs(kitty.DiscoverOptions{Getenv: o.Getenv}),
		status:   scanner.Status{PID: os.Getpid(), Started: time.Now(), Journal: j.Path, JournalOff: j.Off},
		autosave: describeAutosave(o)}
	o.Logf("autosave %s", st.autosave())
	o.Logf("started (pid %d); journal %s%s", st.status.PID, j.Path, map[bool]string{true: " (off)", false: ""}[j.Off])
	err = sc.Loop(ctx, scanner.LoopOptions{Interval: interval, Rescan: rescan, Wake: wake, AfterPass: st.afterPass})
	as.Wait()
	st.stopped(time.Now())
	o.Logf("stopped")
	return err
}

// statusWriter writes the scanner's status after each pass, and watches
// the socket directories of the kitties it finds.
type statusWriter struct {
	o        Options
	w        *scanner.Watcher
	dirs     []string
	status   scanner.Status
	autosave func() string
}

func (s *statusWriter) afterPass(p scanner.Pass) {
	if s.w != nil {
		for _, k := range p.Kitties {
			if a, err := kitty.ParseAddress(k.Socket); err == nil && !a.Abstract() {
				s.dirs = appendNew(s.dirs, filepath.Dir(a.Path))
			}
		}
		s.w.Add(s.dirs...)
	}
	s.status.Updated = p.At
	s.status.Kitties = p.Kitties
	s.status.OpenSessions = len(p.Sessions)
	s.status.JournalError = p.JournalError
	s.status.Autosave = s.autosave()
	if err := scanner.WriteStatus(s.o.Paths.StateDir, s.status); err != nil {
		s.o.Logf("%v", err)
	}
}

func (s *statusWriter) stopped(now time.Time) {
	s.status.Stopped = &now
	if err := scanner.WriteStatus(s.o.Paths.StateDir, s.status); err != nil {
		s.o.Logf("%v", err)
	}
}

func appendNew(dirs []string, d string) []string {
	for _, have := range dirs {
		if have == d {
			return dirs
		}
	}
	return append(dirs, d)
}

// Poll does one pass. Without a running scanner the pass is recorded in the
// journal, as the scanner would; with one running, the journal is left to
// it.
func Poll(ctx context.Context, o Options) (scanner.Pass, error) {
	var j *journal.Journal
	if !scanner.Current(o.Paths.StateDir).Running {
		j = openJournal(o)
	}
	sc, _, err := build(ctx, o, j, false)
	if err != nil {
		return scanner.Pass{}, err
	}
	return sc.Poll(ctx)
}
