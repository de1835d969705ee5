package autosave

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/kittymux/kittymux/pkg/config"
	"github.com/kittymux/kittymux/pkg/paths"
)

// Environment variables; each wins over the config file.
const (
	EnvOff          = "KITTYMUX_AUTOSAVE" // "0" turns autosave off
	EnvSettle       = "KITTYMUX_AUTOSAVE_SETTLE"
	EnvAtMostEvery  = "KITTYMUX_AUTOSAVE_AT_MOST_EVERY"
	EnvAtLeastEvery = "KITTYMUX_AUTOSAVE_AT_LEAST_EVERY"
	EnvKeep         = "KITTYMUX_AUTOSAVE_KEEP"
)

// LoadSettings reads the settings: the defaults, then config.json, then
// the environment. A value that does not parse is reported and the one
// before it kept, so a typo never turns autosave off.
func LoadSettings(p paths.Paths, getenv func(string) string) (Settings, error) {
	s := Defaults
	var errs []error
	dur := func(where, v string, dst *time.Duration) {
		if v == "" {
			return
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("%s: %q is not a positive duration", where, v))
			return
		}
		*dst = d
	}
	if a, err := config.ReadAutosave(p); err != nil {
		errs = append(errs, err)
	} else {
		dur(p.Config()+": autosave.settle", a.Settle, &s.Settle)
		dur(p.Config()+": autosave.at_most_every", a.AtMostEvery, &s.AtMostEvery)
		dur(p.Config()+": autosave.at_least_every", a.AtLeastEvery, &s.AtLeastEvery)
		if a.Keep < 0 {
			errs = append(errs, fmt.Errorf("%s: autosave.keep %d is negative", p.Config(), a.Keep))
		} else if a.Keep > 0 {
			s.Keep = a.Keep
		}
	}
	dur(EnvSettle, getenv(EnvSettle), &s.Settle)
	dur(EnvAtMostEvery, getenv(EnvAtMostEvery), &s.AtMostEvery)
	dur(EnvAtLeastEvery, getenv(EnvAtLeastEvery), &s.AtLeastEvery)
	if v := getenv(EnvKeep); v != "" {
		if n, err := strconv.Atoi(v); err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("%s: %q is not a positive number", EnvKeep, v))
		} else {
			s.Keep = n
		}
	}
	return s, errors.Join(errs...)
}

// Off reports why autosave is off, or "" when it is on. The file is looked
// at each time, so touching it stops a running scanner's autosaves.
func Off(p paths.Paths, getenv func(string) string) string {
	if getenv(EnvOff) == "0" {
		return EnvOff + "=0"
	}
	if _, err := os.Lstat(p.AutosaveOff()); err == nil {
		return "the file " + p.AutosaveOff() + " exists"
	}
	return ""
}
