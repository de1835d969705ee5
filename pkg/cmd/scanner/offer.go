package scanner

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/logs"
)

// driven is what the scanner tells of each poll: autosave, and the offer
// on start, which looks at each kitty the first time it is seen.
type driven struct {
	as    *autosave.Autosaver
	offer *ended.Offerer
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
func newOfferer(f *factory.Factory, logf logs.Logf) *ended.Offerer {
	return &ended.Offerer{
		Paths: f.Paths,
		Off:   func() string { return ended.OfferOff(f.Paths, f.Getenv) },
		Launch: func(ctx context.Context, in kitty.Instance, key string) error {
			if f.Executable == "" {
				return fmt.Errorf("kittymux's own path is not known")
			}
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			_, err := kitty.NewClient(in.Addr).Launch(ctx, kitty.LaunchOptions{
				Type:  "overlay",
				Title: "kittymux: restore the session that ended?",
				Args:  []string{f.Executable, "sessions", "offer", key},
				Env:   offerEnv(f),
			})
			return err
		},
		Logf: logf,
	}
}

// offerEnv points the offer at the scanner's own state and configuration.
func offerEnv(f *factory.Factory) []string {
	var env []string
	if filepath.Base(f.Paths.StateDir) == "kittymux" {
		env = append(env, "XDG_STATE_HOME="+filepath.Dir(f.Paths.StateDir))
	}
	if filepath.Base(f.Paths.ConfigDir) == "kittymux" {
		env = append(env, "XDG_CONFIG_HOME="+filepath.Dir(f.Paths.ConfigDir))
	}
	return env
}
