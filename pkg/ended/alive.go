package ended

import (
	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/procid"
)

// Liveness says whether the kitty of an autosave's key still runs: a kitty
// found running (its socket answers discovery) has that key, or its pid is
// a live kitty process of this user. A pid alone is not enough: after a
// crash the pid may be another program's.
func Liveness(running []kitty.Instance) Alive {
	keys := map[string]bool{}
	for _, in := range running {
		keys[autosave.KittyKey(in)] = true
	}
	return func(key string) bool {
		if keys[key] {
			return true
		}
		pid := PIDOf(key)
		return pid > 0 && procid.Runs(pid, "kitty")
	}
}
