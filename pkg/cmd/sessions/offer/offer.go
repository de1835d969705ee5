// Package offer implements `kittymux sessions offer`, the offer the scanner
// opens in a kitty that starts: the session of a kitty that ended, restored
// (package restore) or, from a kitty too old to load a save, recovered
// (package recover) on a key.
package offer

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/recover"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/restore"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/tui"
)

// OfferOptions of `sessions offer`.
type OfferOptions struct {
	recover.Recovery

	// Kitty is the key of the kitty whose session is offered.
	Kitty string
	// Keys are the keys pressed; default: the terminal, read raw.
	Keys <-chan byte
	// Poll is how often the state is read again while the offer waits, so
	// a restore made elsewhere ends it.
	Poll time.Duration
	// CloseAfter bounds the wait for a key once the offer was answered.
	CloseAfter time.Duration
}

// From fills o with what `sessions offer` takes from f.
func (o OfferOptions) From(f *factory.Factory) *OfferOptions {
	o.Recovery = recover.RecoveryFrom(f)
	return &o
}

// restore is `sessions restore` with o's means.
func (o *OfferOptions) restore() *restore.RestoreOptions {
	return &restore.RestoreOptions{IO: o.IO, Paths: o.Paths, LookPath: o.LookPath, Discover: o.Discover, Target: o.Target,
		StartKitty: kitty.StartSession, Wait: restore.ReportWait}
}

// NewCmdOffer returns `sessions offer`, the offer the scanner opens in a
// kitty that starts.
func NewCmdOffer(f *factory.Factory, runF func(*OfferOptions) error) *cobra.Command {
	o := OfferOptions{Poll: time.Second, CloseAfter: 2 * time.Minute}.From(f)
	cmd := &cobra.Command{
		Use:     "offer KITTY",
		Short:   "Offer the session of a kitty that ended (the scanner opens this in a kitty that starts)",
		Example: `  kittymux sessions offer 15939`,
		Long: `Show what the kitty KITTY (its pid, as its autosaves name it) held when it ended, and ask once:
Enter restores it into this kitty (as ` + "`sessions restore`" + ` does), n dismisses it (it is not offered
again, and ` + "`restore last`" + ` no longer picks it), l or Esc leaves it for later (` + "`restore last`" + `
still restores it). The scanner opens this over the first window of a kitty that starts when a
kitty of this user ended without its session being restored or dismissed; KITTYMUX_OFFER=0 or
{"offer": {"on_start": false}} in config.json turn that off. A restore made meanwhile (by
` + "`sessions restore`" + `) ends the offer. Once the session is back, the tab the offer ran over closes
when kitty opened it as it started and nothing was done in it (its shell alone, at its prompt, no
command run: kitty's shell integration says so), so crashes and restores do not pile up empty tabs.

Exit codes: 0 answered (or nothing to offer), 1 error.`,
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Kitty = args[0]
			if runF != nil {
				return runF(o)
			}
			return Offer(cmd.Context(), o)
		},
	}
	return cmd
}

// Offer runs `sessions offer`.
func Offer(ctx context.Context, o *OfferOptions) error {
	out := o.IO.Out
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.CloseAfter <= 0 {
		o.CloseAfter = 2 * time.Minute
	}
	if ended.IsJournalKey(o.Kitty) {
		return offerJournal(ctx, o)
	}
	sv := o.restore().Saved()
	k, err := offered(ctx, sv, o.Kitty)
	if err != nil || k == nil {
		fmt.Fprintf(out, "kittymux: nothing to offer: %v\n", orNothing(err, "kitty "+o.Kitty+"'s session is not one that ended"))
		return nil
	}
	defer published.Use(o.Paths, k.Newest.Name)()
	info, left := offer.LeaveOutClosed(o.Paths, o.IO.ErrOut, k.Key, published.Info{Name: k.Newest.Name, Path: k.Newest.Path})
	data, err := published.ReadRaw(info.Path)
	if err != nil {
		return err
	}
	sum, err := offer.Summarize(data)
	if err != nil {
		return fmt.Errorf("%s: %w", k.Newest.Path, err)
	}
	fmt.Fprint(out, offer.RenderOn(out, o.Getenv, offer.OfferView(*k, sum, left, time.Now(), o.Getenv("HOME"))))
	return ask(ctx, o, k.Key, "`kittymux sessions saves` still lists it, to restore by name", func() error {
		r := o.restore()
		r.Chosen = &restore.Chosen{Info: info, EndedKey: k.Key, Left: left}
		return restore.Restore(ctx, r)
	})
}

