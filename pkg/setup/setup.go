// Package setup connects kittymux to the user's kitty: one include line in
// kitty.conf, an included file of kittymux's own (remote control on a socket,
// the quit watcher), and the scanner started with the user's session.
//
// Everything is planned first, as a list of changes that can be shown
// (--dry-run) before any is made, and every change can be undone: the
// include line is removed and kitty.conf gets back its original bytes.
package setup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kittymux/kittymux/assets"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// File names kittymux owns.
const (
	IncludedName = "kitty.conf"         // in kittymux's config directory
	WatcherName  = "kitty_watcher.py"   // beside it
	SettingsName = "kitty_watcher.json" // read by the watcher (SETTINGS there)
	UnitName     = "kittymux-scanner.service"
	BackupSuffix = ".kittymux-backup"
)

// QuitSession is the name the quit watcher publishes its save under: an
// autosave, so `sessions restore last` finds it when it is the newest.
const QuitSession = published.AutosavePrefix + "quit"

// Systemd is the user's systemd manager, for the scanner's unit.
type Systemd interface {
	// Running reports whether a user manager runs (systemctl --user works).
	Running(ctx context.Context) bool
	// Enabled and Active report the unit's state.
	Enabled(ctx context.Context, unit string) bool
	Active(ctx context.Context, unit string) bool
	// Run runs systemctl --user with args.
	Run(ctx context.Context, args ...string) error
}

// Env is where setup looks and writes.
type Env struct {
	Paths paths.Paths
	// KittyConfDir is kitty's configuration directory (kitty.ConfigDir).
	KittyConfDir string
	Home         string
	Getenv       func(string) string
	// Executable is the absolute path of kittymux, which the watcher and
	// the unit run.
	Executable string
	// Systemd is nil where there is no systemctl.
	Systemd Systemd
}

// KittyConf is the user's kitty.conf.
func (e Env) KittyConf() string { return filepath.Join(e.KittyConfDir, "kitty.conf") }

// Included is kittymux's file that kitty.conf includes.
func (e Env) Included() string { return filepath.Join(e.Paths.ConfigDir, IncludedName) }

// Watcher is the watcher kitty loads.
func (e Env) Watcher() string { return filepath.Join(e.Paths.ConfigDir, WatcherName) }

// Settings is the watcher's settings file.
func (e Env) Settings() string { return filepath.Join(e.Paths.ConfigDir, SettingsName) }

// Unit is the scanner's systemd user unit: $XDG_CONFIG_HOME/systemd/user.
func (e Env) Unit() string {
	return filepath.Join(filepath.Dir(e.Paths.ConfigDir), "systemd", "user", UnitName)
}

func (e Env) record() string { return e.Paths.Setup() }

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// IncludeLine is the line setup adds to kitty.conf. A path under the home
// is written with ~, so a kitty.conf kept in a dotfiles repository works on
// another machine.
func (e Env) IncludeLine() (string, error) {
	p := e.Included()
	if strings.ContainsAny(p, "$\n\r") {
		return "", fmt.Errorf("kittymux's config directory %s has a character kitty's include would change ($ or a newline)", p)
	}
	if e.Home != "" {
		if rel, err := filepath.Rel(e.Home, p); err == nil && filepath.IsLocal(rel) {
			p = "~/" + filepath.ToSlash(rel)
		}
	}
	return "include " + p, nil
}

// Action is what a change does.
type Action string

const (
	Create Action = "create"
	Modify Action = "modify"
	Remove Action = "remove"
	Run    Action = "run"
)

// Change is one step of a plan.
type Change struct {
	Action Action
	Path   string   // the file (Create, Modify, Remove)
	Args   []string // systemctl --user ARGS (Run)
	Old    []byte
	New    []byte
	// Summary is said after the path (kitty.conf's backup, what a file is).
	Summary string
	// Opaque: the lines are not listed (the watcher: kittymux's own code,
	// not configuration for the user to review line by line).
	Opaque bool
	apply  func(ctx context.Context) error
}

