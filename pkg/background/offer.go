package background

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
)

// driven is what the scanner tells of each poll: autosave, and the offer
// on start, which looks at each kitty the first time it is seen.
type driven struct {
	as    *autosave.Autosaver
	offer *offer.Offerer
}

func (d *driven) Polled(ctx context.Context, in kitty.Instance, key string, windows int, now time.Time) string {
	d.offer.Seen(ctx, in)
	return d.as.Polled(ctx, in, key, windows, now)
}

func (d *driven) Gone(in kitty.Instance) { d.as.Gone(in) }

// Wait waits for the saves and offers under way.
func (d *driven) Wait() {
	d.as.Wait()
	d.offer.Wait()
}

// newOfferer opens the offer as an overlay over the active window of the
// kitty that starts: launch --type=overlay exists in every kitty kittymux
// supports, needs no focus change of its own, and closes with the offer,
// leaving the window under it as it was. The offer runs this same binary
// with the state and config directories the scanner uses, whatever kitty's
// environment says.
func newOfferer(o Options) *offer.Offerer {
	return &offer.Offerer{
		Paths: o.Paths,
		Off:   func() string { return offer.OfferOff(o.Paths, o.Getenv) },
		Launch: func(ctx context.Context, in kitty.Instance, key string) error {
			if o.Executable == "" {
				return fmt.Errorf("kittymux's own path is not known")
			}
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			_, err := kitty.NewClient(in.Addr).Launch(ctx, kitty.LaunchOptions{
				Type:  "overlay",
				Title: "kittymux: restore the session that ended?",
				Args:  []string{o.Executable, "sessions", "offer", key},
				Env:   offerEnv(o.Paths),
			})
			return err
		},
		Logf: o.Logf,
	}
}

// offerEnv points the offer at the scanner's own state and configuration.
func offerEnv(p paths.Paths) []string {
	var env []string
	if filepath.Base(p.StateDir) == "kittymux" {
		env = append(env, "XDG_STATE_HOME="+filepath.Dir(p.StateDir))
	}
	if filepath.Base(p.ConfigDir) == "kittymux" {
		env = append(env, "XDG_CONFIG_HOME="+filepath.Dir(p.ConfigDir))
	}
	return env
}
