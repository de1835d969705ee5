package ended

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
)

// Saved reads the saves and what became of the kitties they are of.
type Saved struct {
	Paths paths.Paths
	// ErrOut gets the warnings: the state that could not be read or
	// written, which does not stop what is asked.
	ErrOut   io.Writer
	Discover func(context.Context) ([]kitty.Instance, error)
	// Self is the key of the kitty the command runs in, "" outside kitty.
	Self string
}

// Kitties reads every save and says, for each kitty with autosaves,
// whether it still runs and what became of its session.
func (s Saved) Kitties(ctx context.Context) ([]Kitty, []Save, error) {
	all, err := published.List(s.Paths)
	if err != nil {
		return nil, nil, err
	}
	saves := Saves(all)
	st, err := Read(s.Paths)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "kittymux: warning: %v\n", err)
	}
	return Kitties(saves, s.liveness(ctx), s.Self, st), saves, nil
}

// Resolve finds the save `restore NAME|last` opens, and the key of the
// kitty whose session it brings back once restored ("" when it is not an
// ended kitty's). When last finds none to restore (every kitty saved still
// runs, or the one that ended last was restored or dismissed already) it
// returns the Choice that says why instead, and no error.
func (s Saved) Resolve(ctx context.Context, name string) (published.Info, string, *Choice, error) {
	ks, saves, err := s.Kitties(ctx)
	if err != nil {
		return published.Info{}, "", nil, err
	}
	if name != "last" {
		info, err := published.Resolve(s.Paths, name)
		if err != nil {
			return info, "", nil, err
		}
		for _, k := range ks {
			for _, sv := range saves {
				if sv.Name == info.Name && sv.Kitty == k.Key && k.State != Running && k.State != This {
					return info, k.Key, nil, nil
				}
			}
		}
		return info, "", nil, nil
	}
	c := Last(ks, saves)
	if c.Pick != nil {
		info, err := published.Resolve(s.Paths, c.Pick.Name)
		return info, c.Pick.Kitty, nil, err
	}
	if len(saves) == 0 {
		_, err := published.Resolve(s.Paths, "last")
		return published.Info{}, "", nil, err
	}
	return published.Info{}, "", &c, nil
}

// liveness: a kitty's pid says whether it runs; discovery (asked once, and
// only for a kitty known by its socket alone) says it for the others.
func (s Saved) liveness(ctx context.Context) Alive {
	var byPID, bySocket Alive
	return func(key string) bool {
		if PIDOf(key) > 0 {
			if byPID == nil {
				byPID = Liveness(nil)
			}
			if byPID(key) {
				return true
			}
		}
		if bySocket == nil {
			insts, _ := s.Discover(ctx)
			bySocket = Liveness(insts)
		}
		return bySocket(key)
	}
}

// SelfKey is the key of the kitty a command runs in, "" outside kitty or
// with --to (to is its address).
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
	if err := MarkRestored(s.Paths, key, info.Name, at); err != nil {
		fmt.Fprintf(s.ErrOut, "kittymux: warning: restored, but not recorded as restored: %v\n", err)
	}
}