// Plan is what setup (or undo) would do.
type Plan struct {
	Changes []Change
	// Notes explain choices (a listen_on kept, a setting not seen).
	Notes []string
	// rec is written after the changes (setup) or removed (undo).
	rec     *record
	dropRec bool
	// makeState: the state directory is made (0700) before anything else,
	// so that kitty, saving on quit into a sessions directory that is not
	// there, does not make it with its own looser mode.
	makeState bool
	// makeSocketDir: SocketDirName is made (0700) for kitty's socket.
	makeSocketDir bool
}

// Empty reports a plan with nothing to change.
func (p Plan) Empty() bool { return len(p.Changes) == 0 }

// record is what setup did to kitty.conf, so --undo can give back its exact
// bytes.
type record struct {
	// KittyConf is the file written: kitty.conf, or the file its link
	// leads to.
	KittyConf string `json:"kitty_conf"`
	Line      string `json:"include_line"`
	// NewlineAdded: kitty.conf did not end with a newline, and setup added
	// one before its line.
	NewlineAdded bool `json:"newline_added"`
	// Created: there was no kitty.conf.
	Created bool   `json:"created"`
	Backup  string `json:"backup,omitempty"`
	// BackupMade: this setup wrote Backup. A backup an earlier setup made
	// is the user's only copy of what kitty.conf was then: never replaced,
	// and never removed by an --undo of a later setup.
	BackupMade bool `json:"backup_made,omitempty"`
}

// Apply makes the plan's changes in order; the first failure stops it.
func (p Plan) Apply(ctx context.Context, e Env) error {
	if p.makeState {
		if err := statefile.EnsureState(e.Paths); err != nil {
			return err
		}
	}
	if p.makeSocketDir {
		if err := makeSocketDir(e); err != nil {
			return err
		}
	}
	for _, c := range p.Changes {
		if err := c.apply(ctx); err != nil {
			return err
		}
	}
	switch {
	case p.rec != nil:
		data, err := json.MarshalIndent(p.rec, "", "  ")
		if err != nil {
			return err
		}
		return statefile.WriteFile(e.Paths.StateDir, e.record(), append(data, '\n'))
	case p.dropRec:
		if err := os.Remove(e.record()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", e.record(), err)
		}
	}
	return nil
}

// makeSocketDir makes the state directory's SocketDirName, 0700, for
// kitty's socket.
func makeSocketDir(e Env) error {
	top, err := statefile.Make(e.Paths.StateDir)
	if err != nil {
		return err
	}
	defer top.Close()
	d, err := top.MakeSub(SocketDirName)
	if err != nil {
		return err
	}
	return d.Close()
}

func readRecord(e Env) (*record, error) {
	data, err := userfile.Read(e.record(), maxConfSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", e.record(), err)
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("read %s: %w", e.record(), err)
	}
	return &r, nil
}

// WatcherSettings is kitty_watcher.json: what the watcher needs to know,
// resolved by setup, as kitty's environment may differ from the shell's.
type WatcherSettings struct {
	Kittymux    string `json:"kittymux"`
	SessionsDir string `json:"sessions_dir"`
	QuitName    string `json:"quit_name"`
	// Config is config.json: whether the quit capture keeps what each
	// window shows (screen history), and how much.
	Config string `json:"config"`
	// StartScanner: no systemd user manager starts the scanner, so the
	// watcher does when kitty loads it.
	StartScanner bool `json:"start_scanner"`
	// Env is set for the processes the watcher starts, so they use the
	// state and configuration setup used.
	Env map[string]string `json:"env,omitempty"`
}

// settingsEnv are the variables that decide kittymux's (and kitty's
// configuration) directories; those set when setup runs are passed on.
var settingsEnv = []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME", "KITTY_CONFIG_DIRECTORY"}

func (e Env) passedEnv() map[string]string {
	env := map[string]string{}
	for _, k := range settingsEnv {
		if v := e.getenv(k); v != "" {
			env[k] = v
		}
	}
	if len(env) == 0 {
		return nil
	}
	return env
}

