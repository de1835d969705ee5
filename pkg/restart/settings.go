package restart

import (
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/stagger"
)

// EnvInterval sets the time between two agents started without asking; it
// wins over config.json.
const EnvInterval = stagger.EnvInterval

// DefaultInterval is that time when nothing sets it: agents that start at
// the same moment compete for the disk, the network and the model's rate
// limit.
const DefaultInterval = stagger.DefaultInterval

// Interval reads the time between agents started without asking:
// config.json's resume.interval, then $KITTYMUX_RESUME_INTERVAL (the
// restore prompt spaces its resumes by the same setting, package stagger).
func Interval(p paths.Paths, getenv func(string) string) (time.Duration, error) {
	return stagger.Interval(p, getenv)
}
