package kitty

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeProc builds a /proc-like tree: each process has exe, cmdline, stat.
type fakeProc struct {
	root    string
	sockets []string
}

func (f *fakeProc) add(t *testing.T, pid, ppid int, exe string, args ...string) {
	t.Helper()
	dir := filepath.Join(f.root, fmt.Sprint(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(dir, "exe")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cmdline"), []byte(strings.Join(args, "\x00")+"\x00"), 0o644)
	os.WriteFile(filepath.Join(dir, "stat"), []byte(fmt.Sprintf("%d (kit ty) S %d 1 1", pid, ppid)), 0o644)
}

func (f *fakeProc) environ(t *testing.T, pid int, env ...string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.root, fmt.Sprint(pid), "environ"), []byte(strings.Join(env, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeProc) writeNetUnix(t *testing.T) {
	var b strings.Builder
	b.WriteString("Num       RefCount Protocol Flags    Type St Inode Path\n")
	for i, s := range f.sockets {
		fmt.Fprintf(&b, "0000000000000000: 00000002 00000000 00010000 0001 01 %d %s\n", 1000+i, s)
	}
	// a connected (not listening) socket must not count
	b.WriteString("0000000000000000: 00000003 00000000 00000000 0001 03 99 /tmp/k-999\n")
	os.MkdirAll(filepath.Join(f.root, "net"), 0o755)
	if err := os.WriteFile(filepath.Join(f.root, "net", "unix"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	tmp := t.TempDir()
	// A kitty install whose constants.py gives the version without running it.
	exe := filepath.Join(tmp, "kitty.app", "bin", "kitty")
	os.MkdirAll(filepath.Dir(exe), 0o755)
	os.WriteFile(exe, []byte("#!/bin/false\n"), 0o755)
	consts := filepath.Join(tmp, "kitty.app", "lib", "kitty", "kitty", "constants.py")
	os.MkdirAll(filepath.Dir(consts), 0o755)
	os.WriteFile(consts, []byte("appname: str = 'kitty'\nversion: Version = Version(0, 48, 2)\n"), 0o644)

	conf := filepath.Join(tmp, "conf")
	os.MkdirAll(conf, 0o755)
	os.WriteFile(filepath.Join(conf, "kitty.conf"), []byte("font_size 11\ninclude more.conf\n"), 0o644)
	os.WriteFile(filepath.Join(conf, "more.conf"), []byte("allow_remote_control socket-only\nlisten_on unix:/tmp/mykitty\n"), 0o644)
	other := filepath.Join(tmp, "other.conf")
	os.WriteFile(other, []byte("listen_on unix:@other-{kitty_pid}\n"), 0o644)

	p := &fakeProc{root: filepath.Join(tmp, "proc")}
	p.add(t, 100, 1, exe, "kitty")                                           // kitty.conf rule: /tmp/mykitty-100
	p.add(t, 101, 100, exe, "kitty")                                         // prewarm fork of 100: left out
	p.add(t, 200, 1, exe, "kitty", "--listen-on", "unix:/run/k.sock")        // no suffix
	p.add(t, 300, 1, exe, "kitty", "-o", "listen_on=unix:rel")               // -o: suffix, relative → temp dir
	p.add(t, 400, 1, exe, "kitty", "--config", other)                        // {kitty_pid} substituted
	p.add(t, 500, 1, exe, "kitty", "+kitten", "panel", "--edge=top", "htop") // panel
	p.add(t, 600, 1, exe, "kitty")                                           // socket not listening: gone
	p.add(t, 700, 1, "/usr/bin/bash", "bash")                                // not kitty
	p.add(t, 800, 1, exe, "kitty", "--listen-on", "unix:/run/other-home")    // another HOME: not this kittymux's
	p.environ(t, 800, "TERM=xterm", "HOME="+filepath.Join(tmp, "elsewhere"), "X=1")
	p.add(t, 900, 1, exe, "kitty", "--listen-on", "unix:/run/same-home") // this HOME, through a trailing slash
	p.environ(t, 900, "HOME="+tmp+"/", "Y=2")
	p.add(t, 1000, 1, exe, "kitty", "--listen-on", "unix:/run/same-state") // another HOME, this kittymux's state
	p.environ(t, 1000, "HOME="+filepath.Join(tmp, "elsewhere"), "XDG_STATE_HOME="+filepath.Join(tmp, "state"))
	p.add(t, 1100, 1, exe, "kitty", "--listen-on", "unix:/run/other-state") // another HOME, its own state there
	p.environ(t, 1100, "HOME="+filepath.Join(tmp, "elsewhere"), "XDG_STATE_HOME=relative")
	p.sockets = []string{"/tmp/mykitty-100", "/run/k.sock", filepath.Join(tmp, "t", "rel-300"), "@other-400", "/tmp/mykitty-500", "/tmp/inside-1", "/run/other-home", "/run/same-home", "/run/same-state", "/run/other-state"}
	p.writeNetUnix(t)

	env := map[string]string{"HOME": tmp, "KITTY_CONFIG_DIRECTORY": conf, "KITTY_LISTEN_ON": "unix:/tmp/inside-1", "KITTY_PID": "100"}
	got, err := Discover(context.Background(), DiscoverOptions{
		Getenv: func(k string) string { return env[k] }, ProcRoot: p.root, TempDir: filepath.Join(tmp, "t"),
		StateDir: filepath.Join(tmp, "state", "kittymux"),
	})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Socket, Source, Utility, Version string
		PID                              int
	}
	var rows []row
	for _, in := range got {
		rows = append(rows, row{in.Socket, in.Source, in.Utility, in.Version.String(), in.PID})
	}
	want := []row{
		{"unix:/tmp/inside-1", "KITTY_LISTEN_ON", "", "0.48.2", 100},
		{"unix:/tmp/mykitty-100", "kitty.conf listen_on", "", "0.48.2", 100},
		{"unix:/run/k.sock", "--listen-on", "", "0.48.2", 200},
		{"unix:" + filepath.Join(tmp, "t", "rel-300"), "-o listen_on", "", "0.48.2", 300},
		{"unix:@other-400", "kitty.conf listen_on", "", "0.48.2", 400},
		{"unix:/tmp/mykitty-500", "kitty.conf listen_on", "panel", "0.48.2", 500},
		{"unix:/run/same-home", "--listen-on", "", "0.48.2", 900},
		{"unix:/run/same-state", "--listen-on", "", "0.48.2", 1000},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("Discover (-want +got):\n%s", diff)
	}
}
