// Package stagger spaces agents that start without asking: restoring ten
// windows of one agent starts them one after another, resume.interval
// apart, rather than in the same second (agents that refresh a rotating
// OAuth token on start log each other out; all of them compete for the
// disk, the network and the model's rate limit).
//
// It is read by the restore prompt before it execs the agent, so a slot
// costs a lock and a few bytes in one file: no rename, no sync.
package stagger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/config"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// EnvInterval sets the time between two agents started without asking; it
// wins over config.json.
const EnvInterval = "KITTYMUX_RESUME_INTERVAL"

// DefaultInterval is that time when nothing sets it.
const DefaultInterval = time.Second

// lockWait bounds the wait for another prompt's slot: each holds the
// lock for one small read and write.
const lockWait = time.Second

// Interval reads the time between agents started without asking:
// config.json's resume.interval, then $KITTYMUX_RESUME_INTERVAL. A value
// that does not parse is reported and the one before it kept.
func Interval(p paths.Paths, getenv func(string) string) (time.Duration, error) {
	d := DefaultInterval
	var errs []error
	set := func(where, v string) {
		if v == "" {
			return
		}
		x, err := time.ParseDuration(v)
		if err != nil || x < 0 {
			errs = append(errs, fmt.Errorf("%s: %q is not a duration", where, v))
			return
		}
		d = x
	}
	if c, err := config.ReadResume(p); err != nil {
		errs = append(errs, err)
	} else {
		set(p.Config()+": resume.interval", c.Interval)
	}
	set(EnvInterval, getenv(EnvInterval))
	return d, errors.Join(errs...)
}

// Span is how long after the first of starts (the agent of each window
// that starts without asking, all at once) the last one starts: one
// agent's starts are interval apart, so the last of its n starts comes
// (n-1)×interval after the first.
func Span(starts []string, interval time.Duration) time.Duration {
	n := map[string]int{}
	most := 0
	for _, agent := range starts {
		n[agent]++
		most = max(most, n[agent])
	}
	if most <= 1 {
		return 0
	}
	return time.Duration(most-1) * interval
}

// isName: ^[a-z][a-z0-9._-]{0,31}$, an agent's name as a slot file's
// name, checked byte by byte: the prompt checks it in every restored window,
// and a regular expression compiled for it cost more than the slot.
func isName(s string) bool {
	if s == "" || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Slot takes the next start of agent: now, or interval after the start
// the one before took, whichever is later; the caller waits until then.
// The slot is kept in stagger-AGENT in the state directory (its own
// lock), so prompts of one agent starting at once get now, now+interval,
// now+2×interval, ... A slot that cannot be had says so, and is now.
func Slot(stateDir, agent string, interval time.Duration, now time.Time) (time.Time, error) {
	if interval <= 0 || !isName(agent) {
		return now, nil
	}
	d, err := statefile.Make(stateDir)
	if err != nil {
		return now, err
	}
	defer d.Close()
	f, err := d.OpenLock(paths.StaggerPrefix + agent)
	if err != nil {
		return now, err
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	if err := statefile.Flock(ctx, f, syscall.LOCK_EX); err != nil {
		return now, fmt.Errorf("stagger %s: %w", agent, err)
	}
	b, _ := io.ReadAll(io.LimitReader(f, 64))
	slot := now
	if last, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
		// A slot far in the future is a clock that went back: not waited for.
		if next := time.Unix(0, last).Add(interval); next.After(slot) && next.Sub(now) <= 64*interval {
			slot = next
		}
	}
	// Written over the slot before, the same length but for a clock far
	// off: cut only when it was longer. Truncating first made the file
	// system free its block and take one again, in every restored window.
	out := []byte(strconv.FormatInt(slot.UnixNano(), 10) + "\n")
	if _, err := f.WriteAt(out, 0); err != nil {
		return slot, err
	}
	if len(b) > len(out) {
		if err := f.Truncate(int64(len(out))); err != nil {
			return slot, err
		}
	}
	return slot, nil
}
