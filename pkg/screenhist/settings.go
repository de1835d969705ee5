package screenhist

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kittymux/kittymux/pkg/config"
	"github.com/kittymux/kittymux/pkg/paths"
)

// Env turns screen history on ("1") or off ("0"); it wins over config.json.
const Env = "KITTYMUX_SCREEN_HISTORY"

// ConfigKey is the config.json key that turns it on: "screen_history": true.
const ConfigKey = "screen_history"

// Setting is whether screen history is on, what said so, and how much
// it keeps.
type Setting struct {
	On  bool
	Why string // "KITTYMUX_SCREEN_HISTORY=1", "config.json", "the default"
	Bounds
}

// Bounds are how much is kept: the last Lines lines and at most
// WindowBytes bytes of a window, SaveBytes bytes of all windows of a save.
type Bounds struct {
	Lines       int `json:"lines"`
	WindowBytes int `json:"window_bytes"`
	SaveBytes   int `json:"save_bytes"`
}

// DefaultBounds: 2,000 lines and 256 KiB a window, 8 MiB a save.
var DefaultBounds = Bounds{Lines: 2000, WindowBytes: 256 << 10, SaveBytes: 8 << 20}

// boundKeys are the config.json keys of the bounds, beside ConfigKey: the
// unit each counts in and the largest value taken.
var boundKeys = []struct {
	key       string
	unit, top int
	field     func(*Bounds) *int
}{
	{"screen_history_lines", 1, 100_000, func(b *Bounds) *int { return &b.Lines }},
	{"screen_history_window_kb", 1 << 10, 16 << 10, func(b *Bounds) *int { return &b.WindowBytes }},
	{"screen_history_save_mb", 1 << 20, 256, func(b *Bounds) *int { return &b.SaveBytes }},
}

// maxWindowBytes is the most a window can keep, whatever the settings.
const maxWindowBytes = 16 << 20

// String is how doctor and setup say the bounds.
func (b Bounds) String() string {
	return fmt.Sprintf("the last %d lines and at most %d KiB a window, %d MiB a save", b.Lines, b.WindowBytes>>10, b.SaveBytes>>20)
}

// Load reads the setting: off, then config.json, then the environment. A
// value that does not parse is reported and leaves it off: what a window
// showed is kept only when the user clearly asked. A bound that is not a
// whole number from 1 to its largest is reported and keeps its default.
func Load(p paths.Paths, getenv func(string) string) (Setting, error) {
	s := Setting{Why: "off by default", Bounds: DefaultBounds}
	var errs []error
	if c, err := config.ReadKeys(p); err != nil {
		errs = append(errs, err)
	} else {
		if raw, ok := c[ConfigKey]; ok {
			var on bool
			if err := json.Unmarshal(raw, &on); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s is not true or false", p.Config(), ConfigKey))
			} else {
				s.On, s.Why = on, p.Config()+" "+ConfigKey+": "+fmt.Sprint(on)
			}
		}
		for _, k := range boundKeys {
			raw, ok := c[k.key]
			if !ok {
				continue
			}
			var n int
			if err := json.Unmarshal(raw, &n); err != nil || n < 1 || n > k.top {
				errs = append(errs, fmt.Errorf("%s: %s %.40s is not a whole number from 1 to %d; %d kept", p.Config(), k.key, raw, k.top, *k.field(&s.Bounds)/k.unit))
				continue
			}
			*k.field(&s.Bounds) = n * k.unit
		}
	}
	switch v := getenv(Env); v {
	case "":
	case "1", "true":
		s.On, s.Why = true, Env+"="+v
	case "0", "false":
		s.On, s.Why = false, Env+"="+v
	default:
		errs = append(errs, fmt.Errorf("%s: %q is not 1 or 0", Env, v))
		s.On, s.Why = false, Env+" is not 1 or 0"
	}
	return s, errors.Join(errs...)
}

// TurnOn writes "screen_history": true into config.json, keeping its other
// settings (config.Set).
func TurnOn(p paths.Paths) error {
	return config.Set(p, ConfigKey, json.RawMessage("true"))
}