// systemdRunning reports a user systemd manager.
func (e Env) systemdRunning(ctx context.Context) bool {
	return e.Systemd != nil && e.Systemd.Running(ctx)
}

// PlanSetup works out what setup changes. Each part adds its changes in
// turn; agent integrations (`kittymux integration install`) join as one
// more part when setup offers them.
func PlanSetup(ctx context.Context, e Env) (Plan, error) {
	if !filepath.IsAbs(e.Executable) {
		return Plan{}, fmt.Errorf("kittymux's own path %q is not absolute", e.Executable)
	}
	p := Plan{makeState: true}
	for _, part := range []func(context.Context, Env, *Plan) error{planKittyConf, planIncluded, planWatcher, planScanner} {
		if err := part(ctx, e, &p); err != nil {
			return Plan{}, err
		}
	}
	return p, nil
}

// planKittyConf adds the include line to kitty.conf unless some include
// already leads to kittymux's file.
func planKittyConf(_ context.Context, e Env, p *Plan) error {
	line, err := e.IncludeLine()
	if err != nil {
		return err
	}
	conf, err := kitty.ReadConf(e.KittyConf(), kitty.ConfOptions{Home: e.Home, Getenv: e.Getenv, Skip: e.Included()})
	if err != nil {
		return err
	}
	for _, u := range conf.Unread {
		p.Notes = append(p.Notes, "not read (kittymux runs no programs and cannot see kitty's environment): "+u)
	}
	if in, ok := conf.IncludesFile(e.Included()); ok {
		p.Notes = append(p.Notes, fmt.Sprintf("kitty.conf already includes kittymux's file (%s)", in.Where()))
		return nil
	}
	target, err := writeTarget(e.KittyConf())
	if err != nil {
		return err
	}
	old, mode, err := readFile(target)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", target, err)
	}
	rec := &record{KittyConf: target, Line: line, Created: !exists}
	newData := append([]byte{}, old...)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		newData = append(newData, '\n')
		rec.NewlineAdded = true
	}
	newData = append(newData, line+"\n"...)
	if !exists {
		mode = 0o644
		p.Changes = append(p.Changes, Change{Action: Create, Path: target, New: newData,
			apply: func(context.Context) error {
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					return err
				}
				return writeAtomic(target, newData, mode)
			}})
	} else {
		backup, made, err := pickBackup(target, old)
		if err != nil {
			return err
		}
		rec.Backup, rec.BackupMade = backup, made
		summary := "a copy of the original goes to " + backup
		if !made {
			summary = "a copy of it as it is now is already at " + backup
		}
		p.Changes = append(p.Changes, Change{Action: Modify, Path: target, Old: old, New: newData,
			Summary: summary,
			apply: func(context.Context) error {
				if made {
					if err := userfile.WriteNew(backup, old, mode); err != nil {
						return fmt.Errorf("back up kitty.conf: %w", err)
					}
				}
				return writeAtomic(target, newData, mode)
			}})
	}
	p.rec = rec
	return nil
}

