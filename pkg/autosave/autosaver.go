package autosave

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/logs"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/save"
	"github.com/kittymux/kittymux/pkg/screenhist"
)

// Autosaver saves each kitty the scanner polls when its Policy says so.
// Saves run in the background, at most one per kitty, so a slow kitty or
// agent probe never delays a poll. It implements scanner.Autosave.
type Autosaver struct {
	Settings Settings
	Store    Store
	// Take takes one save of a kitty (save.Take with --all).
	Take func(ctx context.Context, in kitty.Instance) (*rewrite.Result, error)
	// Off says why autosave is off now, or "" (autosave.Off).
	Off   func() string
	Clock clock.Clock // nil: the system's
	Logf  logs.Logf

	mu      sync.Mutex
	kitties map[string]*kittyAuto // by KittyKey
	wg      sync.WaitGroup
}

type kittyAuto struct {
	policy *Policy
	// tooOld: the kitty did not know save_as_session; autosave stays off
	// for it.
	tooOld string
	held   *rewrite.Result // a held save
	heldAt time.Time
	status string
	last   string // the newest good save's path
}

// SaveOptions returns a Take that saves every OS window through the one
// save path (save.Take), with base's agents, paths and probes. Whether it
// keeps screen history is read at each save (config.json, the
// environment), so turning it on or off needs no restart.
func SaveOptions(base save.Options) func(ctx context.Context, in kitty.Instance) (*rewrite.Result, error) {
	return func(ctx context.Context, in kitty.Instance) (*rewrite.Result, error) {
		o := base
		if base.Getenv != nil {
			o.ScreenHistory, _ = screenhist.Load(o.Paths, o.Getenv)
		}
		o.Kitty = kitty.NewClient(in.Addr)
		o.Instance = in
		o.All = true
		o.Name = "autosave"
		return save.Take(ctx, o)
	}
}

func (a *Autosaver) now() time.Time { return clock.Or(a.Clock).Now() }

// Polled takes what a poll started at now saw of kitty in: its layout key
// and window count. It may start a save, and returns the line the scanner's
// status shows for autosave of that kitty.
func (a *Autosaver) Polled(ctx context.Context, in kitty.Instance, key string, windows int, now time.Time) string {
	if !in.Version.IsZero() && !in.Version.AtLeast(kitty.VersionSaveAsSession) {
		return fmt.Sprintf("off: kitty %s cannot save its layout (save_as_session needs %s)", in.Version, kitty.VersionSaveAsSession)
	}
	if a.Off != nil {
		if why := a.Off(); why != "" {
			return "off: " + why
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.kitties == nil {
		a.kitties = map[string]*kittyAuto{}
	}
	kk := KittyKey(in)
	k := a.kitties[kk]
	if k == nil {
		k = &kittyAuto{policy: NewPolicy(a.Settings), status: "waiting for the layout to settle"}
		a.kitties[kk] = k
	}
	if k.tooOld != "" {
		return "off: " + k.tooOld
	}
	if k.policy.Observe(now, Layout{Key: key, Windows: windows}) {
		a.publish(kk, k, k.held, k.heldAt)
		k.held = nil
	}
	if k.policy.Due(now) {
		layout := k.policy.Started(now)
		k.status = "saving"
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			res, err := a.Take(ctx, in)
			a.finished(kk, k, layout, res, err)
		}()
	}
	return k.status
}

// finished applies a save's outcome.
func (a *Autosaver) finished(kk string, k *kittyAuto, layout Layout, res *rewrite.Result, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	o := Outcome{Layout: layout, Err: err}
	if errors.Is(err, rewrite.ErrEmpty) {
		o.Err = nil // empty, not failed: said as such
	}
	if res != nil {
		o.Windows = res.Count
		for _, w := range res.Warnings {
			a.Logf.Printf("autosave of kitty %s: warning: %s", kk, w)
		}
	}
	if errors.Is(err, save.ErrKittyTooOld) {
		k.tooOld = err.Error()
	}
	v, why := k.policy.Finished(now, o)
	switch v {
	case Keep:
		a.publish(kk, k, res, now)
	case Hold:
		k.held, k.heldAt = res, now
		k.status = "holding a save: " + why
		a.Logf.Printf("autosave of kitty %s: %s", kk, why)
	default:
		k.status = "not saved: " + why + a.lastGood(k)
		a.Logf.Printf("autosave of kitty %s: %s", kk, why)
	}
}

func (a *Autosaver) publish(kk string, k *kittyAuto, res *rewrite.Result, at time.Time) {
	path, err := a.Store.Publish(kk, at, res)
	if err != nil {
		k.status = "not saved: " + err.Error() + a.lastGood(k)
		a.Logf.Printf("autosave of kitty %s: %v", kk, err)
		return
	}
	k.last = path
	k.status = "saved " + at.Local().Format(time.TimeOnly) + " to " + path
	a.Logf.Printf("autosave of kitty %s: saved to %s", kk, path)
}

func (a *Autosaver) lastGood(k *kittyAuto) string {
	if k.last == "" {
		return ""
	}
	return "; the last good save stays: " + k.last
}

// Gone forgets a kitty that went away; a save it held (taken while it was
// closing) is dropped.
func (a *Autosaver) Gone(in kitty.Instance) {
	a.mu.Lock()
	defer a.mu.Unlock()
	kk := KittyKey(in)
	if k := a.kitties[kk]; k != nil {
		if k.policy.Gone() {
			a.Logf.Printf("autosave of kitty %s: it went away; the save with fewer windows it took while closing is dropped", kk)
		}
		delete(a.kitties, kk)
	}
}

// Wait waits for the saves under way.
func (a *Autosaver) Wait() { a.wg.Wait() }
