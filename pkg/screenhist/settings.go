package screenhist

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Env turns screen history on ("1") or off ("0"); it wins over config.json.
const Env = "KITTYMUX_SCREEN_HISTORY"

// ConfigKey is the config.json key that turns it on: "screen_history": true.
const ConfigKey = "screen_history"

// Setting is whether screen history is on, and what said so.
type Setting struct {
	On  bool
	Why string // "KITTYMUX_SCREEN_HISTORY=1", "config.json", "the default"
}

// Load reads the setting: off, then config.json, then the environment. A
// value that does not parse is reported and leaves it off: what a window
// showed is kept only when the user clearly asked.
func Load(p paths.Paths, getenv func(string) string) (Setting, error) {
	s := Setting{Why: "off by default"}
	var errs []error
	data, err := userfile.Read(p.Config(), 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		errs = append(errs, err)
	default:
		var c map[string]json.RawMessage
		if err := json.Unmarshal(data, &c); err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", p.Config(), err))
			break
		}
		if raw, ok := c[ConfigKey]; ok {
			var on bool
			if err := json.Unmarshal(raw, &on); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s is not true or false", p.Config(), ConfigKey))
			} else {
				s = Setting{On: on, Why: p.Config() + " " + ConfigKey + ": " + fmt.Sprint(on)}
			}
		}
	}
	switch v := getenv(Env); v {
	case "":
	case "1", "true":
		s = Setting{On: true, Why: Env + "=" + v}
	case "0", "false":
		s = Setting{Why: Env + "=" + v}
	default:
		errs = append(errs, fmt.Errorf("%s: %q is not 1 or 0", Env, v))
		s = Setting{Why: Env + " is not 1 or 0"}
	}
	return s, errors.Join(errs...)
}

// TurnOn writes "screen_history": true into config.json, keeping its other
// settings (the file it links to, if it is a link; written atomically,
// 0600). A config.json that does not parse is left alone.
func TurnOn(p paths.Paths) error {
	c := map[string]json.RawMessage{}
	data, err := userfile.Read(p.Config(), 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read %s: %w", p.Config(), err)
	default:
		if err := json.Unmarshal(data, &c); err != nil || c == nil {
			return fmt.Errorf("%s is not a JSON object, so it is left as it is: add \"%s\": true yourself", p.Config(), ConfigKey)
		}
	}
	c[ConfigKey] = json.RawMessage("true")
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	target, err := userfile.WriteTarget(p.Config())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return err
	}
	return renameio.WriteFile(target, append(out, '\n'), 0o600)
}