// planIncluded writes kittymux's included file: remote control on the
// socket unless the user's configuration already allows it, a listen_on
// only where the user has none, the watcher.
func planIncluded(_ context.Context, e Env, p *Plan) error {
	conf, err := kitty.ReadConf(e.KittyConf(), kitty.ConfOptions{Home: e.Home, Getenv: e.Getenv, Skip: e.Included()})
	if err != nil {
		return err
	}
	lines := []string{
		"# Written by `kittymux setup`, which rewrites it; `kittymux setup --undo` removes it and its include line.",
	}
	switch conf.RemoteControl() {
	case "socket":
		p.Notes = append(p.Notes, fmt.Sprintf("remote control: kept as kitty.conf has it (allow_remote_control %s, %s)", conf.AllowRC.Value, conf.AllowRC.Where()))
	case "password":
		p.Notes = append(p.Notes, fmt.Sprintf("remote control: kitty.conf asks for a password (%s), which kittymux does not send; kept, so kittymux cannot reach kitty until it is socket-only", conf.AllowRC.Where()))
	default:
		if conf.AllowRC != nil {
			p.Notes = append(p.Notes, fmt.Sprintf("remote control: kitty.conf turns it off (%s); kittymux's file, included after it, turns it on for the socket only", conf.AllowRC.Where()))
		}
		lines = append(lines, "# kittymux reads kitty's windows and asks it to save sessions over the socket, never from a window.",
			"allow_remote_control socket-only")
	}
	if conf.HasListenOn() {
		p.Notes = append(p.Notes, fmt.Sprintf("socket: kept as kitty.conf has it (listen_on %s, %s)", conf.ListenOn.Value, conf.ListenOn.Where()))
	} else {
		listen, err := ListenOn(e.Paths, e.getenv)
		if err != nil {
			return err
		}
		if strings.HasPrefix(listen, "unix:"+e.socketDir()+string(filepath.Separator)) {
			p.makeSocketDir = true
		}
		lines = append(lines, "# In a directory only you can write: no other user can take the name first. kitty adds -<its pid>.",
			"listen_on "+listen)
	}
	w := e.Watcher()
	if strings.ContainsAny(w, "\n\r") {
		return fmt.Errorf("the watcher's path %q has a newline", w)
	}
	lines = append(lines, "# Saves the layout on a confirmed quit (kitty 0.46.2 or newer); starts the scanner where systemd does not.",
		"watcher "+w)
	planOwned(p, e.Included(), []byte(strings.Join(lines, "\n")+"\n"), "")
	return nil
}

// SocketDirName is the directory in the state directory that holds
// kitty's socket where there is no runtime directory.
const SocketDirName = "run"

func (e Env) socketDir() string { return filepath.Join(e.Paths.StateDir, SocketDirName) }

// maxSocketPath is the longest socket path kitty can bind on every system
// kittymux runs on: sun_path is 104 bytes on macOS (108 on Linux), with
// its NUL, and kitty adds "-<pid>" (up to 8 bytes) to the name.
const maxSocketPath = 103 - 8

// ListenOn is the socket setup asks kitty for, always in a directory only
// the user can write, so that no other user can bind its name first: the
// user's runtime directory ($XDG_RUNTIME_DIR) when it is one (the user's,
// no one else may write it), else SocketDirName in kittymux's state
// directory (made 0700 by setup). Never kitty's temp directory, which
// every user shares.
func ListenOn(p paths.Paths, getenv func(string) string) (string, error) {
	if d := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) && privateDir(d) {
		if path := filepath.Join(d, "kitty"); socketPathOK(path) {
			return "unix:" + path, nil
		}
	}
	path := filepath.Join(p.StateDir, SocketDirName, "kitty")
	if !socketPathOK(path) {
		return "", fmt.Errorf("no directory of yours fits kitty's socket (%s is over %d bytes, or has $ or a newline): "+
			"set listen_on in kitty.conf to a socket in a directory only you can write, then run setup again", path, maxSocketPath)
	}
	return "unix:" + path, nil
}

func socketPathOK(path string) bool {
	return len(path) <= maxSocketPath && !strings.ContainsAny(path, "$\n\r")
}

// privateDir: d is a directory (not a link) of this user that no other
// user may write.
func privateDir(d string) bool {
	fi, err := os.Lstat(d)
	if err != nil || !fi.IsDir() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o022 == 0
}

func planWatcher(ctx context.Context, e Env, p *Plan) error {
	if planOwned(p, e.Watcher(), watcherAsset(), fmt.Sprintf("kittymux's watcher for kitty, %d bytes", len(watcherAsset()))) {
		p.Changes[len(p.Changes)-1].Opaque = true
	}
	s := WatcherSettings{Kittymux: e.Executable, SessionsDir: e.Paths.SessionsDir(), QuitName: QuitSession, Config: e.Paths.Config(),
		StartScanner: !e.systemdRunning(ctx), Env: e.passedEnv()}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	planOwned(p, e.Settings(), append(data, '\n'), "")
	return nil
}

