package setup

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Part is one part of the setup as doctor reports it: ok, or what to do.
type Part struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
	Note string `json:"note"`
}

const runSetup = "run `kittymux setup`"

// Check reports each part of the setup: the include line, remote control,
// the socket, the watcher, the scanner and autosave. scannerRunning is the
// scanner's lock as `scanner status` reads it.
func Check(ctx context.Context, e Env, scannerRunning bool) []Part {
	conf, err := kitty.ReadConf(e.KittyConf(), kitty.ConfOptions{Home: e.Home, Getenv: e.Getenv})
	if err != nil {
		return []Part{{Name: "include", Note: err.Error()}}
	}
	var parts []Part
	add := func(name string, ok bool, format string, args ...any) {
		parts = append(parts, Part{Name: name, OK: ok, Note: fmt.Sprintf(format, args...)})
	}

	if in, ok := conf.IncludesFile(e.Included()); ok {
		add("include", true, "%s includes %s", in.Where(), e.Included())
	} else {
		add("include", false, "%s does not include %s: %s", e.KittyConf(), e.Included(), runSetup)
	}

	switch conf.RemoteControl() {
	case "socket":
		add("remote_control", true, "allow_remote_control %s (%s)", conf.AllowRC.Value, conf.AllowRC.Where())
	case "password":
		add("remote_control", false, "allow_remote_control password (%s): kittymux sends no password; set it to socket-only", conf.AllowRC.Where())
	default:
		where := "not set"
		if conf.AllowRC != nil {
			where = fmt.Sprintf("%s (%s)", conf.AllowRC.Value, conf.AllowRC.Where())
		}
		add("remote_control", false, "allow_remote_control is %s: %s", where, runSetup)
	}

	if conf.HasListenOn() {
		if why := sharedSocket(e, conf.ListenOn.Value); why != "" {
			listen, _ := ListenOn(e.Paths, e.getenv)
			add("socket", false, "listen_on %s (%s) %s: another user can take its name first, and kittymux does not talk to another user's socket; "+
				"remove that line and run `kittymux setup` (listen_on %s)", conf.ListenOn.Value, conf.ListenOn.Where(), why, listen)
		} else {
			add("socket", true, "listen_on %s (%s); a running kitty opened before it was set needs a restart", conf.ListenOn.Value, conf.ListenOn.Where())
		}
	} else {
		add("socket", false, "no listen_on: %s, then restart kitty", runSetup)
	}

	watcher, settings := checkWatcher(conf, e)
	parts = append(parts, watcher)

	_, unitErr := os.Stat(e.Unit())
	switch {
	case scannerRunning && unitErr == nil:
		add("scanner", true, "running, started by the systemd user unit %s", UnitName)
	case scannerRunning:
		add("scanner", true, "running")
	case unitErr == nil:
		add("scanner", false, "not running: systemctl --user start %s (journalctl --user -u %s says why it stopped)", UnitName, UnitName)
	case watcher.OK && settings.StartScanner:
		add("scanner", false, "not running: kitty's watcher starts it when kitty starts (restart kitty), or run `kittymux scanner run`")
	default:
		add("scanner", false, "not running: %s (kitty's watcher then starts it, or a systemd user unit), or run `kittymux scanner run`", runSetup)
	}

	switch off := autosave.Off(e.Paths, e.getenv); {
	case off != "":
		add("autosave", false, "off (%s): only `sessions save` and quit saves", off)
	case !scannerRunning:
		add("autosave", false, "needs the scanner, which is not running")
	default:
		add("autosave", true, "on, by the scanner, for each kitty 0.43 or newer")
	}
	_ = ctx
	return parts
}

// sharedSocket says why the socket listen_on names can be taken by another
// user first ("" when it cannot): an abstract name, or a path in a
// directory another user may write (kitty's temp directory, as a relative
// name has it, is one where it is shared).
func sharedSocket(e Env, listen string) string {
	rest, ok := strings.CutPrefix(os.Expand(listen, e.getenv), "unix:")
	switch {
	case !ok:
		return ""
	case strings.HasPrefix(rest, "@"):
		return "is an abstract name, which any user can bind"
	case strings.HasPrefix(rest, "~"):
		rest = e.Home + rest[1:]
	case !filepath.IsAbs(rest):
		rest = filepath.Join(os.TempDir(), rest)
	}
	dir := filepath.Dir(rest)
	fi, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if fi.Mode().Perm()&0o022 != 0 || ok && int(st.Uid) != os.Getuid() && st.Uid != 0 {
		return "is in " + dir + ", which other users can write"
	}
	return ""
}

func checkWatcher(conf kitty.Conf, e Env) (Part, WatcherSettings) {
	p := Part{Name: "watcher"}
	var s WatcherSettings
	w, ok := conf.HasWatcher(e.Watcher())
	if !ok {
		p.Note = "kitty's configuration loads no kittymux watcher: " + runSetup
		return p, s
	}
	data, err := userfile.Read(e.Watcher(), maxConfSize)
	switch {
	case err != nil:
		p.Note = fmt.Sprintf("%s: %v: %s", e.Watcher(), err, runSetup)
		return p, s
	case !bytes.Equal(data, watcherAsset()):
		p.Note = e.Watcher() + " is not this kittymux's watcher (changed, or from another version): " + runSetup
		return p, s
	}
	raw, err := userfile.Read(e.Settings(), maxConfSize)
	if err == nil {
		err = json.Unmarshal(raw, &s)
	}
	if err != nil {
		p.Note = fmt.Sprintf("its settings %s: %v: %s", e.Settings(), err, runSetup)
		return p, s
	}
	if fi, err := os.Stat(s.Kittymux); err != nil || fi.Mode().Perm()&0o111 == 0 {
		p.Note = fmt.Sprintf("it runs %s, which is not there: %s", s.Kittymux, runSetup)
		return p, s
	}
	p.OK = true
	p.Note = fmt.Sprintf("%s (%s); on a confirmed quit it saves the layout as %s (kitty 0.46.2 or newer)", e.Watcher(), w.Where(), s.QuitName)
	return p, s
}
