package prompt

import (
	"fmt"
	"time"

	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// waitTurn spaces starts that run without asking: restoring ten windows
// of one agent starts them resume.interval apart, not in the same second
// (agents that refresh a rotating token on start log each other out). The
// slot is a lock and a timestamp (package stagger); a start the user
// answered in this window runs at once (the windows another window's `a`
// answered are spaced).
func (e *Env) waitTurn(r resumerecord.Record, asked bool) {
	if asked && !e.byResumeAll || e.Slot == nil {
		return
	}
	at, interval := e.Slot(r.Agent)
	wait := at.Sub(e.clk().Now())
	if wait <= 0 {
		return
	}
	e.say(plain, fmt.Sprintf("kittymux: starting %s in %s (one %s every %s: resume.interval)", r.Agent,
		wait.Round(100*time.Millisecond), r.Agent, interval))
	e.clk().Sleep(wait)
}
