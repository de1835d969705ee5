package kitty

import (
	"os"
	"path/filepath"
	"strings"
)

// SocketDirs returns the directories in which this user's kitty sockets
// appear: that of KITTY_LISTEN_ON and the one kitty.conf's listen_on
// implies (a relative name lives in the temp dir). A watcher on them sees a
// kitty start or stop. Abstract sockets have no directory.
func SocketDirs(o DiscoverOptions) []string {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.ConfigDir == "" {
		o.ConfigDir = kittyConfigDir(o.Getenv)
	}
	var out []string
	add := func(listen string, fromConfig bool) {
		a, err := ParseAddress(expandListenOn(listen, fromConfig, "0", o.Getenv, o.TempDir))
		if err != nil || a.Abstract() {
			return
		}
		d := filepath.Dir(a.Path)
		for _, have := range out {
			if have == d {
				return
			}
		}
		out = append(out, d)
	}
	if v := o.Getenv("KITTY_LISTEN_ON"); strings.HasPrefix(v, "unix:") {
		add(v, false)
	}
	if v := listenOnFromConf(filepath.Join(o.ConfigDir, "kitty.conf"), o.Getenv); v != "" && v != "none" {
		add(v, true)
	}
	return out
}
