package factory

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/save"
)

// lazy fills the parts a command may not need, each made on its first use
// and once: a command that needs none of them pays nothing. They read the
// Factory's fields when first called, so a test may set IO, Paths and
// Getenv after New.
func (f *Factory) lazy() {
	f.Agents = sync.OnceValues(f.agents)
	f.ResumeBin = sync.OnceValues(func() (string, error) { return save.ResumeBin(f.Getenv, f.Executable, f.LookPath) })
	f.SealKey = sync.OnceValues(func() ([]byte, error) { return resumerecord.LoadOrCreateKey(f.Paths) })
	probeTimeout := sync.OnceValue(f.probeTimeout)
	f.Probes = func(ctx context.Context, set *agents.Set, names []string) probe.Probes {
		timeout := probe.CommandProbeTimeout
		if len(names) > 0 {
			timeout = probeTimeout()
		}
		return save.Probes(ctx, set, save.ProbeOptions{Paths: f.Paths, LookPath: f.LookPath, Timeout: timeout,
			Warnf: func(format string, args ...any) {
				fmt.Fprintf(f.IO.ErrOut, "kittymux: warning: "+format+"\n", args...)
			}}, names)
	}
}

// agents loads the shipped and user definitions. A bad user file is
// reported, and the shipped definitions still work.
func (f *Factory) agents() (*agents.Set, error) {
	set, err := agents.Load(f.Paths.UserAgents())
	if set == nil {
		return nil, err
	}
	if err != nil {
		fmt.Fprintf(f.IO.ErrOut, "kittymux: warning: %v\n", err)
	}
	return set, nil
}

// probeTimeout is KITTYMUX_PROBE_TIMEOUT when it is set, else the
// commands' probe deadline.
func (f *Factory) probeTimeout() time.Duration {
	timeout := probe.CommandProbeTimeout
	if v := f.Getenv("KITTYMUX_PROBE_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			timeout = d
		} else {
			fmt.Fprintf(f.IO.ErrOut, "kittymux: warning: KITTYMUX_PROBE_TIMEOUT=%q is not a duration; using %s\n", v, timeout)
		}
	}
	return timeout
}