// planScanner installs and starts the scanner's user unit where a user
// systemd runs; elsewhere the watcher starts the scanner (planWatcher).
func planScanner(ctx context.Context, e Env, p *Plan) error {
	if !e.systemdRunning(ctx) {
		p.Notes = append(p.Notes, "scanner: no systemd user manager runs here; kitty's watcher starts it when kitty starts (one per user)")
		return nil
	}
	unit, err := unitFile(e)
	if err != nil {
		return err
	}
	changed := planOwned(p, e.Unit(), unit, "")
	if changed {
		p.Changes = append(p.Changes, systemctl(e, "daemon-reload"))
	}
	if changed || !e.Systemd.Enabled(ctx, UnitName) || !e.Systemd.Active(ctx, UnitName) {
		// --now restarts nothing that runs: a changed unit needs a restart.
		if changed {
			p.Changes = append(p.Changes, systemctl(e, "enable", UnitName), systemctl(e, "restart", UnitName))
		} else {
			p.Changes = append(p.Changes, systemctl(e, "enable", "--now", UnitName))
		}
	}
	return nil
}

func systemctl(e Env, args ...string) Change {
	return Change{Action: Run, Args: args, apply: func(ctx context.Context) error { return e.Systemd.Run(ctx, args...) }}
}

// unitFile is the scanner's unit. Paths are quoted for systemd: in double
// quotes, with \ and " escaped, % doubled (a specifier) and $ doubled
// (a variable).
func unitFile(e Env) ([]byte, error) {
	q := func(s string) (string, error) {
		if strings.ContainsAny(s, "\n\r") {
			return "", fmt.Errorf("%q has a newline", s)
		}
		s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, `%`, `%%`, `$`, `$$`).Replace(s)
		return `"` + s + `"`, nil
	}
	exe, err := q(e.Executable)
	if err != nil {
		return nil, err
	}
	lines := []string{
		"# Written by `kittymux setup`; `kittymux setup --undo` stops and removes it.",
		"[Unit]",
		"Description=kittymux scanner: records agent sessions in kitty and saves its layouts",
		"",
		"[Service]",
		"ExecStart=" + exe + " scanner run",
		"Restart=on-failure",
		"RestartSec=5",
	}
	env := e.passedEnv()
	if env == nil {
		env = map[string]string{}
	}
	// The user manager's PATH is a short system one: the scanner would not
	// find agent CLIs installed under the home (npm, nvm, ~/.local/bin) to
	// read their --help, and would save their windows as they were.
	if v := e.getenv("PATH"); v != "" {
		env["PATH"] = v
	}
	for _, k := range append(settingsEnv, "PATH") {
		if v, ok := env[k]; ok {
			kv, err := q(k + "=" + v)
			if err != nil {
				return nil, err
			}
			lines = append(lines, "Environment="+kv)
		}
	}
	lines = append(lines, "", "[Install]", "WantedBy=default.target")
	return []byte(strings.Join(lines, "\n") + "\n"), nil
}

// planOwned writes a file kittymux owns when its content differs, and
// reports whether it does.
func planOwned(p *Plan, path string, data []byte, summary string) bool {
	old, _, err := readFile(path)
	switch {
	case err == nil && string(old) == string(data):
		return false
	case err == nil:
		p.Changes = append(p.Changes, Change{Action: Modify, Path: path, Old: old, New: data, Summary: summary,
			apply: func(context.Context) error { return writeAtomic(path, data, 0o644) }})
	default:
		p.Changes = append(p.Changes, Change{Action: Create, Path: path, New: data, Summary: summary,
			apply: func(context.Context) error {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					return err
				}
				return writeAtomic(path, data, 0o644)
			}})
	}
	return true
}

