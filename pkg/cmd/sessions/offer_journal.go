package sessions

import (
	"context"
	"fmt"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/recovery"
	"github.com/kittymux/kittymux/pkg/restorerec"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/store"
)

// offerJournal is the offer in a kitty too old to load a save (< 0.43):
// the conversations `sessions recover` brings back, offered because the
// kitty o.Kitty went away with some of them. Enter opens them in this
// kitty, a tab each.
func offerJournal(ctx context.Context, o *OfferOptions) error {
	f := o.F
	out := f.IO.Out
	now := time.Now()
	jf, err := journal.New(f.Paths.Journal(), false).Read()
	if err != nil {
		return err
	}
	var gone *ended.GoneKitty
	for _, g := range ended.GoneKitties(jf, now.Add(-ended.RecoverSince)) {
		if g.Key == o.Kitty {
			gone = &g
		}
	}
	if m := markOf(f, o.Kitty); gone == nil || !m.Restored.IsZero() || !m.Dismissed.IsZero() {
		fmt.Fprintf(out, "kittymux: nothing to offer: no conversation of %s is left to recover\n", o.Kitty)
		return nil
	}
	plan, err := recoverPlan(ctx, f, false)
	if err != nil {
		return err
	}
	if len(plan.Tabs) == 0 {
		fmt.Fprintf(out, "kittymux: nothing to offer: every conversation of %s runs again\n", o.Kitty)
		return nil
	}
	who := "a kitty"
	if gone.PID > 0 {
		who = fmt.Sprintf("kitty %d", gone.PID)
	}
	fmt.Fprintf(out, "kittymux: the session that ended unexpectedly\n  %s went away %s; its conversations, and any other that ended with its kitty in the last %s:\n\n",
		who, when(now, gone.Ended), history.Duration(ended.RecoverSince))
	for _, t := range plan.Tabs {
		a := ended.Agent{Agent: t.Agent, Mode: string(t.Mode), ID: t.ID, Dir: t.Dir}
		// Titles, ids and directories come from kitty's windows.
		fmt.Fprintf(out, "  tab %q: %s, last active %s\n", kitty.Printable(t.Title), kitty.Printable(a.String()), history.Ago(now, t.LastActive))
	}
	fmt.Fprintf(out, "  %d conversation%s\n\n", len(plan.Tabs), plural(len(plan.Tabs)))
	fmt.Fprintf(out, "  Enter open them here   n dismiss   l later (`kittymux sessions recover`)\n")
	return ask(ctx, o, o.Kitty, "`kittymux sessions recover` still brings them back", func() error {
		return recoverHere(ctx, f, jf, o.Kitty)
	})
}

// recoverHere recovers as `sessions recover` does, opens the tabs in the
// kitty the command runs in (one too old for goto_session: a launch per
// tab), prints what each prompt did, and marks every gone kitty whose
// conversations came back as restored.
func recoverHere(ctx context.Context, f *factory.Factory, jf *journal.File, offered string) error {
	start := time.Now()
	plan, err := recoverPlan(ctx, f, true)
	if err != nil {
		return err
	}
	if len(plan.Tabs) == 0 {
		return fmt.Errorf("nothing to recover any more: every conversation runs again")
	}
	path, err := store.Publish(f.Paths, DefaultRecoverName, plan.Data)
	if err != nil {
		return err
	}
	opened := "this kitty"
	if f.Getenv("KITTY_LISTEN_ON") != "" || f.To != "" {
		if err := launchTabs(ctx, f, plan.Data); err != nil {
			return fmt.Errorf("%w (the session is saved as %s)", err, path)
		}
	} else if opened, err = openBasic(ctx, f, startKitty, path); err != nil {
		// Not inside kitty: as recover does.
		return err
	}
	fmt.Fprintf(f.IO.Out, "recovered %d conversation(s) as %s, opened in %s\n", len(plan.Tabs), DefaultRecoverName, opened)
	keys := map[string]bool{offered: true}
	byRecord := map[string]string{}
	for _, r := range jf.Records {
		byRecord[r.Key] = ended.JournalKey(r)
	}
	for _, t := range plan.Tabs {
		if k := byRecord[t.Key]; k != "" {
			keys[k] = true
		}
	}
	for k := range keys {
		markRestored(f, k, store.Info{Name: DefaultRecoverName}, start)
	}
	report(ctx, f, path, start, store.ReportWait)
	return nil
}

// recoverPlan is `sessions recover`'s plan with its defaults; seal makes
// the records sealed (creating the key if need be), as a real recover does.
func recoverPlan(ctx context.Context, f *factory.Factory, seal bool) (*recovery.Plan, error) {
	jf, err := journal.New(f.Paths.Journal(), false).Read()
	if err != nil {
		return nil, err
	}
	set, err := f.Agents()
	if err != nil {
		return nil, err
	}
	bin, err := resumeBin(f)
	if err != nil {
		return nil, err
	}
	live, err := liveKitties(ctx, f, set)
	if err != nil {
		return nil, err
	}
	var key []byte
	if seal {
		if key, err = restorerec.LoadOrCreateKey(f.Paths); err != nil {
			return nil, err
		}
	} else {
		key, _ = restorerec.ReadKey(f.Paths.ResumeKey())
	}
	return recovery.Build(recovery.Options{Agents: set, Journal: jf, Since: ended.RecoverSince,
		Live: live, ResumeBin: bin, Key: key, Stat: statDir,
		Check: func(names []string) probe.Probes { return f.Probes(ctx, set, names) }})
}

// launchTabs opens each window of a basic session file (recover's: new_tab,
// cd, launch) as a tab of the kitty the command runs in, through launch,
// which every kitty kittymux supports.
func launchTabs(ctx context.Context, f *factory.Factory, data []byte) error {
	in, err := oneKitty(ctx, f)
	if err != nil {
		return err
	}
	file, err := sessionfile.Parse(data)
	if err != nil {
		return err
	}
	c := kitty.NewClient(in.Addr)
	for _, ref := range file.Windows() {
		title, _ := ref.Line.Launch.Option("--title")
		if _, err := c.Launch(ctx, kitty.LaunchOptions{Type: "tab", TabTitle: ref.TabTitle, Title: title, Cwd: ref.Cwd,
			Args: ref.Line.Launch.Argv}); err != nil {
			return fmt.Errorf("open a tab in %s: %w", in.Socket, err)
		}
	}
	return nil
}
