// Package hookinstall installs kittymux's hooks into agents' own settings:
// on session start, prompt submitted and turn finished each agent runs
// `kittymux hook AGENT EVENT`, which records the exact conversation id and
// the true working state.
//
// Every agent here keeps its hooks in a JSON file of the same shape
// (claude's): {"hooks": {"Event": [{"matcher": "...", "hooks": [{"type":
// "command", "command": "...", "timeout": N}]}]}}. kittymux adds one group
// per event holding only its own command, and recognises its groups by that
// command, so the user's hooks and other settings are never touched, and
// uninstall removes exactly the groups install added.
package hookinstall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/google/renameio/v2"
	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Version of the hooks kittymux installs: raised when their command or
// events change, so status names an older install as outdated.
const Version = 1

// States of an agent's integration.
const (
	Installed = "installed"
	Outdated  = "outdated"
	Missing   = "missing"
)

// BackupSuffix names the copy of a settings file as the user had it,
// before kittymux's hooks were added: FILE.kittymux-backup, beside the name
// the agent reads. One there already is never replaced: a later install
// into a file the user changed since keeps its copy as
// FILE.kittymux-backup.2, and so on.
const BackupSuffix = ".kittymux-backup"

// maxSettings caps a settings file read.
const maxSettings = 4 << 20

// Agent is one agent whose hooks kittymux can install: its Hooks, where
// its settings are and which events it sends, are the agent's own (its
// file in pkg/agents).
type Agent struct {
	Name string
	// Binaries are its CLI's names on PATH.
	Binaries []string
	*agents.Hooks
}

// Agents are the agents whose installed CLI documents hooks, checked
// against the CLI (event names and settings keys read in its bundle) and
// its docs: every agent whose Code has Hooks, by name.
func Agents() []Agent {
	var out []Agent
	for _, c := range agents.Codes() {
		if c.Hooks != nil {
			out = append(out, Agent{Name: c.Name, Binaries: c.Binaries, Hooks: c.Hooks})
		}
	}
	return out
}

// Find returns the agent called name.
func Find(name string) (Agent, bool) {
	if c := agents.CodeOf(name); c != nil && c.Hooks != nil {
		return Agent{Name: c.Name, Binaries: c.Binaries, Hooks: c.Hooks}, true
	}
	return Agent{}, false
}

// Names lists the agents.
func Names() []string {
	var out []string
	for _, a := range Agents() {
		out = append(out, a.Name)
	}
	return out
}

// Env is where the settings live and which kittymux the hooks run.
type Env struct {
	Getenv func(string) string
	Home   string
	// Exe is the kittymux binary the hooks call (absolute: hooks do not
	// always get the user's PATH).
	Exe string
}

// Status is an agent's integration as its settings file has it. Field
// names are stable (doctor --json, integration status --json).
type Status struct {
	Agent string `json:"agent"`
	File  string `json:"file"`
	State string `json:"state"`
	// Version is the oldest version of kittymux's hooks found, 0 if none.
	Version int `json:"version"`
	// Current is the version this kittymux installs.
	Current int `json:"current"`
	// Why says what makes it outdated, or why it could not be read.
	Why  string `json:"why,omitempty"`
	Note string `json:"note,omitempty"`
	// Trust is, for an agent that runs a new hook only once the user
	// trusts it (codex), whether it trusts kittymux's: Trusted or
	// Untrusted, with TrustHow saying what to do; "" for the others.
	Trust    string `json:"trust,omitempty"`
	TrustHow string `json:"trust_how,omitempty"`
	// Warning says the hooks, though installed, have not run since a
	// time, as the journal shows (Check).
	Warning string `json:"warning,omitempty"`
}

// Command is the hook command for agent's event.
func Command(exe, agent, event string) string {
	q, err := syntax.Quote(exe, syntax.LangPOSIX)
	if err != nil {
		q = strconv.Quote(exe)
	}
	return fmt.Sprintf("%s hook %s %s --integration=%d", q, agent, event, Version)
}

