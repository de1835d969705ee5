package hookinstall

import (
	"fmt"
	"os"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
)

// Check adds to st what says the hooks do not run although installed,
// beyond the agent's own trust (Status says that): the journal's sessions
// of the agent that finished a turn since the hooks file last changed
// without any hook report (a run with --settings or a scrubbed
// environment, a changed hooks.json not trusted again). jf nil: the
// journal is not read.
func Check(st *Status, a Agent, env Env, jf *journal.File, now time.Time) {
	if st.State == Missing || st.Trust == Untrusted {
		return
	}
	fi, err := os.Stat(st.File)
	if err != nil || jf == nil {
		return
	}
	st.Warning = notRun(a.Name, jf, fi.ModTime())
}

// notRun says the agent's hooks have not run since they were installed or
// changed (since): sessions of it seen after that which finished a run (so
// every hook would have fired) carry no hook report.
func notRun(agent string, jf *journal.File, since time.Time) string {
	var lastHook time.Time
	missed := 0
	for _, r := range jf.Records {
		if r.Agent != agent || r.Nested {
			continue
		}
		if r.HookAt != nil {
			if r.HookAt.After(lastHook) {
				lastHook = *r.HookAt
			}
			continue
		}
		if r.FirstSeen.After(since) && r.RunsFinished > 0 {
			missed++
		}
	}
	switch {
	case missed == 0:
		return ""
	case lastHook.IsZero():
		return fmt.Sprintf("installed but has not run: %d %s session(s) since %s finished a turn without it", missed, agent,
			since.Local().Format("2006-01-02 15:04"))
	}
	return fmt.Sprintf("installed but not run since %s: %d %s session(s) since finished a turn without it", lastHook.Local().Format("2006-01-02 15:04"),
		missed, agent)
}
