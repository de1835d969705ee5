package kitty

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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
	Getenv   func(string) string // os.Getenv
	ProcRoot string              // "/proc"
	// ConfigDir is kitty's configuration directory; by default
	// $KITTY_CONFIG_DIRECTORY, else $XDG_CONFIG_HOME/kitty, else ~/.config/kitty.
	ConfigDir string
	TempDir   string // os.TempDir(): kitty puts relative socket names there
}

// Discover finds every running kitty of this user that has a remote-control
// socket: KITTY_LISTEN_ON (set inside kitty windows) first, then each kitty
// process whose socket follows from its command line or kitty.conf's
// listen_on (with kitty's "-<pid>" suffix rule). Utility kitties (panels, the
// quick-access terminal) are returned with Utility set, so callers can say
// they were left out. Sockets found from processes are returned only when
// they exist; KITTY_LISTEN_ON always is, so a stale one can be reported.
func Discover(ctx context.Context, o DiscoverOptions) ([]Instance, error) {
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
	listening := listeningUnixSockets(o.ProcRoot)
	exists := func(a Address) bool {
		if listening != nil {
			return listening[a.Path]
		}
		if a.Abstract() {
			return true // cannot tell without /proc/net/unix: let the client say
		}
		_, err := os.Stat(a.Path)
		return err == nil
	}

	var out []Instance
	seen := map[string]bool{}
	// explicit: an address the environment names is reported even when
	// nothing listens there, so the caller can say so; candidates derived
	// from kitty processes count only when their socket exists.
	add := func(in Instance, explicit bool) {
		if seen[in.Addr.Path] || !explicit && !exists(in.Addr) {
			return
		}
		seen[in.Addr.Path] = true
		in.Socket = in.Addr.String()
		out = append(out, in)
	}
	if v := o.Getenv("KITTY_LISTEN_ON"); v != "" {
		if a, err := ParseAddress(v); err == nil {
			pid, _ := strconv.Atoi(o.Getenv("KITTY_PID"))
			in := Instance{Addr: a, PID: pid, Source: "KITTY_LISTEN_ON"}
			if pid > 0 {
				if p, ok := readProc(o.ProcRoot, pid); ok {
					in.Exe, in.Utility = p.exe, p.utility()
				}
			}
			add(in, true)
		}
	}
	confListen := listenOnFromConf(filepath.Join(o.ConfigDir, "kitty.conf"), 0)
	for _, p := range kittyProcesses(o.ProcRoot) {
		listen, fromConfig, source := p.listenOn()
		if listen == "" {
			if p.configFile != "" {
				listen = listenOnFromConf(p.configFile, 0)
			} else {
				listen = confListen
			}
			fromConfig, source = true, "kitty.conf listen_on"
		}
		if listen == "" || listen == "none" {
			continue
		}
		addr, err := ParseAddress(expandListenOn(listen, fromConfig, p.pid, o.Getenv, o.TempDir))
		if err != nil {
			continue
		}
		add(Instance{Addr: addr, PID: p.pid, Exe: p.exe, Source: source, Utility: p.utility()}, false)
	}
	for i := range out {
		if out[i].Exe != "" {
			out[i].Version, _ = VersionOfExe(ctx, out[i].Exe)
		}
	}
	return out, nil
}

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
func expandListenOn(v string, fromConfig bool, pid int, getenv func(string) string, tmp string) string {
	v = os.Expand(v, getenv)
	if fromConfig && strings.HasPrefix(v, "unix:") {
		v = WithPIDSuffix(v, pid)
	} else {
		v = strings.ReplaceAll(v, "{kitty_pid}", strconv.Itoa(pid))
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

// listenOnFromConf returns the last listen_on in a kitty.conf, following
// plain include lines (relative to the including file).
func listenOnFromConf(path string, depth int) string {
	if depth > 8 {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var last string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		val = strings.TrimSpace(val)
		switch key {
		case "listen_on":
			last = val
		case "include":
			if !filepath.IsAbs(val) {
				val = filepath.Join(filepath.Dir(path), val)
			}
			if v := listenOnFromConf(val, depth+1); v != "" {
				last = v
			}
		}
	}
	return last
}

type proc struct {
	pid        int
	ppid       int
	exe        string
	args       []string
	configFile string
}

// listenOn reads --listen-on (no suffix) or -o listen_on= (suffix) from
// kitty's own command line.
func (p proc) listenOn() (value string, fromConfig bool, source string) {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		next := func() string {
			if i+1 < len(p.args) {
				i++
				return p.args[i]
			}
			return ""
		}
		switch {
		case a == "--listen-on":
			value, fromConfig, source = next(), false, "--listen-on"
		case strings.HasPrefix(a, "--listen-on="):
			value, fromConfig, source = strings.TrimPrefix(a, "--listen-on="), false, "--listen-on"
		case (a == "-o" || a == "--override") && i+1 < len(p.args):
			if v, ok := strings.CutPrefix(strings.ReplaceAll(next(), " ", "="), "listen_on="); ok && source != "--listen-on" {
				value, fromConfig, source = v, true, "-o listen_on"
			}
		}
	}
	return value, fromConfig, source
}

func (p proc) utility() string {
	for _, a := range p.args {
		switch {
		case a == "panel" || strings.HasSuffix(a, "/panel.py") || a == "+kitten=panel":
			return "panel"
		case a == "quick-access-terminal" || a == "quick_access_terminal":
			return "quick-access"
		}
	}
	return ""
}

// kittyProcesses lists this user's kitty processes. kitty forks a prewarm
// process that looks like kitty itself: a kitty whose parent is a kitty with
// the same binary is left out.
func kittyProcesses(root string) []proc {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	uid := os.Getuid()
	byPID := map[int]proc{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if info, err := os.Stat(filepath.Join(root, e.Name())); err != nil || ownerUID(info) != uid {
			continue
		}
		if p, ok := readProc(root, pid); ok && filepath.Base(p.exe) == "kitty" {
			byPID[pid] = p
		}
	}
	var out []proc
	for _, p := range byPID {
		if parent, ok := byPID[p.ppid]; ok && parent.exe == p.exe {
			continue
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

func readProc(root string, pid int) (proc, bool) {
	dir := filepath.Join(root, strconv.Itoa(pid))
	exe, err := os.Readlink(filepath.Join(dir, "exe"))
	if err != nil {
		return proc{}, false
	}
	exe = strings.TrimSuffix(exe, " (deleted)")
	raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
	if err != nil {
		return proc{}, false
	}
	args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
	p := proc{pid: pid, exe: exe, args: args}
	if stat, err := os.ReadFile(filepath.Join(dir, "stat")); err == nil {
		// The comm field may hold spaces and parentheses: read after the last ')'.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
			f := strings.Fields(string(stat[i+1:]))
			if len(f) > 1 {
				p.ppid, _ = strconv.Atoi(f[1])
			}
		}
	}
	for i, a := range args {
		if (a == "--config" || a == "-c") && i+1 < len(args) {
			p.configFile = args[i+1]
		} else if v, ok := strings.CutPrefix(a, "--config="); ok {
			p.configFile = v
		}
	}
	return p, true
}

// listeningUnixSockets reads /proc/net/unix: the paths (abstract ones with
// '@') of every listening unix socket. nil when it cannot be read.
func listeningUnixSockets(root string) map[string]bool {
	b, err := os.ReadFile(filepath.Join(root, "net", "unix"))
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		// Num RefCount Protocol Flags Type St Inode Path; St 01 = listening.
		if len(f) < 8 || f[5] != "01" {
			continue
		}
		out[strings.Join(f[7:], " ")] = true
	}
	return out
}

// String is a one-line description for messages.
func (in Instance) String() string {
	s := fmt.Sprintf("kitty %s at %s", in.Version, in.Addr)
	if in.PID > 0 {
		s += fmt.Sprintf(" (pid %d)", in.PID)
	}
	return s
}
