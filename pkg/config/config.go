// Package config reads and writes config.json, the user's settings file
// (paths.Config): one bounded read that never blocks, and the section each
// part of kittymux takes from it. Each part decodes only its own section,
// as it always did, so a mistake in one section never stops another being
// read; the defaults, the checks of each value and the environment
// variables that win over the file stay with the part that uses them.
package config

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

// MaxSize is the most of config.json read; a larger file is an error.
const MaxSize = 1 << 20

// Autosave is config.json's "autosave". Durations are Go durations ("20s",
// "1m"); "" and 0 leave the default.
type Autosave struct {
	Settle       string `json:"settle"`
	AtMostEvery  string `json:"at_most_every"`
	AtLeastEvery string `json:"at_least_every"`
	Keep         int    `json:"keep"`
}

// Resume is config.json's "resume": Interval, a Go duration, spaces the
// agents started without asking.
type Resume struct {
	Interval string `json:"interval"`
}

// Offer is config.json's "offer": OnStart false turns the offer of an
// ended session off.
type Offer struct {
	OnStart *bool `json:"on_start"`
}

// ReadAutosave reads config.json's "autosave"; a file that is not there is
// the zero section and no error.
func ReadAutosave(p paths.Paths) (Autosave, error) {
	var c struct {
		Autosave Autosave `json:"autosave"`
	}
	err := read(p, &c)
	return c.Autosave, err
}

// ReadResume reads config.json's "resume", as ReadAutosave does.
func ReadResume(p paths.Paths) (Resume, error) {
	var c struct {
		Resume Resume `json:"resume"`
	}
	err := read(p, &c)
	return c.Resume, err
}

// ReadOffer reads config.json's "offer", as ReadAutosave does.
func ReadOffer(p paths.Paths) (Offer, error) {
	var c struct {
		Offer Offer `json:"offer"`
	}
	err := read(p, &c)
	return c.Offer, err
}

// ReadKeys reads config.json's keys, each value as written, for settings
// kept at its top level (screen history's); a file that is not there is
// nil and no error.
func ReadKeys(p paths.Paths) (map[string]json.RawMessage, error) {
	var c map[string]json.RawMessage
	err := read(p, &c)
	return c, err
}

// read decodes config.json into v, leaving v as it is when there is no
// file.
func read(p paths.Paths, v any) error {
	data, err := userfile.Read(p.Config(), MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", p.Config(), err)
	}
	return nil
}

// Set writes key: value into config.json, keeping its other settings (in
// the file it links to, if it is a link; written atomically, 0600). A
// config.json that is not a JSON object is left alone.
func Set(p paths.Paths, key string, value json.RawMessage) error {
	c := map[string]json.RawMessage{}
	data, err := userfile.Read(p.Config(), MaxSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read %s: %w", p.Config(), err)
	default:
		if err := json.Unmarshal(data, &c); err != nil || c == nil {
			return fmt.Errorf("%s is not a JSON object, so it is left as it is: add \"%s\": %s yourself", p.Config(), key, value)
		}
	}
	c[key] = value
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