// ours parses a hook command: whether kittymux wrote it for agent, and
// with which version and binary.
func ours(command, agent string) (ok bool, version int, exe, event string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return false, 0, "", ""
	}
	call, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) > 0 {
		return false, 0, "", ""
	}
	var words []string
	for _, w := range call.Args {
		s := w.Lit()
		if s == "" && len(w.Parts) == 1 {
			if sq, isSq := w.Parts[0].(*syntax.SglQuoted); isSq {
				s = sq.Value
			}
		}
		if s == "" {
			return false, 0, "", ""
		}
		words = append(words, s)
	}
	if len(words) < 4 || filepath.Base(words[0]) != "kittymux" || words[1] != "hook" || words[2] != agent {
		return false, 0, "", ""
	}
	for _, w := range words[4:] {
		if v, found := strings.CutPrefix(w, "--integration="); found {
			version, _ = strconv.Atoi(v)
		}
	}
	return true, version, words[0], words[3]
}

// group is one matcher group of an event, as far as kittymux reads it.
type group struct {
	Hooks []struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	} `json:"hooks"`
}

// oursGroup: a group holding kittymux's hook for agent and nothing else.
func oursGroup(raw json.RawMessage, agent string) (ok bool, version int, exe, event string) {
	var g group
	if json.Unmarshal(raw, &g) != nil || len(g.Hooks) != 1 || g.Hooks[0].Type != "command" {
		return false, 0, "", ""
	}
	return ours(g.Hooks[0].Command, agent)
}

func (a Agent) newGroup(exe, event string) json.RawMessage {
	timeout := 5
	if a.TimeoutMS {
		timeout = 5000
	}
	g := map[string]any{"hooks": []map[string]any{{"type": "command", "command": Command(exe, a.Name, event), "timeout": timeout}}}
	b, _ := json.Marshal(g)
	return b
}

// read returns the settings file's top-level object; a missing file is an
// empty one. A FIFO or device there is refused, never waited on.
func read(path string) (object, []byte, fs.FileMode, error) {
	f, err := userfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, 0, nil
	}
	if err != nil {
		return nil, nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	mode := fs.FileMode(0o600)
	if fi, err := f.Stat(); err == nil {
		mode = fi.Mode().Perm()
	}
	data, err := userfile.ReadOpen(f, maxSettings)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, data, mode, nil
	}
	o, err := parseObject(data)
	if err != nil {
		return nil, data, mode, fmt.Errorf("%s is not plain JSON (%v): kittymux edits only what it can read back exactly; add its hooks by hand", path, err)
	}
	return o, data, mode, nil
}

// StatusOf reads agent a's integration.
func StatusOf(a Agent, env Env) Status {
	if a.Extension != nil {
		return a.extensionStatus(env)
	}
	st := Status{Agent: a.Name, File: a.Settings(env.Getenv, env.Home), State: Missing, Current: Version, Note: a.Note}
	top, _, _, err := read(st.File)
	if err != nil {
		st.Why = err.Error()
		return st
	}
	hooks, err := top.object("hooks")
	if err != nil {
		st.Why = err.Error()
		return st
	}
	found := map[string]bool{}
	var whys []string
	var ourGroups []agents.HookGroup
	for _, m := range hooks {
		groups, _ := array(m.Val)
		for i, g := range groups {
			ok, v, exe, event := oursGroup(g, a.Name)
			if !ok {
				continue
			}
			found[m.Key] = true
			ourGroups = append(ourGroups, agents.HookGroup{Event: m.Key, Index: i})
			if st.Version == 0 || v < st.Version {
				st.Version = v
			}
			if v < Version {
				whys = append(whys, fmt.Sprintf("%s hook is version %d", m.Key, v))
			}
			if env.Exe != "" && exe != env.Exe {
				whys = append(whys, fmt.Sprintf("%s hook runs %s, not this kittymux (%s)", m.Key, exe, env.Exe))
			}
			if !slices.Contains(a.Events(), event) || event != m.Key {
				whys = append(whys, fmt.Sprintf("%s hook reports %s", m.Key, event))
			}
		}
	}
	if len(found) == 0 {
		return st
	}
	for _, e := range a.Events() {
		if !found[e] {
			whys = append(whys, "no "+e+" hook")
		}
	}
	st.State = Installed
	if a.Trust != nil {
		st.Trust = Untrusted
		if trusted, how := a.Trust(st.File, ourGroups); trusted {
			st.Trust = Trusted
		} else {
			st.TrustHow = how
		}
	}
	if len(whys) > 0 {
		slices.Sort(whys)
		st.State, st.Why = Outdated, strings.Join(slices.Compact(whys), "; ")
	}
	return st
}

