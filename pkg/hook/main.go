package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// LogName is the hook's log in the state directory, and MaxLog its bound:
// past it the oldest half goes.
const (
	LogName = "hook.log"
	MaxLog  = 64 << 10
)

// Main runs `kittymux hook AGENT EVENT` and returns its exit code: always
// 0, whatever happened, because a failing hook would show in (or block) the
// agent. Errors are logged.
func Main(args []string, stdin io.Reader) int {
	p := paths.FromEnv()
	o := Options{Paths: p, Getenv: os.Getenv, Now: time.Now, Ancestors: Ancestors,
		JournalOff: journal.IsOff(p.StateDir, os.Getenv)}
	if len(args) < 2 {
		Log(p, time.Now(), fmt.Sprintf("usage: kittymux hook AGENT EVENT (got %q)", args))
		return 0
	}
	// Extra words (a version the integration wrote) are for the installer.
	res, err := Run(context.Background(), o, args[0], args[1], stdin)
	// An agent run outside kitty has nothing to record: not worth a line.
	if err != nil && !errors.Is(err, ErrNoWindow) {
		Log(p, time.Now(), fmt.Sprintf("%s %s id=%s: %v", res.Agent, res.Event, res.ID, err))
	}
	return 0
}

// Log appends line to the hook log, keeping it under MaxLog. It is written
// only when something failed, so its cost is off the usual path.
func Log(p paths.Paths, now time.Time, line string) {
	path := filepath.Join(p.StateDir, LogName)
	old, _ := os.ReadFile(path)
	if len(old) > MaxLog/2 {
		old = old[len(old)-MaxLog/2:]
		if i := bytes.IndexByte(old, '\n'); i >= 0 {
			old = old[i+1:]
		}
	}
	entry := now.UTC().Format(time.RFC3339) + " " + line + "\n"
	_ = statefile.WriteFile(p.StateDir, path, append(old, entry...))
}
