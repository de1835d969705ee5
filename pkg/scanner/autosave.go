package scanner

import (
	"context"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/remote"
)

// Autosave is told what each poll saw of each kitty, and saves it when it
// sees fit (package autosave: the scanner does not import the save path).
type Autosave interface {
	// Polled: a poll of in started at now saw a layout (key) of windows
	// windows. It returns the line status shows for autosave of that kitty.
	Polled(ctx context.Context, in kitty.Instance, key string, windows int, now time.Time) string
	// Gone: the kitty went away.
	Gone(in kitty.Instance)
}

// layout is what a save of one kitty would hold, as a key that changes
// when it does: every window with its OS window, tab and directory, and
// each agent session with its agent, id, directory and command. Titles and agent
// states are left out: they change all the time and a save would not
// differ by them.
func (s *Scanner) layout(id string, ls []kitty.OSWindow) (string, int) {
	var parts []string
	for _, o := range ls {
		for _, t := range o.Tabs {
			for _, w := range t.Windows {
				// A host's hint (an agent over ssh) changes what the save holds.
				parts = append(parts, "w\x00"+strconv.Itoa(o.ID)+"\x00"+strconv.Itoa(t.ID)+"\x00"+strconv.Itoa(w.ID)+"\x00"+w.Cwd+
					"\x00"+w.UserVars[remote.Var])
			}
		}
	}
	n := len(parts)
	for _, se := range s.sessions {
		if se.kitty == id {
			r := se.rec
			// Its command too: a process read anew (pi's argv reported
			// after a save) changes what the save holds.
			parts = append(parts, "a\x00"+strconv.Itoa(r.WindowID)+"\x00"+r.Agent+"\x00"+r.ID+"\x00"+r.Dir+"\x00"+strings.Join(r.Argv, "\x00"))
		}
	}
	sort.Strings(parts)
	h := fnv.New64a()
	h.Write([]byte(strings.Join(parts, "\x01")))
	return strconv.FormatUint(h.Sum64(), 16), n
}