// Change is what Install or Uninstall did to a settings file.
type Change struct {
	File    string `json:"file"`
	Changed bool   `json:"changed"`
	// Backup is the copy of the file as it was, when it was changed.
	Backup string `json:"backup,omitempty"`
}

// Install adds kittymux's hooks to agent a's settings, replacing any older
// ones of kittymux's. Running it again changes nothing.
func Install(a Agent, env Env) (Change, error) {
	if !filepath.IsAbs(env.Exe) {
		return Change{}, fmt.Errorf("install %s hooks: kittymux's path %q is not absolute", a.Name, env.Exe)
	}
	if a.Extension != nil {
		return a.installExtension(env)
	}
	return edit(a, env, func(hooks object) (object, error) {
		// An event whose groups were all kittymux's keeps its place: the
		// new group goes where the old one was, so a second install
		// writes the same file (FuzzInstallUninstall).
		hooks, emptied := strip(hooks, a.Name)
		for _, e := range a.Events() {
			groups, err := array(hooks.get(e))
			if err != nil {
				return nil, fmt.Errorf("hooks.%s: %w", e, err)
			}
			hooks = hooks.set(e, marshalArray(append(groups, a.newGroup(env.Exe, e))))
		}
		for _, e := range emptied {
			if !slices.Contains(a.Events(), e) {
				hooks = hooks.del(e) // an event this kittymux no longer hooks
			}
		}
		return hooks, nil
	})
}

// Uninstall removes kittymux's hooks, whatever their version, and nothing
// else: an event left with no group is removed, and "hooks" when it is
// left empty.
func Uninstall(a Agent, env Env) (Change, error) {
	if a.Extension != nil {
		return a.uninstallExtension(env)
	}
	return edit(a, env, func(hooks object) (object, error) { return without(hooks, a.Name), nil })
}

// without drops kittymux's groups for agent from every event, and the
// events that leaves empty.
func without(hooks object, agent string) object {
	out, emptied := strip(hooks, agent)
	for _, k := range emptied {
		out = out.del(k)
	}
	return out
}

// strip drops kittymux's groups for agent from every event; an event left
// with no group keeps its place, empty, and is named in emptied.
func strip(hooks object, agent string) (out object, emptied []string) {
	for _, m := range hooks {
		groups, err := array(m.Val)
		if err != nil {
			out = append(out, m)
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(groups), func(g json.RawMessage) bool {
			ok, _, _, _ := oursGroup(g, agent)
			return ok
		})
		switch {
		case len(kept) == len(groups):
			out = append(out, m)
		case len(kept) > 0:
			out = append(out, member{m.Key, marshalArray(kept)})
		default:
			out = append(out, member{m.Key, marshalArray(nil)})
			emptied = append(emptied, m.Key)
		}
	}
	return out, emptied
}

