package userfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/offer"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/sessiontemplate"
	"github.com/kittymux/kittymux/pkg/stagger"
)

// errPassedOver: the reader passes over what it cannot read, and another
// reader of the file reports it.
var errPassedOver = errors.New("passed over")

// Readers of the files a user keeps (kittymux's settings, the user's
// agent definitions and templates) and of state files refuse a FIFO there
// at once, with an error that says so, where a plain read would block
// forever.
func TestReadersRefuseFIFOs(t *testing.T) {
	for _, tc := range []struct {
		name string
		file func(p paths.Paths) string
		read func(p paths.Paths) error
	}{
		{"config.json", paths.Paths.Config, func(p paths.Paths) error {
			_, err := autosave.LoadSettings(p, func(string) string { return "" })
			return err
		}},
		{"config.json, for the offer on start", paths.Paths.Config, func(p paths.Paths) error {
			// A file it cannot read leaves the offer on, as one that does
			// not parse does; autosave's reading (above) reports it.
			if off := offer.OfferOff(p, func(string) string { return "" }); off != "" {
				return errors.New("offer off: " + off)
			}
			return errPassedOver
		}},
		{"config.json, for the resume interval", paths.Paths.Config, func(p paths.Paths) error {
			_, err := stagger.Interval(p, func(string) string { return "" })
			return err
		}},
		{"the templates directory", paths.Paths.UserTemplatesDir, func(p paths.Paths) error {
			_, err := sessiontemplate.List(p)
			return err
		}},
		{"resume.json", paths.Paths.UserAgents, func(p paths.Paths) error {
			_, err := agents.Load(p.UserAgents())
			return err
		}},
		{"scanner-status.json", func(p paths.Paths) string { return scanner.StatusPath(p.StateDir) }, func(p paths.Paths) error {
			if st := scanner.Current(p.StateDir); st.Problem != "" {
				return errors.New(st.Problem)
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := paths.Under(t.TempDir())
			file := tc.file(p)
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(file, 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- tc.read(p) }()
			select {
			case err := <-done:
				switch {
				case errors.Is(err, errPassedOver):
				case err == nil || !strings.Contains(err.Error(), "not a regular file") && !errors.Is(err, syscall.ENOTDIR):
					t.Errorf("err = %v, want the FIFO refused", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still blocked on the FIFO after 20 s")
			}
		})
	}
}
