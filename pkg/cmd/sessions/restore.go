package sessions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/restorerec"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/spinner"
	"github.com/kittymux/kittymux/pkg/stagger"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/store"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// RestoreOptions of `sessions restore`.
type RestoreOptions struct {
	IO       *factory.IOStreams
	Paths    paths.Paths
	LookPath func(string) (string, error)
	Discover func(context.Context) ([]kitty.Instance, error)
	Target

	Name string
	// StartKitty starts a new kitty on a session file; tests replace it.
	StartKitty func(kittyPath, session string) error
	// Wait is how long to wait for the outcome of the prompts that run
	// without asking.
	Wait time.Duration
}

// From fills o with what `sessions restore` takes from f.
func (o RestoreOptions) From(f *factory.Factory) *RestoreOptions {
	o.IO, o.Paths, o.LookPath, o.Discover, o.Target = f.IO, f.Paths, f.LookPath, f.Discover, targetFrom(f)
	return &o
}

// saved reads the saves for o.
func (o *RestoreOptions) saved() saved {
	return saved{paths: o.Paths, errOut: o.IO.ErrOut, discover: o.Discover, self: selfKey(o.To(), o.Getenv)}
}

// NewCmdRestore returns `sessions restore`.
func NewCmdRestore(f *factory.Factory, runF func(*RestoreOptions) error) *cobra.Command {
	o := RestoreOptions{StartKitty: startKitty}.From(f)
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
		ValidArgsFunction: completeSessionNames(o.Paths, "last"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = args[0]
			if runF != nil {
				return runF(o)
			}
			return Restore(cmd.Context(), o)
		},
	}
	cmd.Flags().DurationVar(&o.Wait, "wait", store.ReportWait, "how long to wait for the prompts that run without asking")
	return cmd
}

// Restore runs `sessions restore`.
func Restore(ctx context.Context, o *RestoreOptions) error {
	start := time.Now()
	sv := o.saved()
	info, endedKey, err := sv.resolve(ctx, o.Name)
	var none *nothingLast
	if errors.As(err, &none) {
		return none.print(o.IO.ErrOut)
	}
	if err != nil {
		return err
	}
	defer store.Use(o.Paths, info.Name)()
	info, left := sv.withoutClosed(endedKey, info)
	if o.KittyNamed() {
		in, err := o.OneKitty(ctx)
		if err != nil {
			return err
		}
		if err := needVersion(in, "sessions restore (kitty's goto_session)", kitty.VersionSaveAsSession); err != nil {
			return err
		}
		q, err := syntax.Quote(info.Path, syntax.LangPOSIX)
		if err != nil {
			return err
		}
		if err := kitty.NewClient(in.Addr).Action(ctx, "goto_session "+q); err != nil {
			return fmt.Errorf("goto_session %s: %w", info.Path, err)
		}
		fmt.Fprintf(o.IO.Out, "restored %s in %s (kitty went to its windows if they were open already)\n", info.Name, in.Socket)
		sv.markRestored(endedKey, info, start)
		printLeftOut(o.IO.Out, left, start)
		printScreenHistory(o.IO.Out, info.Path, start)
		o.reporter().report(ctx, info.Path, start, o.Wait)
		return nil
	}
	kp, err := o.LookPath("kitty")
	if err != nil {
		return fmt.Errorf("not inside kitty and no kitty on PATH to start: %w", err)
	}
	v, err := kitty.VersionOfExe(ctx, kp)
	if err == nil && !v.AtLeast(kitty.VersionSaveAsSession) {
		return fmt.Errorf("a saved session needs kitty %s or newer to load; %s is %s", kitty.VersionSaveAsSession, kp, v)
	}
	path, err := forNewKitty(o.Paths, info)
	if err != nil {
		return err
	}
	if err := o.StartKitty(kp, path); err != nil {
		return fmt.Errorf("start kitty: %w", err)
	}
	fmt.Fprintf(o.IO.Out, "restored %s in a new kitty\n", info.Name)
	sv.markRestored(endedKey, info, start)
	printLeftOut(o.IO.Out, left, start)
	printScreenHistory(o.IO.Out, info.Path, start)
	o.reporter().report(ctx, info.Path, start, o.Wait)
	return nil
}

