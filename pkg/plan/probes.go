package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kittymux/kittymux/pkg/probe"
)

// refuse says why mode cannot be used for a given the probe results, or "".
func refuse(p probe.Probes, a *agent, mode Mode) string {
	if p == nil {
		return ""
	}
	r, ok := p[a.name]
	switch {
	case !ok:
		return fmt.Sprintf("probe: %s was not checked", a.name)
	case !r.Installed:
		// Not on PATH here, so not probed: no evidence against the
		// definition. The restore prompt says so if the binary is still
		// missing when the window comes back, and keeps the record.
		return ""
	case r.TimedOut:
		// No answer in time is no evidence against the definition either
		// (a large CLI's cold start on a busy machine, the first after a
		// reboot): the window is rewritten from the definition, as for a
		// CLI not installed. Kept as saved, kitty would start a fresh
		// conversation in it, or run its typed prompt again.
		return ""
	case r.Error != "":
		return "probe: " + r.Error
	}
	for _, tok := range a.needed(mode) {
		if slices.Contains(r.Missing, tok) {
			what := tok
			if strings.HasPrefix(tok, "-") {
				what = "flag " + tok
			}
			return fmt.Sprintf("probe: %s not in %s", what, a.probeLabel(tok))
		}
	}
	return ""
}

// unanswered says, for a decision's reason, that a's probe did not answer
// in time, so the definition's flags were used; "" when it answered.
func unanswered(p probe.Probes, a *agent) string {
	if r, ok := p[a.name]; ok && r.Installed && r.TimedOut {
		return fmt.Sprintf("probe: %s (remembered %s), so its definition's flags are used (`kittymux sessions check` waits up to %s)",
			r.Error, probe.FailureTTL, probe.DefaultProbeTimeout)
	}
	return ""
}

// needed lists the probed tokens a mode's template relies on.
func (a *agent) needed(mode Mode) []string {
	var t []string
	switch mode {
	case ModeExact:
		t = a.def.Exact
	case ModeLatest:
		t = a.def.Latest
	case ModeNew:
		t = a.def.New
	}
	var out []string
	for _, w := range t {
		w, _, _ = strings.Cut(w, "=")
		if a.expects(w) {
			out = append(out, w)
		}
	}
	return out
}

// probeLabel names the probe that expects tok: "codex resume --help".
func (a *agent) probeLabel(tok string) string {
	for _, p := range a.probes {
		if slices.Contains(p.Expect, tok) {
			return a.name + " " + strings.Join(p.Args, " ")
		}
	}
	return a.name
}

func (a *agent) expects(tok string) bool {
	for _, p := range a.probes {
		if slices.Contains(p.Expect, tok) {
			return true
		}
	}
	return false
}
