package background

import (
	"context"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/probe"
)

// warmProbes checks every agent CLI on PATH once, as the scanner starts,
// with `sessions check`'s deadline (a cached failure is tried again), so
// the probe results are cached before the first autosave: a new user's
// first save does not depend on whether a CLI's --help (gemini's takes
// seconds on a busy machine) answered within a save's short deadline. The
// deadline is KITTYMUX_PROBE_TIMEOUT when that is longer. The returned
// wait blocks until the warm-up is done or ctx ends; a save waits
// for it before it probes.
func warmProbes(ctx context.Context, o Options, set *agents.Set) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		opt := probe.CheckOptionsFor(o.Paths)
		opt.LookPath = o.LookPath
		opt.RetryFailures = true
		opt.Timeout = probe.DefaultProbeTimeout
		if d, err := time.ParseDuration(o.Getenv("KITTYMUX_PROBE_TIMEOUT")); err == nil && d > opt.Timeout {
			opt.Timeout = d
		}
		if _, err := probe.Check(ctx, set, opt); err != nil && ctx.Err() == nil {
			o.Logf("checking agent CLIs: %v", err)
		}
	}()
	return func() {
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
}