// edit changes the settings file through fn. A settings file that is a
// link (a dotfiles repository) stays one: the file it leads to is written.
// The user's own bytes, as they were before kittymux's hooks went in, are
// kept in a backup; a change that gives back exactly what a backup holds
// (uninstall after install) writes the backup's bytes.
func edit(a Agent, env Env, fn func(object) (object, error)) (Change, error) {
	path := a.Settings(env.Getenv, env.Home)
	ch := Change{File: path}
	target, err := userfile.WriteTarget(path)
	if err != nil {
		return ch, err
	}
	top, old, mode, err := read(target)
	if err != nil {
		return ch, err
	}
	hooks, err := top.object("hooks")
	if err != nil {
		return ch, fmt.Errorf("%s: %w", path, err)
	}
	hadOurs := hasOurs(hooks, a.Name)
	// An empty "hooks" the user wrote stays; one kittymux emptied goes.
	keepEmpty := top.has("hooks") && len(hooks) == 0
	hooks, err = fn(hooks)
	if err != nil {
		return ch, fmt.Errorf("%s: %w", path, err)
	}
	if len(hooks) > 0 || keepEmpty {
		top = top.set("hooks", hooks.marshal())
	} else {
		top = top.del("hooks")
	}
	data, err := top.format()
	if err != nil {
		return ch, err
	}
	if old != nil && same(old, data) {
		return ch, nil
	}
	if old == nil && len(top) == 0 {
		return ch, nil
	}
	if b := backupOf(path, data); b != nil {
		data = b
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return ch, fmt.Errorf("create %s: %w", filepath.Dir(target), err)
	}
	switch {
	case old == nil:
		mode = 0o600
	case !hadOurs:
		// The user's own file: kept, unless a backup holds it already.
		backup, made, err := userfile.PickBackup(path+BackupSuffix, old, maxSettings)
		if err != nil {
			return ch, fmt.Errorf("back up %s: %w", path, err)
		}
		if made {
			if err := userfile.WriteNew(backup, old, 0o600); err != nil {
				return ch, fmt.Errorf("back up %s: %w", path, err)
			}
		}
		ch.Backup = backup
	}
	if err := renameio.WriteFile(target, data, mode, renameio.WithStaticPermissions(mode)); err != nil {
		return ch, fmt.Errorf("write %s: %w", path, err)
	}
	ch.Changed = true
	return ch, nil
}

// hasOurs reports a hook group of kittymux's for agent among hooks.
func hasOurs(hooks object, agent string) bool {
	for _, m := range hooks {
		groups, _ := array(m.Val)
		for _, g := range groups {
			if ok, _, _, _ := oursGroup(g, agent); ok {
				return true
			}
		}
	}
	return false
}

// backupOf returns the bytes of the backup of path that says what data
// says, or nil.
func backupOf(path string, data []byte) []byte {
	for _, b := range userfile.Backups(path + BackupSuffix) {
		have, err := userfile.Read(b, maxSettings)
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(b); lerr != nil {
				return nil
			}
			continue
		}
		if err == nil && same(have, data) {
			return have
		}
	}
	return nil
}

// same: the file already says data (whatever its whitespace).
func same(old, data []byte) bool {
	var a, b bytes.Buffer
	return json.Compact(&a, old) == nil && json.Compact(&b, data) == nil && bytes.Equal(a.Bytes(), b.Bytes())
}

func array(raw json.RawMessage) ([]json.RawMessage, error) {
	if raw == nil {
		return nil, nil
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errors.New("is not an array")
	}
	return out, nil
}

func marshalArray(items []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// Detect returns the agents worth integrating here: those whose CLI is on
// PATH (lookPath) or whose settings directory exists. `integration install`
// with no agent named, and setup's offer, act on these.
func Detect(env Env, lookPath func(string) (string, error)) []Agent {
	var out []Agent
	for _, a := range Agents() {
		if slices.ContainsFunc(a.Binaries, func(b string) bool { _, err := lookPath(b); return err == nil }) {
			out = append(out, a)
			continue
		}
		if fi, err := os.Stat(filepath.Dir(a.Settings(env.Getenv, env.Home))); err == nil && fi.IsDir() {
			out = append(out, a)
		}
	}
	return out
}
