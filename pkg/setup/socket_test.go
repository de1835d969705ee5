package setup

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/paths"
)

// TestListenOnIsPrivate: setup's socket is never in a directory another
// user can write (kitty's temp directory, a runtime directory anyone may
// write): without a private runtime directory it is in the state
// directory's run/, which setup makes 0700.
func TestListenOnIsPrivate(t *testing.T) {
	for name, runtime := range map[string]func(root string) string{
		"no runtime dir":   func(string) string { return "" },
		"a shared one":     func(root string) string { return mkdir(t, filepath.Join(root, "shared"), 0o1777) },
		"a group-writable": func(root string) string { return mkdir(t, filepath.Join(root, "group"), 0o770) },
		"a link to private": func(root string) string {
			return link(t, mkdir(t, filepath.Join(root, "p"), 0o700), filepath.Join(root, "l"))
		},
		"a relative":          func(string) string { return "run" },
		"the private one, ok": nil,
	} {
		t.Run(name, func(t *testing.T) {
			e, root := testEnv(t, "")
			want := "unix:" + filepath.Join(e.Paths.StateDir, SocketDirName, "kitty")
			if runtime != nil {
				env := map[string]string{"HOME": e.Home, "XDG_RUNTIME_DIR": runtime(root)}
				e.Getenv = func(k string) string { return env[k] }
			} else {
				want = "unix:" + filepath.Join(root, "run", "kitty")
			}
			p, err := PlanSetup(context.Background(), e)
			if err != nil {
				t.Fatal(err)
			}
			inc := planned(t, p, e.Included())
			if !strings.Contains(inc, "\nlisten_on "+want+"\n") {
				t.Fatalf("included file:\n%s\nwant listen_on %s", inc, want)
			}
			if err := p.Apply(context.Background(), e); err != nil {
				t.Fatal(err)
			}
			if runtime != nil {
				fi, err := os.Lstat(filepath.Join(e.Paths.StateDir, SocketDirName))
				if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
					t.Fatalf("the socket's directory: %v, %v; want a directory, 0700", fi, err)
				}
			}
		})
	}
}

// TestListenOnTooLong: no private directory is short enough for a socket:
// setup says so rather than pick a shared one.
func TestListenOnTooLong(t *testing.T) {
	p := paths.Paths{StateDir: "/" + strings.Repeat("d", 100)}
	got, err := ListenOn(p, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "set listen_on in kitty.conf") {
		t.Fatalf("ListenOn = %q, %v; want an error", got, err)
	}
}

func mkdir(t *testing.T, d string, mode os.FileMode) string {
	t.Helper()
	if err := os.Mkdir(d, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d, mode); err != nil {
		t.Fatal(err)
	}
	return d
}

func link(t *testing.T, target, l string) string {
	t.Helper()
	if err := os.Symlink(target, l); err != nil {
		t.Fatal(err)
	}
	return l
}

// planned is the content a plan writes to path.
func planned(t *testing.T, p Plan, path string) string {
	t.Helper()
	for _, c := range p.Changes {
		if c.Path == path {
			return "\n" + string(c.New)
		}
	}
	t.Fatalf("the plan does not write %s", path)
	return ""
}

// TestCheckSharedSocket: doctor says a listen_on in a directory other users
// can write (as /tmp/kitty is), or an abstract name, is not ok, and quotes
// what setup writes instead; setup's own is ok.
func TestCheckSharedSocket(t *testing.T) {
	e, root := testEnv(t, "")
	shared := mkdir(t, filepath.Join(root, "shared"), 0o1777)
	for listen, ok := range map[string]bool{
		"unix:" + filepath.Join(shared, "kitty"):      false,
		"unix:@kitty":                                 false,
		"unix:" + filepath.Join(root, "run", "kitty"): true,
	} {
		if err := os.MkdirAll(e.KittyConfDir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(e.KittyConf(), []byte("listen_on "+listen+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, p := range Check(context.Background(), e, false) {
			if p.Name != "socket" {
				continue
			}
			want := "listen_on unix:" + filepath.Join(root, "run", "kitty")
			if p.OK != ok || !ok && !strings.Contains(p.Note, want) {
				t.Errorf("listen_on %s: %+v; want ok %v, quoting %q", listen, p, ok, want)
			}
		}
	}
}
