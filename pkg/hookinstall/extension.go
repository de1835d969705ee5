package hookinstall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"

	"github.com/google/renameio/v2"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// Compiled on first use: every kittymux process would compile them at
// init, and only reading an extension file needs them.
var (
	extensionMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^// kittymux integration (\d+):`) })
	extensionExe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^const KITTYMUX = (".*");$`) })
)

// render is the extension template (agents.Hooks.Extension: a file of
// kittymux's own in the agent's plugin or extension directory, which runs
// `kittymux hook AGENT EVENT` itself) for exe.
func render(template []byte, exe string) []byte {
	q, _ := json.Marshal(exe)
	return bytes.Replace(template, []byte(`"__KITTYMUX__"`), q, 1)
}

// parse reads a file kittymux wrote: its version and the kittymux it runs.
func parseExtension(data []byte) (ok bool, version int, exe string) {
	m := extensionMark().FindSubmatch(data)
	if m == nil {
		return false, 0, ""
	}
	version, _ = strconv.Atoi(string(m[1]))
	if e := extensionExe().FindSubmatch(data); e != nil {
		_ = json.Unmarshal(e[1], &exe)
	}
	return true, version, exe
}

func readExtension(path string) ([]byte, error) {
	data, err := userfile.Read(path, maxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

func (a Agent) extensionStatus(env Env) Status {
	st := Status{Agent: a.Name, File: a.Settings(env.Getenv, env.Home), State: Missing, Current: Version, Note: a.Note}
	data, err := readExtension(st.File)
	if err != nil {
		st.Why = err.Error()
		return st
	}
	if data == nil {
		return st
	}
	ok, v, exe := parseExtension(data)
	if !ok {
		st.Why = st.File + " is not kittymux's: kittymux leaves it alone"
		return st
	}
	st.State, st.Version = Installed, v
	switch {
	case v < Version:
		st.State, st.Why = Outdated, fmt.Sprintf("the extension is version %d", v)
	case env.Exe != "" && exe != env.Exe:
		st.State, st.Why = Outdated, fmt.Sprintf("the extension runs %s, not this kittymux (%s)", exe, env.Exe)
	case !bytes.Equal(data, render(a.Extension, exe)):
		st.State, st.Why = Outdated, "the extension differs from this kittymux's"
	}
	return st
}

func (a Agent) installExtension(env Env) (Change, error) {
	path := a.Settings(env.Getenv, env.Home)
	ch := Change{File: path}
	target, err := userfile.WriteTarget(path)
	if err != nil {
		return ch, err
	}
	old, err := readExtension(target)
	if err != nil {
		return ch, err
	}
	if ok, _, _ := parseExtension(old); old != nil && !ok {
		return ch, fmt.Errorf("%s is not kittymux's: move it away to install kittymux's extension there", path)
	}
	data := render(a.Extension, env.Exe)
	if bytes.Equal(old, data) {
		return ch, nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return ch, fmt.Errorf("create %s: %w", filepath.Dir(target), err)
	}
	if err := renameio.WriteFile(target, data, 0o644); err != nil {
		return ch, fmt.Errorf("write %s: %w", path, err)
	}
	ch.Changed = true
	return ch, nil
}

func (a Agent) uninstallExtension(env Env) (Change, error) {
	path := a.Settings(env.Getenv, env.Home)
	ch := Change{File: path}
	old, err := readExtension(path)
	if err != nil || old == nil {
		return ch, err
	}
	if ok, _, _ := parseExtension(old); !ok {
		return ch, nil
	}
	if err := os.Remove(path); err != nil {
		return ch, fmt.Errorf("remove %s: %w", path, err)
	}
	ch.Changed = true
	return ch, nil
}
