package offer

import (
	"context"
	"fmt"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/sessions/recover"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/recovery"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// offerJournal is the offer in a kitty too old to load a save (< 0.43):
// the conversations `sessions recover` brings back, offered because the
// kitty o.Kitty went away with some of them. Enter opens them in this
// kitty, a tab each.
func offerJournal(ctx context.Context, o *OfferOptions) error {
	out := o.IO.Out
	now := time.Now()
	jf, err := journal.New(o.Paths.Journal(), false).Read()
	if err != nil {
		return err
	}
	var gone *ended.GoneKitty
	for _, g := range ended.GoneKitties(jf, now.Add(-ended.RecoverSince)) {
		if g.Key == o.Kitty {
			gone = &g
		}
	}
	if m := markOf(o.Paths, o.Kitty); gone == nil || !m.Restored.IsZero() || !m.Dismissed.IsZero() {
		fmt.Fprintf(out, "kittymux: nothing to offer: no conversation of %s is left to recover\n", o.Kitty)
		return nil
	}
	plan, err := o.recoverPlan(ctx, false)
	if err != nil {
		return err
	}
	if len(plan.Tabs) == 0 {
		fmt.Fprintf(out, "kittymux: nothing to offer: every conversation of %s runs again\n", o.Kitty)
		return nil
	}
	tabs := make([]offer.RecoverTab, len(plan.Tabs))
	for i, t := range plan.Tabs {
		tabs[i] = offer.RecoverTab{Title: t.Title, LastActive: t.LastActive,
			Agent: offer.Agent{Agent: t.Agent, Mode: t.Mode, ID: t.ID, Dir: t.Dir}}
	}
	fmt.Fprint(out, offer.RenderOn(out, o.Getenv, offer.RecoverView(tabs, gone.Ended, now, history.Duration(ended.RecoverSince), o.Getenv("HOME"))))
	return ask(ctx, o, o.Kitty, "`kittymux sessions recover` still brings them back", func() error {
		return o.recoverHere(ctx, jf, o.Kitty)
	})
}

// recoverHere recovers as `sessions recover` does, opens the tabs in the
// kitty the command runs in (one too old for goto_session: a launch per
// tab), prints what each prompt did, and marks every gone kitty whose
// conversations came back as restored.
func (o *OfferOptions) recoverHere(ctx context.Context, jf *journal.File, offered string) error {
	start := time.Now()
	plan, err := o.recoverPlan(ctx, true)
	if err != nil {
		return err
	}
	if len(plan.Tabs) == 0 {
		return fmt.Errorf("nothing to recover any more: every conversation runs again")
	}
	path, err := published.Publish(o.Paths, recover.DefaultName, plan.Data)
	if err != nil {
		return err
	}
	opened := "this kitty"
	if o.KittyNamed() {
		if err := launchTabs(ctx, o.Target, plan.Data); err != nil {
			return fmt.Errorf("%w (the session is saved as %s)", err, path)
		}
	} else if opened, err = shared.OpenBasic(ctx, o.Target, o.LookPath, kitty.StartSession, path); err != nil {
		// Not inside kitty: as recover does.
		return err
	}
	fmt.Fprintf(o.IO.Out, "recovered %d conversation(s) as %s, opened in %s\n", len(plan.Tabs), recover.DefaultName, opened)
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
	r := o.restore()
	sv := r.Saved()
	for k := range keys {
		sv.MarkRestored(k, published.Info{Name: recover.DefaultName}, start)
	}
	r.Report(ctx, path, start)
	return nil
}

// recoverPlan is `sessions recover`'s plan with its defaults; seal makes
// the records sealed (creating the key if need be), as a real recover does.
func (o *OfferOptions) recoverPlan(ctx context.Context, seal bool) (*recovery.Plan, error) {
	key := o.SealKey
	if !seal {
		key = func() ([]byte, error) {
			k, _ := resumerecord.ReadKey(o.Paths.ResumeKey())
			return k, nil
		}
	}
	return o.Plan(ctx, recovery.Options{Since: ended.RecoverSince}, false, key)
}

// launchTabs opens each window of a basic session file (recover's: new_tab,
// cd, launch) as a tab of the kitty the command runs in, through launch,
// which every kitty kittymux supports.
func launchTabs(ctx context.Context, t shared.Target, data []byte) error {
	in, err := t.OneKitty(ctx)
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
