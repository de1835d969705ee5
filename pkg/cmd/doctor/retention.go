package doctor

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/probe"
)

// RetentionReport is how long an agent keeps its conversations against
// how long the journal remembers them: a conversation the journal still
// lists after the agent deleted it can no longer be resumed.
type RetentionReport struct {
	Agent   string `json:"agent"`
	Days    int    `json:"days"`
	Setting string `json:"setting"`
	File    string `json:"file"`
	Default bool   `json:"default"`
	OK      bool   `json:"ok"`
	Note    string `json:"note"`
}

// journalDays is how long the journal keeps a session.
var journalDays = int(journal.MaxAge / (24 * time.Hour))

// checkRetention looks at each installed agent that deletes old
// conversations on its own.
func checkRetention(o *Options, installed []probe.AgentCheck) []RetentionReport {
	out := []RetentionReport{}
	set, _ := agents.Load(o.Paths.UserAgents())
	if set == nil {
		return out
	}
	for _, a := range installed {
		k, ok := conversations.Retention(set, a.Agent, o.Getenv)
		if !ok {
			continue
		}
		out = append(out, retentionReport(k))
	}
	return out
}

func retentionReport(k conversations.Kept) RetentionReport {
	r := RetentionReport{Agent: k.Agent, Days: k.Days, Setting: k.Setting, File: k.File, Default: k.Default}
	from := fmt.Sprintf("%s in %s", k.Setting, k.File)
	if k.Default {
		from = fmt.Sprintf("its default; %s in %s is not set", k.Setting, k.File)
	}
	keep := fmt.Sprintf("set %s to %d in %s", k.Setting, journalDays, k.File)
	if k.Duration {
		keep = fmt.Sprintf("set %s to \"%dd\" in %s", k.Setting, journalDays, k.File)
	} else if !strings.Contains(k.Setting, ".") {
		keep = fmt.Sprintf("set \"%s\": %d in %s", k.Setting, journalDays, k.File)
	}
	switch {
	case k.Err != nil:
		r.Note = fmt.Sprintf("cannot read how long it keeps conversations: %v", k.Err)
	case k.Off:
		r.OK = true
		r.Note = fmt.Sprintf("deletes no conversations (%s is false in %s): ok", k.OffSetting, k.File)
	case k.Count > 0:
		r.Note = fmt.Sprintf("keeps only its %d most recent conversations (%s in %s): older ones cannot be resumed; "+
			"remove %s to keep them", k.Count, k.CountSetting, k.File, k.CountSetting)
	case k.Days >= journalDays:
		r.OK = true
		r.Note = fmt.Sprintf("keeps conversations %d days (%s), the journal %d: ok", k.Days, from, journalDays)
	default:
		r.Note = fmt.Sprintf("deletes conversations after %d days (%s), the journal keeps them %d: older ones cannot be resumed; "+
			"%s to keep them", k.Days, from, journalDays, keep)
	}
	return r
}

func printRetention(w io.Writer, rs []RetentionReport) {
	for _, r := range rs {
		fmt.Fprintf(w, "retention  %-12s %s\n", r.Agent, r.Note)
	}
}
