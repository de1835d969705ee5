package restart

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// EnvInterval sets the time between two agents started without asking; it
// wins over config.json.
const EnvInterval = "KITTYMUX_RESUME_INTERVAL"

// DefaultInterval is that time when nothing sets it: agents that start at
// the same moment compete for the disk, the network and the model's rate
// limit.
const DefaultInterval = time.Second

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
	name := autosave.ConfigPath(p)
	// Bounded and never blocking, as every reader of the user's files.
	data, err := userfile.Read(name, 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		errs = append(errs, fmt.Errorf("read %s: %w", name, err))
	default:
		var c struct {
			Resume struct {
				Interval string `json:"interval"`
			} `json:"resume"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", name, err))
			break
		}
		set(name+": resume.interval", c.Resume.Interval)
	}
	set(EnvInterval, getenv(EnvInterval))
	return d, errors.Join(errs...)
}
