package save

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/logs"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// ResumeBin is the restore prompt binary put into published files:
// $KITTYMUX_RESUME_BIN, else the one beside this kittymux (executable),
// else the one on PATH.
func ResumeBin(getenv func(string) string, executable string, lookPath func(string) (string, error)) (string, error) {
	if p := getenv("KITTYMUX_RESUME_BIN"); p != "" {
		return filepath.Abs(p)
	}
	if executable != "" {
		p := filepath.Join(filepath.Dir(executable), resumerecord.Program)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := lookPath(resumerecord.Program)
	if err != nil {
		return "", fmt.Errorf("kittymux-resume is neither beside kittymux nor on PATH; install both with `go install ./cmd/...`")
	}
	return filepath.Abs(p)
}

// ProbeOptions say how Probes checks the agents a save holds.
type ProbeOptions struct {
	Paths    paths.Paths
	LookPath func(string) (string, error)
	// Timeout is the one deadline the probes that must run share.
	Timeout time.Duration
	Warnf   logs.Logf
}

// Probes checks the agents named for what the rules need: cached 12 h (a
// failure 5 min), and the probes that must run share one short deadline so
// a CLI whose --help hangs never stalls a save.
func Probes(ctx context.Context, set *agents.Set, o ProbeOptions, names []string) probe.Probes {
	if len(names) == 0 {
		return probe.Probes{}
	}
	opt := probe.CheckOptionsFor(o.Paths)
	opt.LookPath = o.LookPath
	opt.Agents = uniq(names)
	opt.Timeout = o.Timeout
	if opt.Timeout <= 0 {
		opt.Timeout = probe.CommandProbeTimeout
	}
	rep, err := probe.Check(ctx, set, opt)
	if err != nil {
		o.Warnf.Printf("checking agent CLIs: %v", err)
		return nil
	}
	return rep.Probes()
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
