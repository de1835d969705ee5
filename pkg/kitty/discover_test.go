package kitty

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// socketsFromConf is how kitties are found where there is no /proc
// (macOS): kitty.conf's listen_on with its pid globbed. It runs here too.
func TestSocketsFromConf(t *testing.T) {
	dir, err := os.MkdirTemp("", "km") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	odd := filepath.Join(dir, "a[1]*")
	if err := os.Mkdir(odd, 0o700); err != nil {
		t.Fatal(err)
	}
	listen := func(path string) {
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
	}
	me, parent := os.Getpid(), os.Getppid()
	listen(filepath.Join(dir, fmt.Sprintf("k-%d", me)))                       // found
	listen(filepath.Join(dir, fmt.Sprintf("k-%d", math.MaxInt32-1)))          // no such process: a crashed kitty's
	listen(filepath.Join(dir, "k-abc"))                                       // not a pid
	listen(filepath.Join(dir, fmt.Sprintf("k-%d-x", me)))                     // more after the pid
	listen(filepath.Join(dir, fmt.Sprintf("kk-%d", me)))                      // another name
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("k-%d", parent)), nil, 0o600) // not a socket
	listen(filepath.Join(dir, fmt.Sprintf("s-%d.sock", me)))                  // {kitty_pid}
	listen(filepath.Join(dir, fmt.Sprintf("rel-%d", me)))                     // relative: in the temp dir
	listen(filepath.Join(odd, fmt.Sprintf("k-%d", me)))                       // glob characters in the path
	listen(filepath.Join(odd, fmt.Sprintf("k-%d", parent)))                   // another live process of ours

	o := DiscoverOptions{Getenv: func(string) string { return "" }, TempDir: dir}
	for _, c := range []struct {
		listen string
		want   []string
	}{
		{"unix:" + dir + "/k", []string{fmt.Sprintf("%s/k-%d pid %d", dir, me, me)}},
		{"unix:" + dir + "/s-{kitty_pid}.sock", []string{fmt.Sprintf("%s/s-%d.sock pid %d", dir, me, me)}},
		{"unix:rel", []string{fmt.Sprintf("%s/rel-%d pid %d", dir, me, me)}},
		{"unix:" + odd + "/k", []string{fmt.Sprintf("%s/k-%d pid %d", odd, me, me), fmt.Sprintf("%s/k-%d pid %d", odd, parent, parent)}},
		{"unix:@abstract", nil},
		{"tcp:localhost:5000", nil},
		{"none", nil},
		{"", nil},
	} {
		var got []string
		for _, in := range socketsFromConf(c.listen, o) {
			got = append(got, fmt.Sprintf("%s pid %d", in.Addr.Path, in.PID))
		}
		if diff := cmp.Diff(c.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("socketsFromConf(%q) (-want +got):\n%s", c.listen, diff)
		}
	}
}

func TestExpandListenOn(t *testing.T) {
	env := func(k string) string { return map[string]string{"HOME": "/home/u", "X": "x"}[k] }
	for _, c := range []struct {
		in         string
		fromConfig bool
		want       string
	}{
		{"unix:/tmp/kitty", true, "unix:/tmp/kitty-42"},
		{"unix:/tmp/kitty", false, "unix:/tmp/kitty"},
		{"unix:/tmp/k-{kitty_pid}.sock", true, "unix:/tmp/k-42.sock"},
		{"unix:@kitty", true, "unix:@kitty-42"},
		{"unix:~/k", true, "unix:/home/u/k-42"},
		{"unix:${X}dir/k", true, "unix:/t/xdir/k-42"},
		{"tcp:localhost:0", true, "tcp:localhost:0"},
	} {
		if got := expandListenOn(c.in, c.fromConfig, "42", env, "/t"); got != c.want {
			t.Errorf("expandListenOn(%q, %v) = %q, want %q", c.in, c.fromConfig, got, c.want)
		}
	}
}

func TestVersion(t *testing.T) {
	v, err := ParseVersion("kitty 0.26.5 created by Kovid Goyal")
	if err != nil || v != (Version{0, 26, 5}) {
		t.Fatalf("ParseVersion: %v %v", v, err)
	}
	if v.Has("save_as_session") || v.Has("user_vars") {
		t.Errorf("0.26.5 has save_as_session or user vars")
	}
	n := Version{0, 48, 2}
	for _, f := range []string{"save_as_session", "goto_session", "user_vars", "on_quit", "action"} {
		if !n.Has(f) {
			t.Errorf("0.48.2 lacks %s", f)
		}
	}
	if (Version{0, 46, 1}).Has("on_quit") || !(Version{0, 43, 0}).Has("save_as_session") || (Version{}).Has("user_vars") {
		t.Errorf("version edges wrong")
	}
}

// A KITTY_LISTEN_ON whose socket is gone is still returned, so doctor can
// say it is stale; sockets derived from processes must exist.
func TestDiscoverStaleListenOn(t *testing.T) {
	env := map[string]string{"KITTY_LISTEN_ON": "unix:/tmp/gone-1"}
	got, err := Discover(context.Background(), DiscoverOptions{Getenv: func(k string) string { return env[k] }, ProcRoot: t.TempDir(), ConfigDir: t.TempDir()})
	if err != nil || len(got) != 1 || got[0].Socket != "unix:/tmp/gone-1" || got[0].Source != "KITTY_LISTEN_ON" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

// kitty.conf's listen_on is found through its includes; a FIFO or device
// among them is passed over, never waited on.
func TestListenOnFromConfFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.conf"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "other.conf"), []byte("listen_on unix:/tmp/other\n"), 0o600)
	conf := filepath.Join(dir, "kitty.conf")
	os.WriteFile(conf, []byte("listen_on unix:/tmp/main\ninclude fifo.conf\ninclude "+os.DevNull+"\ninclude other.conf\n"), 0o600)
	got := make(chan string, 1)
	go func() { got <- listenOnFromConf(conf, os.Getenv) }()
	select {
	case v := <-got:
		if v != "unix:/tmp/other" {
			t.Errorf("listen_on = %q, want unix:/tmp/other", v)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("still blocked on the FIFO after 20 s")
	}
}
