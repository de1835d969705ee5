// Package restore implements `kittymux sessions restore`: it opens a save
// and reports what each agent window's restore prompt did.
package restore

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
)

// RestoreOptions of `sessions restore`.
type RestoreOptions struct {
	IO       *factory.IOStreams
	Paths    paths.Paths
	LookPath func(string) (string, error)
	Discover func(context.Context) ([]kitty.Instance, error)
	shared.Target

	Name string
	// StartKitty starts a new kitty on a session file; tests replace it.
	StartKitty func(kittyPath, session string) error
	// Wait is how long to wait for the outcome of the prompts that run
	// without asking.
	Wait time.Duration
	// Chosen, when set, is the save as the offer showed it: resolved, its
	// windows closed by hand left out. What was shown is what is restored,
	// and nothing is looked up again.
	Chosen *Chosen
}

// Chosen is a save picked and prepared before Restore runs.
type Chosen struct {
	// Info is the session to load: the save, or its copy without the
	// windows left out.
	Info     published.Info
	EndedKey string // the ended kitty whose save it is
	Left     []offer.LeftOut
}

// From fills o with what `sessions restore` takes from f.
func (o RestoreOptions) From(f *factory.Factory) *RestoreOptions {
	o.IO, o.Paths, o.LookPath, o.Discover, o.Target = f.IO, f.Paths, f.LookPath, f.Discover, shared.TargetFrom(f)
	return &o
}

// Saved reads the saves for o.
func (o *RestoreOptions) Saved() ended.Saved {
	return ended.Saved{Paths: o.Paths, ErrOut: o.IO.ErrOut, Discover: o.Discover, Self: ended.SelfKey(o.To(), o.Getenv)}
}

// NewCmdRestore returns `sessions restore`.
func NewCmdRestore(f *factory.Factory, runF func(*RestoreOptions) error) *cobra.Command {
	o := RestoreOptions{StartKitty: kitty.StartSession}.From(f)
	cmd := &cobra.Command{
		Use:   "restore NAME|last",
		Short: "Open a saved session: goto_session inside kitty, a new kitty otherwise",
		Example: `  kittymux sessions restore last
  kittymux sessions restore work
  kittymux sessions restore work --wait 20s`,
		Long: `Open a saved session. Inside kitty (or with --to) kitty's goto_session loads it into the
running kitty; outside, a new kitty starts with --session. Needs kitty 0.43 or newer.

"last" is the newest save of the kitty that ended last (crashed, killed or quit): never the kitty
it runs in, never another kitty still running. Once restored it is not "last" again: restore last
then says when it was restored and names the other sessions that ended. With no autosave at all,
"last" is the newest save. Restoring an ended kitty's session also ends its offer on start.

Then it prints a line per agent window: what its restore prompt did (resumed, new conversation,
a shell and why, agent missing), as each prompt records it in the journal. It waits up to --wait
for the prompts that run without asking (--direct saves, KITTYMUX_RESUME=auto, resume-auto);
the others wait for a key, and say so. Each plain window that prints the screen history the save
kept has a line too.

Exit codes: 0 opened, 1 error, 2 bad usage.`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: shared.CompleteSessionNames(o.Paths, "last"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = args[0]
			if runF != nil {
				return runF(o)
			}
			return Restore(cmd.Context(), o)
		},
	}
	cmd.Flags().DurationVar(&o.Wait, "wait", ReportWait, "how long to wait for the prompts that run without asking")
	return cmd
}

// Restore runs `sessions restore`.
func Restore(ctx context.Context, o *RestoreOptions) error {
	start := time.Now()
	sv := o.Saved()
	c := o.Chosen
	if c == nil {
		info, endedKey, none, err := sv.Resolve(ctx, o.Name)
		if err != nil {
			return err
		}
		if none != nil {
			return printNoLast(o.IO.ErrOut, whyNoLast(*none, time.Now()))
		}
		defer published.Use(o.Paths, info.Name)()
		info, left := offer.LeaveOutClosed(o.Paths, o.IO.ErrOut, endedKey, info)
		c = &Chosen{Info: info, EndedKey: endedKey, Left: left}
	}
	info, endedKey, left := c.Info, c.EndedKey, c.Left
	where, err := open(ctx, o, info)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.IO.Out, "restored %s in %s\n", info.Name, where)
	sv.MarkRestored(endedKey, info, start)
	printLeftOut(o.IO.Out, left, start)
	printScreenHistory(o.IO.Out, info.Path, start)
	o.Report(ctx, info.Path, start)
	return nil
}

// open loads the session: into the kitty named (goto_session), else into a
// new kitty. It says where, for the message.
func open(ctx context.Context, o *RestoreOptions, info published.Info) (string, error) {
	if o.KittyNamed() {
		in, err := o.OneKitty(ctx)
		if err != nil {
			return "", err
		}
		if err := shared.NeedVersion(in, "sessions restore (kitty's goto_session)", kitty.VersionSaveAsSession); err != nil {
			return "", err
		}
		if err := kitty.NewClient(in.Addr).GotoSession(ctx, info.Path); err != nil {
			return "", err
		}
		return in.Socket + " (kitty went to its windows if they were open already)", nil
	}
	kp, err := o.LookPath("kitty")
	if err != nil {
		return "", fmt.Errorf("not inside kitty and no kitty on PATH to start: %w", err)
	}
	v, err := kitty.VersionOfExe(ctx, kp)
	if err == nil && !v.AtLeast(kitty.VersionSaveAsSession) {
		return "", fmt.Errorf("a saved session needs kitty %s or newer to load; %s is %s", kitty.VersionSaveAsSession, kp, v)
	}
	path, err := published.ForNewKitty(o.Paths, info.Path)
	if err != nil {
		return "", err
	}
	if err := o.StartKitty(kp, path); err != nil {
		return "", fmt.Errorf("start kitty: %w", err)
	}
	return "a new kitty", nil
}

// printScreenHistory names the plain windows of the restored save that
// print the screen history it kept, with when it was kept.
func printScreenHistory(w io.Writer, path string, now time.Time) {
	data, err := published.ReadRaw(path)
	if err != nil {
		return
	}
	for _, h := range published.HistoryWindows(data) {
		what := "its screen history is gone"
		if fi, err := os.Lstat(h.File); err == nil {
			what = "prints its screen history, kept " + history.When(now, fi.ModTime())
		}
		// Directories come from the editable file.
		fmt.Fprintf(w, "  %s\n", kitty.Printable(fmt.Sprintf("%-20s %s  %s", "shell", h.Cwd, what)))
	}
}