// PlanUndo works out what --undo changes: the include line out of
// kitty.conf (its original bytes back), kittymux's files removed, the unit
// stopped and removed.
func PlanUndo(ctx context.Context, e Env) (Plan, error) {
	p := Plan{dropRec: true}
	rec, err := readRecord(e)
	if err != nil {
		return Plan{}, err
	}
	if err := planUndoKittyConf(e, rec, &p); err != nil {
		return Plan{}, err
	}
	if _, err := os.Lstat(e.Unit()); err == nil {
		if e.systemdRunning(ctx) {
			p.Changes = append(p.Changes, systemctl(e, "disable", "--now", UnitName))
		}
		p.Changes = append(p.Changes, removeChange(e.Unit(), ""))
		if e.systemdRunning(ctx) {
			p.Changes = append(p.Changes, systemctl(e, "daemon-reload"))
		}
	}
	for _, f := range []string{e.Included(), e.Watcher(), e.Settings()} {
		if _, err := os.Lstat(f); err == nil {
			p.Changes = append(p.Changes, removeChange(f, ""))
		}
	}
	if len(p.Changes) == 0 && rec == nil {
		p.dropRec = false
	}
	p.Notes = append(p.Notes, "a scanner that kitty's watcher started keeps running until it is stopped (`kittymux scanner status` shows its pid)")
	return p, nil
}

func planUndoKittyConf(e Env, rec *record, p *Plan) error {
	line, err := e.IncludeLine()
	if err != nil {
		return err
	}
	target := ""
	if rec != nil {
		target, line = rec.KittyConf, rec.Line
	} else if target, err = writeTarget(e.KittyConf()); err != nil {
		return err
	}
	old, mode, err := readFile(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", target, err)
	}
	newData, found := removeLine(old, line, rec != nil && rec.NewlineAdded)
	if !found {
		p.Notes = append(p.Notes, fmt.Sprintf("%s has no line %q: left as it is", target, line))
		return nil
	}
	backup := ""
	if rec != nil && rec.Backup != "" {
		if b, _, err := readFile(rec.Backup); err == nil {
			switch {
			case string(b) != string(newData):
				p.Notes = append(p.Notes, fmt.Sprintf("kitty.conf changed since setup: only the include line is removed; the copy from before setup stays at %s", rec.Backup))
			case rec.BackupMade:
				// kitty.conf is back to exactly these bytes.
				backup = rec.Backup
			}
		}
	}
	if rec != nil && rec.Created && len(newData) == 0 {
		p.Changes = append(p.Changes, removeChange(target, "setup made it for its include line"))
		p.Changes[len(p.Changes)-1].Old = old
		return nil
	}
	p.Changes = append(p.Changes, Change{Action: Modify, Path: target, Old: old, New: newData,
		apply: func(context.Context) error { return writeAtomic(target, newData, mode) }})
	if backup != "" {
		p.Changes = append(p.Changes, removeChange(backup, "the copy setup made; kitty.conf is back to it"))
	}
	return nil
}

// removeLine takes out the first line that is exactly line, with its
// newline; when setup had added a newline before it and it was the last
// line, that newline too.
func removeLine(data []byte, line string, newlineAdded bool) ([]byte, bool) {
	s := string(data)
	start := 0
	for start <= len(s) {
		end := strings.IndexByte(s[start:], '\n')
		next := len(s)
		cur := s[start:]
		if end >= 0 {
			cur, next = s[start:start+end], start+end+1
		}
		if strings.TrimSuffix(cur, "\r") == line {
			out := s[:start] + s[next:]
			if newlineAdded && next == len(s) && strings.HasSuffix(out, "\n") {
				out = out[:len(out)-1]
			}
			return []byte(out), true
		}
		if end < 0 {
			break
		}
		start = next
	}
	return data, false
}

func removeChange(path, summary string) Change {
	return Change{Action: Remove, Path: path, Summary: summary, apply: func(context.Context) error {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}}
}

// watcherAsset is the watcher this kittymux ships.
func watcherAsset() []byte { return assets.KittyWatcher }
