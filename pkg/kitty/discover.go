package kitty

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// Instance is one running kitty that kittymux can talk to (or tried to).
type Instance struct {
	Addr    Address `json:"-"`
	Socket  string  `json:"socket"`
	PID     int     `json:"pid,omitempty"`
	Exe     string  `json:"exe,omitempty"`
	Version Version `json:"-"`
	// Source says how the socket was found: "KITTY_LISTEN_ON", "--to",
	// "kitty.conf listen_on", "--listen-on".
	Source string `json:"source"`
	// Utility is "panel" or "quick-access" for kitty's utility processes,
	// which kittymux leaves alone.
	Utility string `json:"utility,omitempty"`
}

// DiscoverOptions says where to look; zero fields take the real system.
type DiscoverOptions struct {
	Getenv func(string) string // os.Getenv
	// ProcRoot is where Linux's process table is read ("/proc"); other
	// systems have none and find sockets from kitty.conf alone.
	ProcRoot string
	// ConfigDir is kitty's configuration directory; by default
	// $KITTY_CONFIG_DIRECTORY, else $XDG_CONFIG_HOME/kitty, else ~/.config/kitty.
	ConfigDir string
	TempDir   string // os.TempDir(): kitty puts relative socket names there
	// StateDir, when set, keeps to the kitties of the kittymux whose state
	// directory it is: one whose environment names another HOME than Home
	// ($HOME) and another state directory is left out (Linux; see
	// proc_linux.go). Unset, every kitty of this user is found.
	StateDir, Home string
}

// Discover finds every running kitty of this user that has a remote-control
// socket: KITTY_LISTEN_ON (set inside kitty windows) first, then the others.
// On Linux those are each kitty process whose socket follows from its
// command line or kitty.conf's listen_on (with kitty's "-<pid>" suffix
// rule); elsewhere, with no /proc to read, the sockets that kitty.conf's
// listen_on leads to, whatever the pid in their name (proc_other.go).
// Utility kitties (panels, the quick-access terminal) are returned with
// Utility set where the process says so, so callers can say they were left
// out. Sockets found this way are returned only when they exist;
// KITTY_LISTEN_ON always is, so a stale one can be reported. A
// KITTY_LISTEN_ON kittymux cannot use is an error naming it.
func Discover(ctx context.Context, o DiscoverOptions) ([]Instance, error) {
	o = o.withDefaults()
	var out []Instance
	seen := map[string]bool{}
	add := func(in Instance) {
		if seen[in.Addr.Path] {
			return
		}
		seen[in.Addr.Path] = true
		in.Socket = in.Addr.String()
		out = append(out, in)
	}
	if v := o.Getenv("KITTY_LISTEN_ON"); v != "" {
		a, err := ParseAddress(v)
		if err != nil {
			return nil, fmt.Errorf("KITTY_LISTEN_ON: %w", err)
		}
		pid, _ := strconv.Atoi(o.Getenv("KITTY_PID"))
		in := Instance{Addr: a, PID: pid, Source: "KITTY_LISTEN_ON"}
		if pid > 0 {
			in.Exe, in.Utility = processDetails(o, pid)
		}
		add(in)
	}
	for _, in := range running(o) {
		add(in)
	}
	withVersions(ctx, out)
	return out, nil
}

// Programs are the kitties of this user running now, with a socket or
// without one (on a first setup kitty has none yet): each one's binary,
// version and whether it is a utility kitty, from /proc; elsewhere, those
// Discover finds.
func Programs(ctx context.Context, o DiscoverOptions) []Instance {
	out := programs(o.withDefaults())
	withVersions(ctx, out)
	return out
}

