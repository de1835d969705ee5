package hookrun

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
)

// FuzzRun: an agent's hook sends whatever JSON it likes (and a hook set by
// hand may send anything). Whatever it is, the hook never panics; what it
// accepts leaves a journal that reads, one record of this window whose id
// is the payload's, and an id that is a plain token (never an option) in
// the journal and in the user vars kitty is sent.
func FuzzRun(f *testing.F) {
	events := []string{"SessionStart", "UserPromptSubmit", "Stop", "BeforeAgent", "AfterAgent", "StopFailure", "Notification"}
	for agent, byEvent := range payloads {
		for event, p := range byEvent {
			f.Add(agent, uint8(max(0, slices.Index(events, event))), []byte(p))
		}
	}
	f.Add("claude", uint8(0), []byte(`{"session_id":"--dangerously-skip-permissions","source":"resume"}`))
	f.Add("claude", uint8(1), []byte(`{"session_id":"a\nb","cwd":"/tmp/\u0000"}`))
	f.Add("claude", uint8(2), []byte(`{"session_id":123}`))
	f.Add("Claude", uint8(0), []byte(`{}`))
	f.Add("claude", uint8(0), []byte(`{"session_id":"x","session_id":"-y"}`))
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, agent string, ev uint8, payload []byte) {
		event := events[int(ev)%len(events)]
		dir := t.TempDir()
		env := map[string]string{"KITTY_WINDOW_ID": "7", "KITTY_PID": "100", "KITTY_LISTEN_ON": "unix:/tmp/kitty-100"}
		var sent []string
		o := Options{
			Paths:     paths.Paths{StateDir: filepath.Join(dir, "state"), ConfigDir: filepath.Join(dir, "config")},
			Getenv:    func(k string) string { return env[k] },
			Clock:     clock.NewFake(now),
			Ancestors: func(int) []Proc { return []Proc{{PID: 4242, Comm: agent}} },
			SetUserVars: func(_ context.Context, _ kitty.Address, _ string, vars []string) error {
				sent = vars
				return nil
			},
		}
		res, err := Run(context.Background(), o, agent, event, bytes.NewReader(payload))
		if err != nil {
			return
		}
		if res.ID != "" && (!idRE().MatchString(res.ID) || strings.HasPrefix(res.ID, "-")) {
			t.Fatalf("accepted id %q", res.ID)
		}
		for _, kv := range sent {
			if strings.ContainsAny(kv, "\x00\n\r") {
				t.Fatalf("user var %q", kv)
			}
		}
		jf, err := journal.New(o.Paths.Journal(), false).Read()
		if err != nil {
			t.Fatalf("the journal the hook wrote: %v", err)
		}
		var mine []journal.Record
		for _, r := range jf.Records {
			if r.WindowID == 7 && r.KittyPID == 100 {
				mine = append(mine, r)
			}
		}
		if len(mine) != 1 || mine[0].Agent != agent || mine[0].ID != res.ID {
			t.Fatalf("records of the window: %+v, want one of %s with id %q", mine, agent, res.ID)
		}
	})
}
