//go:build linux

package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealSquattedSocket: a process of user nobody binds the path of the
// user's kitty socket before kitty starts (a shared directory, as /tmp is).
// The user's kitty cannot listen there and runs without a socket; kittymux
// finds the path from kitty's command line, and `sessions list`, `doctor`,
// `agents restart --yes` and a scanner pass each refuse the socket, naming
// its owner, and send the squatter nothing.
func TestRealSquattedSocket(t *testing.T) {
	t.Parallel()
	// kitty 0.26.5 exits when its socket's path is taken; newer kitty runs
	// on without a socket, which is what the attack needs.
	kittyBin := kittytest.NeedKitty(t, kitty.VersionSaveAsSession)
	kittytest.NeedRoot(t)
	sock := filepath.Join(kittytest.SquatDir(t), "kitty")
	squatter := kittytest.Squat(t, sock)
	k := kittytest.StartReal(t, kittytest.RealOptions{Kitty: kittyBin, Args: []string{"--listen-on", "unix:" + sock}, NoSocket: true})

	env := map[string]string{}
	for _, kv := range k.Env {
		if name, value, ok := strings.Cut(kv, "="); ok {
			env[name] = value
		}
	}
	getenv := func(name string) string { return env[name] }
	// Discovery, as outside kitty: this kitty's socket is the path its
	// --listen-on names, which the squatter listens on. (Only this kitty:
	// others of this user may run beside the test.)
	all, err := kitty.Discover(t.Context(), kitty.DiscoverOptions{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	var found []kitty.Instance
	for _, in := range all {
		if in.PID == k.PID {
			found = append(found, in)
		}
	}
	if len(found) != 1 || found[0].Addr.Path != sock {
		t.Fatalf("discovery found %+v for kitty %d; want its --listen-on %s", found, k.PID, sock)
	}

	for _, args := range [][]string{
		{"sessions", "list"},
		{"doctor"},
		{"agents", "restart", "--yes"},
		{"scanner", "poll", "--once"},
	} {
		out := &kittytest.Buffer{}
		f := factorytest.Writing(t, out, out)
		f.Getenv = getenv
		f.Discover = func(context.Context) ([]kitty.Instance, error) { return found, nil }
		code := root.Main(f, args)
		text := out.String()
		if !strings.Contains(text, "belongs to nobody (uid 65534), not to you (root (uid 0))") {
			t.Errorf("kittymux %s (exit %d) does not refuse the squatter's socket:\n%s", strings.Join(args, " "), code, text)
		}
		if args[0] != "scanner" && code != factory.ExitError {
			t.Errorf("kittymux %s: exit %d, want %d", strings.Join(args, " "), code, factory.ExitError)
		}
		if strings.Contains(text, "/tmp/kitty") || strings.Contains(text, "the squatter") {
			t.Errorf("kittymux %s shows the squatter's window or suggests /tmp/kitty:\n%s", strings.Join(args, " "), text)
		}
	}
	// kittymux ran in this process: nothing it sent. (Another kittymux on
	// the machine, looking for kitties, may find this one's path too.)
	if squatter.SentBy(os.Getpid()) {
		t.Errorf("the squatter was sent: %s", squatter.Received())
	}
}
