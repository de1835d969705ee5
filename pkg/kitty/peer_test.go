package kitty_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestClientRefusesAnotherUsersSocket: a process of user nobody binds the
// path (or the abstract name) of this user's kitty socket first. The
// client refuses it, naming the owner, and sends it nothing: for a path,
// the socket file's owner is checked before connecting; for an abstract
// name, which has no file, the listener's credentials after connecting.
func TestClientRefusesAnotherUsersSocket(t *testing.T) {
	for _, path := range []string{
		filepath.Join(kittytest.SquatDir(t), "kitty-1"),
		"@kittymux-squat-" + strconv.Itoa(os.Getpid()),
	} {
		s := kittytest.Squat(t, path)
		c := kitty.NewClient(kitty.Address{Path: path})
		_, err := c.LS(t.Context())
		if !errors.Is(err, kitty.ErrNotYours) || !strings.Contains(err.Error(), "belongs to nobody (uid 65534)") {
			t.Errorf("ls at %s: %v; want a refusal naming nobody", path, err)
		}
		if err := c.SetUserVars(t.Context(), "id:1", []string{"kittymux_session=secret"}); !errors.Is(err, kitty.ErrNotYours) {
			t.Errorf("set-user-vars at %s: %v; want a refusal", path, err)
		}
		time.Sleep(50 * time.Millisecond) // let the squatter log a connection it got
		if s.SentBy(os.Getpid()) {
			t.Errorf("the squatter at %s was sent: %s", path, s.Received())
		}
	}
}
