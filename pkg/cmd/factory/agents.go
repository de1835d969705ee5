package factory

import (
	"context"
	"fmt"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/save"
)

// Agents loads the shipped and user definitions. A bad user file is
// reported, and the shipped definitions still work.
func (f *Factory) Agents() (*agents.Set, error) {
	set, err := agents.Load(f.Paths.UserAgents())
	if set == nil {
		return nil, err
	}
	if err != nil {
		fmt.Fprintf(f.IO.ErrOut, "kittymux: warning: %v\n", err)
	}
	return set, nil
}

// Probes checks the agents named (save.Probes), with KITTYMUX_PROBE_TIMEOUT
// as the deadline when it is set.
func (f *Factory) Probes(ctx context.Context, set *agents.Set, names []string) probe.Probes {
	timeout := probe.CommandProbeTimeout
	if v := f.Getenv("KITTYMUX_PROBE_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			timeout = d
		} else if len(names) > 0 {
			fmt.Fprintf(f.IO.ErrOut, "kittymux: warning: KITTYMUX_PROBE_TIMEOUT=%q is not a duration; using %s\n", v, timeout)
		}
	}
	return save.Probes(ctx, set, save.ProbeOptions{Paths: f.Paths, LookPath: f.LookPath, Timeout: timeout,
		Warnf: func(format string, args ...any) {
			fmt.Fprintf(f.IO.ErrOut, "kittymux: warning: "+format+"\n", args...)
		}}, names)
}
