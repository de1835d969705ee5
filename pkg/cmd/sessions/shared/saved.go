package shared

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// Saved reads the saves and what became of the kitties they are of.
type Saved struct {
	Paths    paths.Paths
	ErrOut   io.Writer
	Discover func(context.Context) ([]kitty.Instance, error)
	// Self is the key of the kitty the command runs in, "" outside kitty.
	Self string
}

// Kitties reads every save and says, for each kitty with autosaves,
// whether it still runs and what became of its session.
func (s Saved) Kitties(ctx context.Context) ([]ended.Kitty, []ended.Save, error) {
	all, err := published.List(s.Paths)
	if err != nil {
		return nil, nil, err
	}
	saves := ended.Saves(all)
	st, err := ended.Read(s.Paths)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "kittymux: warning: %v\n", err)
	}
	return ended.Kitties(saves, s.liveness(ctx), s.Self, st), saves, nil
}

// liveness: a kitty's pid says whether it runs; discovery (asked once, and
// only for a kitty known by its socket alone) says it for the others.
func (s Saved) liveness(ctx context.Context) ended.Alive {
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
			insts, _ := s.Discover(ctx)
			bySocket = ended.Liveness(insts)
		}
		return bySocket(key)
	}
}

// SelfKey is the key of the kitty the command runs in, "" outside kitty
// or with --to.
func SelfKey(to string, getenv func(string) string) string {
	if to != "" {
		return ""
	}
	if pid, err := strconv.Atoi(getenv("KITTY_PID")); err == nil && pid > 0 && getenv("KITTY_LISTEN_ON") != "" {
		return strconv.Itoa(pid)
	}
	return ""
}

// MarkRestored records that key's session was restored, which ends its
// offer and makes it no longer `restore last`.
func (s Saved) MarkRestored(key string, info published.Info, at time.Time) {
	if key == "" {
		return
	}
	if err := ended.MarkRestored(s.Paths, key, info.Name, at); err != nil {
		fmt.Fprintf(s.ErrOut, "kittymux: warning: restored, but not recorded as restored: %v\n", err)
	}
}

// WithoutClosed leaves out of an ended kitty's save the agent windows the
// journal says were closed by hand before that kitty ended: what is loaded
// is then a copy in sessions/.restore/, of the same base name (kitty names
// the session after it). It returns the session to load and what was left
// out.
func (s Saved) WithoutClosed(key string, info published.Info) (published.Info, []offer.LeftOut) {
	pid := ended.PIDOf(key)
	if pid == 0 {
		return info, nil
	}
	jf, err := journal.New(s.Paths.Journal(), false).Read()
	if err != nil {
		return info, nil
	}
	data, err := published.ReadRaw(info.Path)
	if err != nil {
		return info, nil
	}
	kept, left, err := offer.WithoutClosed(data, jf, pid)
	if err != nil || len(left) == 0 {
		return info, nil
	}
	path := filepath.Join(s.Paths.SessionsDir(), paths.RestoreCopiesName, filepath.Base(info.Path))
	if err := statefile.WriteFile(s.Paths.StateDir, path, kept); err != nil {
		fmt.Fprintf(s.ErrOut, "kittymux: warning: %v; the windows closed by hand come back too\n", err)
		return info, nil
	}
	info.Path = path
	return info, left
}

// When is a time for people: the clock time, and how long ago.
func When(now, t time.Time) string {
	layout := "15:04:05"
	if now.Local().Format(time.DateOnly) != t.Local().Format(time.DateOnly) {
		layout = time.DateTime
	}
	return "at " + t.Local().Format(layout) + " (" + history.Ago(now, t) + ")"
}

// CompleteSessionNames completes the names of the saves, and extra. Shell
// completion (`kittymux completion bash|zsh|fish`) asks it while a word is
// typed: it reads files only, never a kitty socket or an agent's --help, so
// a completion never waits.
func CompleteSessionNames(p paths.Paths, extra ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		all, _ := published.List(p)
		names := append([]string(nil), extra...)
		for _, in := range all {
			names = append(names, in.Name)
		}
		var out []cobra.Completion
		for _, n := range names {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// Lost asks the agents' own files whether a journal record's conversation
// is still there (claude deletes old transcripts, codex archives threads,
// people delete files): why it is not, or "".
func Lost(set *agents.Set, getenv func(string) string) func(journal.Record) string {
	return func(r journal.Record) string {
		run := conversations.Run{Argv: r.Argv, Dir: r.Dir, Getenv: conversations.EnvOver(r.Env, getenv)}
		return conversations.FindRun(set, r.Agent, r.ID, run).Lost(r.Agent)
	}
}