func (o DiscoverOptions) withDefaults() DiscoverOptions {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.ProcRoot == "" {
		o.ProcRoot = "/proc"
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.ConfigDir == "" {
		o.ConfigDir = kittyConfigDir(o.Getenv)
	}
	if o.Home == "" {
		o.Home = o.Getenv("HOME")
	}
	return o
}

// withVersions sets each instance's version from its binary. Kitties of one
// install share their binary: it is asked once.
func withVersions(ctx context.Context, ins []Instance) {
	versions := map[string]Version{}
	for i := range ins {
		exe := ins[i].Exe
		if exe == "" {
			continue
		}
		v, ok := versions[exe]
		if !ok {
			v, _ = VersionOfExe(ctx, exe)
			versions[exe] = v
		}
		ins[i].Version = v
	}
}

// ConfigDir is kitty's configuration directory, where its kitty.conf is:
// $KITTY_CONFIG_DIRECTORY, else $XDG_CONFIG_HOME/kitty, else ~/.config/kitty.
func ConfigDir(getenv func(string) string) string { return kittyConfigDir(getenv) }

func kittyConfigDir(getenv func(string) string) string {
	if d := getenv("KITTY_CONFIG_DIRECTORY"); d != "" {
		return d
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "kitty")
	}
	return filepath.Join(getenv("HOME"), ".config", "kitty")
}

// expandListenOn mirrors kitty's expand_listen_on (kitty/main.py): env vars
// expanded; from a config file (kitty.conf or -o) a unix socket gets
// "-{kitty_pid}" unless it names {kitty_pid}; "~" is the home; a relative
// path lives in the temp dir.
func expandListenOn(v string, fromConfig bool, pid string, getenv func(string) string, tmp string) string {
	v = os.Expand(v, getenv)
	if fromConfig && strings.HasPrefix(v, "unix:") {
		v = withPIDSuffix(v, pid)
	} else {
		v = strings.ReplaceAll(v, "{kitty_pid}", pid)
	}
	if path, ok := strings.CutPrefix(v, "unix:"); ok && !strings.HasPrefix(path, "@") {
		switch {
		case strings.HasPrefix(path, "~"):
			v = "unix:" + getenv("HOME") + path[1:]
		case !filepath.IsAbs(path):
			v = "unix:" + filepath.Join(tmp, path)
		}
	}
	return v
}

// listenOnFromConf returns the last listen_on of the kitty configuration
// whose main file is path, as ReadConf reads it for setup and doctor: what
// it could not read is passed over, as kitty passes it over.
func listenOnFromConf(path string, getenv func(string) string) string {
	c, _ := ReadConf(path, ConfOptions{Home: getenv("HOME"), Getenv: getenv})
	if c.ListenOn == nil {
		return ""
	}
	return c.ListenOn.Value
}

// String is a one-line description for messages.
func (in Instance) String() string {
	s := fmt.Sprintf("kitty %s at %s", in.Version, in.Addr)
	if in.PID > 0 {
		s += fmt.Sprintf(" (pid %d)", in.PID)
	}
	return s
}

// pidMark stands for the pid while a listen_on is turned into a glob: NUL
// cannot be part of a path.
const pidMark = "\x00pid\x00"

// socketsFromConf finds the sockets that kitties started with this
// listen_on (from kitty.conf) made, whatever pid kitty put in their names. A
// socket counts when it is one, is this user's, and its pid is a live
// process of this user: a kitty that crashed leaves its socket behind.
// Abstract names cannot be listed this way.
func socketsFromConf(listen string, o DiscoverOptions) []Instance {
	if listen == "" || listen == "none" {
		return nil
	}
	path, ok := strings.CutPrefix(expandListenOn(listen, true, pidMark, o.Getenv, o.TempDir), "unix:")
	if !ok || strings.HasPrefix(path, "@") {
		return nil
	}
	parts := strings.Split(path, pidMark)
	glob, re := make([]string, len(parts)), make([]string, len(parts))
	for i, p := range parts {
		glob[i], re[i] = globEscape.Replace(p), regexp.QuoteMeta(p)
	}
	matches, _ := userfile.Glob(strings.Join(glob, "*"))
	name := regexp.MustCompile("^" + strings.Join(re, "([0-9]+)") + "$")
	uid := os.Getuid()
	var out []Instance
	for _, m := range matches {
		sub := name.FindStringSubmatch(m)
		if sub == nil {
			continue
		}
		pid, err := strconv.Atoi(sub[1])
		if err != nil || pid <= 0 || !allEqual(sub[1:]) {
			continue
		}
		fi, err := os.Lstat(m)
		if err != nil || fi.Mode().Type() != os.ModeSocket || ownerUID(fi) != uid || !processAlive(pid) {
			continue
		}
		out = append(out, Instance{Addr: Address{Path: m}, PID: pid, Source: "kitty.conf listen_on"})
	}
	return out
}

var globEscape = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)

func allEqual(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}