// ask waits for the answer to the offer of kitty key's session: Enter runs
// restore, n dismisses (still says how to restore it by hand), l, Esc or
// the terminal going away leave it for later. A restore made elsewhere
// meanwhile ends it.
func ask(ctx context.Context, o *OfferOptions, key, still string, restore func() error) error {
	out := o.IO.Out
	keys, done := o.Keys, func() {}
	if keys == nil {
		var err error
		if keys, done, err = tui.RawKeys(o.IO.In); err != nil {
			fmt.Fprintf(out, "kittymux: no terminal to answer in (%v): left for later\n", err)
			return nil
		}
	}
	defer func() { done() }()
	tick := time.NewTicker(o.Poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if m := markOf(o.Paths, key); !m.Restored.IsZero() {
				from := ""
				if !strings.HasPrefix(m.RestoredName, published.AutosavePrefix) {
					from = ", from " + kitty.Printable(m.RestoredName)
				}
				fmt.Fprintf(out, "\r\nkittymux: restored meanwhile %s%s\r\n", history.When(time.Now(), m.Restored), from)
				// Long enough to read; the window then closes.
				waitKey(keys, min(2*time.Second, o.CloseAfter))
				return nil
			}
		case b, ok := <-keys:
			if !ok {
				return ended.MarkLater(o.Paths, key, time.Now())
			}
			switch b {
			case '\r', '\n':
				done()
				done = func() {}
				fmt.Fprintln(out)
				err := restore()
				if err != nil {
					fmt.Fprintf(out, "kittymux: %v\n", err)
				}
				fmt.Fprintf(out, "\npress Enter to close\n")
				waitKey(keys, o.CloseAfter)
				if err == nil {
					closeFresh(ctx, o)
				}
				return err
			case 'n', 'N':
				fmt.Fprintf(out, "\r\ndismissed: not offered again (%s)\r\n", still)
				return ended.MarkDismissed(o.Paths, key, time.Now())
			case 'l', 'L', 'q', 0x1b, 0x03, 0x04:
				return ended.MarkLater(o.Paths, key, time.Now())
			}
		}
	}
}

// closeFresh closes the tab the offer ran over, if it is fresh
// (offer.CloseFresh): the offer's window is KITTY_WINDOW_ID of the kitty
// it runs in.
func closeFresh(ctx context.Context, o *OfferOptions) {
	self, err := strconv.Atoi(o.Getenv("KITTY_WINDOW_ID"))
	if err != nil {
		return
	}
	// The kitty it runs in, by the address kitty gave it: nothing to find.
	if addr, err := kitty.ParseAddress(o.Getenv("KITTY_LISTEN_ON")); err == nil {
		offer.CloseFresh(ctx, kitty.NewClient(addr), self)
	}
}

// offered finds the kitty whose session is offered, if it ended.
func offered(ctx context.Context, sv ended.Saved, key string) (*ended.Kitty, error) {
	ks, _, err := sv.Kitties(ctx)
	if err != nil {
		return nil, err
	}
	for i := range ks {
		if ks[i].Key == key && ks[i].State == ended.Ended {
			return &ks[i], nil
		}
	}
	return nil, nil
}

func markOf(p paths.Paths, key string) ended.Mark {
	st, _ := ended.Read(p)
	return st.Kitties[key]
}

func orNothing(err error, what string) string {
	if err != nil {
		return err.Error()
	}
	return what
}

// waitKey waits for a key, at most d.
func waitKey(keys <-chan byte, d time.Duration) {
	select {
	case <-keys:
	case <-time.After(d):
	}
}
