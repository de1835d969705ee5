package kitty

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/paths"
)

// running finds the kitties of this user from /proc: each kitty process's
// socket follows from its command line, its --config file or kitty.conf.
// A socket counts only when /proc/net/unix lists it as listening (or, when
// that cannot be read, when its file exists). Whose it is, is not looked at
// here: another user may have bound the path first, and the client, which
// refuses such a socket before sending anything, says so for this kitty.
func running(o DiscoverOptions) []Instance {
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
	confListen := listenOnFromConf(filepath.Join(o.ConfigDir, "kitty.conf"), o.Getenv)
	var out []Instance
	for _, p := range kittyProcesses(o) {
		listen, fromConfig, source := p.listenOn()
		if listen == "" {
			if p.configFile != "" {
				listen = listenOnFromConf(p.configFile, o.Getenv)
			} else {
				listen = confListen
			}
			fromConfig, source = true, "kitty.conf listen_on"
		}
		if listen == "" || listen == "none" {
			continue
		}
		addr, err := ParseAddress(expandListenOn(listen, fromConfig, strconv.Itoa(p.pid), o.Getenv, o.TempDir))
		if err != nil || !exists(addr) {
			continue
		}
		out = append(out, Instance{Addr: addr, PID: p.pid, Exe: p.exe, Source: source, Utility: p.utility()})
	}
	return out
}

// programs are the kitty processes of this user, socket or not.
func programs(o DiscoverOptions) []Instance {
	var out []Instance
	for _, p := range kittyProcesses(o) {
		out = append(out, Instance{PID: p.pid, Exe: p.exe, Utility: p.utility()})
	}
	return out
}

// processDetails reads a kitty's binary and whether it is a utility kitty
// from /proc.
func processDetails(o DiscoverOptions, pid int) (exe, utility string) {
	if p, ok := readProc(o.ProcRoot, pid); ok {
		return p.exe, p.utility()
	}
	return "", ""
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
// the same binary is left out. So is a kitty of another kittymux, where
// StateDir asks: one started with another HOME (a sandbox, a test, a second account's files)
// whose environment does not name this kittymux's state directory either;
// its windows read and write that other state. One whose environment cannot
// be read, or names no HOME, is kept.
func kittyProcesses(o DiscoverOptions) []proc {
	root := o.ProcRoot
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
		if !o.ours(root, p.pid) {
			continue
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// Ours says whether the kitty pid is this kittymux's, by the rule the
// scanner keeps to (o.StateDir set): doctor says so of a kitty it leaves
// alone.
func Ours(o DiscoverOptions, pid int) bool {
	o = o.withDefaults()
	return o.ours(o.ProcRoot, pid)
}

// ours says whether the kitty pid belongs to this kittymux: StateDir is
// unset (every kitty is), its HOME is this one, or its kittymux state directory ($XDG_STATE_HOME/kittymux, else
// $HOME/.local/state/kittymux) is StateDir.
func (o DiscoverOptions) ours(root string, pid int) bool {
	if o.StateDir == "" {
		return true
	}
	env := environ(root, pid, "HOME", "XDG_STATE_HOME")
	home := env["HOME"]
	if home == "" || o.Home == "" || paths.SameDir(home, o.Home) {
		return true
	}
	state := env["XDG_STATE_HOME"]
	if !filepath.IsAbs(state) {
		state = filepath.Join(home, ".local", "state")
	}
	return paths.SameDir(filepath.Join(state, "kittymux"), o.StateDir)
}

// environ reads the named variables from a process's environment as it
// started; none when it cannot be read. The read is bounded: a process of
// this user can make its environment large.
func environ(root string, pid int, names ...string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(filepath.Join(root, strconv.Itoa(pid), "environ"))
	if err != nil {
		return out
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	for _, kv := range bytes.Split(b, []byte{0}) {
		k, v, ok := bytes.Cut(kv, []byte{'='})
		if ok && slices.Contains(names, string(k)) {
			out[string(k)] = string(v)
		}
	}
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
