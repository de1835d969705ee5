package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/prompt"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/sessions"
)

// DefaultName is the session `save` writes when no name is given.
const DefaultName = "default"

// SaveOptions of `sessions save`.
type SaveOptions struct {
	F      *factory.Factory
	Name   string
	All    bool
	Direct bool
	JSON   bool
}

// NewCmdSave returns `sessions save`.
func NewCmdSave(f *factory.Factory, runF func(*SaveOptions) error) *cobra.Command {
	o := &SaveOptions{F: f}
	cmd := &cobra.Command{
		Use:   "save [NAME]",
		Short: "Save the focused OS window (--all: every one) with each agent's resume command",
		Long: `Mark each agent window, ask kitty to save_as_session to a temporary file, rewrite each agent
window's command into the restore prompt with its exact resume argv, and publish the result
atomically as sessions/NAME.kitty-session (default NAME: ` + DefaultName + `). Needs kitty 0.43 or newer.
A failed or empty save never replaces a good one.

Exit codes: 0 saved, 1 error (nothing written), 2 bad usage.`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeSessionNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = DefaultName
			if len(args) == 1 {
				o.Name = args[0]
			}
			if err := sessions.CheckName(o.Name); err != nil {
				return &factory.FlagError{Err: err}
			}
			if runF != nil {
				return runF(o)
			}
			return Save(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "save every OS window, not only the focused one")
	cmd.Flags().BoolVar(&o.Direct, "direct", false, "restored windows resume without asking")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print what was saved as JSON")
	return cmd
}

// SaveResult is what `save --json` prints.
type SaveResult struct {
	Name    string           `json:"name"`
	Path    string           `json:"path"`
	Kitty   string           `json:"kitty"`
	Windows []rewrite.Window `json:"windows"`
}

// Save runs `sessions save`.
func Save(ctx context.Context, o *SaveOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	f := o.F
	in, err := oneKitty(ctx, f)
	if err != nil {
		return err
	}
	if err := needVersion(in, "sessions save (kitty's save_as_session)", kitty.VersionSaveAsSession); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	set, err := loadAgents(f)
	if err != nil {
		return err
	}
	bin, err := resumeBin(f)
	if err != nil {
		return err
	}
	client := kitty.NewClient(in.Addr)
	ls, err := client.LS(ctx)
	if err != nil {
		return err
	}
	live := scanner.AgentWindows(set, ls)
	scanner.Records{Getenv: f.Getenv}.ReadIDs(live)
	if err := markAgents(ctx, client, live); err != nil {
		if isUnknownAction(err) {
			return tooOld(err)
		}
		return err
	}
	if err := f.Paths.EnsureState(); err != nil {
		return err
	}
	raw, err := kittySave(ctx, client, f.Paths.SessionsDir(), o.Name, o.All)
	if err != nil {
		if isUnknownAction(err) {
			return tooOld(err)
		}
		return fmt.Errorf("kitty's save_as_session: %w; nothing was written", err)
	}
	ws := make([]agents.Window, len(live))
	for i, w := range live {
		ws[i] = w.Agent
	}
	key, err := prompt.LoadOrCreateKey(f.Paths)
	if err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin, Direct: o.Direct, Live: ws,
		Key: key, Resolve: filepath.EvalSymlinks,
		Check: func(names []string) agents.Probes { return probes(ctx, f, set, names) }})
	if err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	path, err := sessions.Publish(f.Paths, o.Name, res.Data)
	if err != nil {
		return err
	}
	return printSaved(f.IO.Out, o.JSON, SaveResult{Name: o.Name, Path: path, Kitty: in.Socket, Windows: res.Windows})
}

// markAgents sets kittymux_agent on each agent window, and kittymux_session
// with kittymux_pid (the agent process it belongs to) where the id is known,
// so kitty's save carries them as --var. Where no id is known both are
// unset: one left from an earlier process of the window (a conversation the
// user has since quit, a restored one) is not this conversation's.
func markAgents(ctx context.Context, c *kitty.Client, live []scanner.AgentWindow) error {
	for _, w := range live {
		vars := []string{scanner.VarAgent + "=" + w.Agent.Cmd.Agent}
		id := w.Agent.KnownID
		if id == "" {
			id = w.Agent.Cmd.ID
		}
		if id != "" && w.PID > 0 {
			vars = append(vars, scanner.VarSession+"="+id, scanner.VarPID+"="+strconv.Itoa(w.PID))
		} else {
			vars = append(vars, scanner.VarSession, scanner.VarPID) // a name alone unsets it
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

// removeStaleRaw removes raw saves that a killed save left behind: each holds
// a whole session.
func removeStaleRaw(dir string, now time.Time) {
	old, _ := filepath.Glob(filepath.Join(dir, ".raw-*.kitty-session"))
	for _, p := range old {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > rawStaleAfter {
			os.Remove(p)
		}
	}
}

// kittySave asks kitty to write its session to a temp file beside the
// published ones and returns the bytes. The temp file is always removed.
func kittySave(ctx context.Context, c *kitty.Client, dir, name string, all bool) ([]byte, error) {
	removeStaleRaw(dir, time.Now())
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
	raw, err := sessions.ReadRaw(path)
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, rewrite.ErrEmpty
	}
	return raw, nil
}

// tooOld explains a kitty of unknown version that did not know a command.
func tooOld(err error) error {
	return fmt.Errorf("sessions save needs kitty %s or newer (save_as_session): %w; nothing was written", kitty.VersionSaveAsSession, err)
}

func isUnknownAction(err error) bool {
	var ce *kitty.CommandError
	if !errors.As(err, &ce) {
		return false
	}
	m := strings.ToLower(ce.Message)
	return strings.Contains(m, "unknown") || strings.Contains(m, "no remote command")
}

func printSaved(w io.Writer, asJSON bool, r SaveResult) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(w, "saved %s (%s)\n", r.Name, r.Path)
	printWindows(w, r.Windows)
	return nil
}

func printWindows(w io.Writer, ws []rewrite.Window) {
	for _, x := range ws {
		cmd := "(kept as saved)"
		if x.Mode != agents.ModeAsSaved {
			cmd = agents.Quote(x.Argv)
		}
		// The argv and the reason hold what ran in kitty's windows.
		fmt.Fprintf(w, "  window %d  %-8s %-8s %s\n      %s\n", x.WindowID, kitty.Printable(x.Agent), x.Mode, kitty.Printable(cmd), kitty.Printable(x.Reason))
	}
}