// reporter says what the restore prompts did.
type reporter struct {
	paths  paths.Paths
	getenv func(string) string
	out    io.Writer
	// errOut shows a spinner while the prompts are awaited, when it is a
	// terminal.
	errOut io.Writer
}

// reporter is the reporter of o.
func (o *RestoreOptions) reporter() reporter {
	return reporter{paths: o.Paths, getenv: o.Getenv, out: o.IO.Out, errOut: o.IO.ErrOut}
}

// report prints what each agent window's restore prompt did, as the
// prompts record it in the journal, after waiting up to wait for those that
// run without asking.
func (r reporter) report(ctx context.Context, path string, since time.Time, wait time.Duration) {
	data, err := store.ReadRaw(path)
	if err != nil {
		return
	}
	key, _ := restorerec.ReadKey(r.paths.ResumeKey())
	_, autoFile := os.Stat(r.paths.ResumeAuto())
	ws, err := store.AgentWindows(data, key, r.getenv("KITTYMUX_RESUME") == "auto" || autoFile == nil)
	if err != nil || len(ws) == 0 {
		return
	}
	j := journal.New(r.paths.Journal(), journal.IsOff(r.paths.StateDir, r.getenv))
	if j.Off {
		fmt.Fprintf(r.out, "%d agent windows (the journal is off, so their prompts report nothing)\n", len(ws))
		return
	}
	// Resumes without asking start one after another per agent: the
	// report waits for the last of them too.
	interval, _ := stagger.Interval(r.paths, r.getenv)
	deadline := time.Now().Add(wait + store.StaggerWait(ws, interval))
	sp := spinner.Start(r.errOut, fmt.Sprintf("waiting for the prompts of %d agent window(s)", len(ws)))
	defer sp.Stop()
	for {
		outcomes, _ := j.RestoresSince(since)
		jf, _ := j.Read()
		lines, done := store.Report(ws, outcomes, confirmFrom(jf, live.Records{ProcRoot: "/proc", Getenv: r.getenv}))
		if done || !time.Now().Before(deadline) || ctx.Err() != nil {
			sp.Stop()
			for _, l := range lines {
				// Records and directories come from the editable file.
				fmt.Fprintf(r.out, "  %s\n", kitty.Printable(l))
			}
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// forNewKitty returns the file a new kitty should load. A save of one OS
// window starts with new_os_window: goto_session skips the empty section
// before it, but a kitty started with --session opens an OS window for it, a
// stray shell. Such a file is loaded from a copy without that line.
func forNewKitty(p paths.Paths, info store.Info) (string, error) {
	data, err := userfile.Read(info.Path, store.MaxRawSize)
	if err != nil {
		return "", err
	}
	file, err := sessionfile.Parse(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", info.Path, err)
	}
	for i, l := range file.Lines {
		switch {
		case l.Directive == "" || strings.HasPrefix(l.Directive, "#"):
			continue
		case l.Directive != "new_os_window":
			return info.Path, nil
		}
		file.Lines = append(file.Lines[:i:i], file.Lines[i+1:]...)
		out, err := file.Encode()
		if err != nil {
			return "", err
		}
		copyPath := filepath.Join(filepath.Dir(info.Path), paths.NewKittyPrefix+filepath.Base(info.Path))
		if err := statefile.WriteFile(p.StateDir, copyPath, out); err != nil {
			return "", err
		}
		return copyPath, nil
	}
	return info.Path, nil
}

func startKitty(kittyPath, session string) error {
	cmd := exec.Command(kittyPath, "--detach", "--session", session)
	return cmd.Run()
}

// printScreenHistory names the plain windows of the restored save that
// print the screen history it kept, with when it was kept.
func printScreenHistory(w io.Writer, path string, now time.Time) {
	data, err := store.ReadRaw(path)
	if err != nil {
		return
	}
	for _, h := range store.HistoryWindows(data) {
		what := "its screen history is gone"
		if fi, err := os.Lstat(h.File); err == nil {
			what = "prints its screen history, kept " + when(now, fi.ModTime())
		}
		// Directories come from the editable file.
		fmt.Fprintf(w, "  %s\n", kitty.Printable(fmt.Sprintf("%-20s %s  %s", "shell", h.Cwd, what)))
	}
}
