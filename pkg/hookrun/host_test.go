package hookrun

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/remote"
)

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// On a host reached by `kitten ssh` (KITTY_WINDOW_ID passed on, no
// KITTY_PID), the hook records the session in the host's journal keyed by
// its agent process and tells the terminal, not any kitty socket.
func TestHostHookRecordsAndHints(t *testing.T) {
	o, _, calls := setup(t, map[string]string{"KITTY_PID": "", "SSH_CONNECTION": "10.0.0.2 5555 10.0.0.1 22"})
	var tty bytes.Buffer
	o.OpenTTY = func() (io.WriteCloser, error) { return nopCloser{&tty}, nil }
	o.Hostname = func() (string, error) { return "devbox", nil }
	o.Start = func(pid int) string { return "boot:123" }
	res, err := Run(context.Background(), o, "claude", "SessionStart", strings.NewReader(payloads["claude"]["SessionStart"]))
	if err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 0 {
		t.Errorf("set user vars over a socket on a host: %v", *calls)
	}
	f, err := journal.New(o.Paths.Journal(), false).Read()
	if err != nil || len(f.Records) != 1 {
		t.Fatalf("journal: %v %+v", err, f)
	}
	r := f.Records[0]
	if !strings.HasPrefix(r.Key, remote.HostSocket+"|") || r.PID != 4242 || r.Start != "boot:123" || r.ID != res.ID ||
		r.IDFrom != journal.FromHook || r.Dir != "/home/u/api" || r.WindowID != 0 {
		t.Errorf("record %+v", r)
	}
	want := remote.Hint{Agent: "claude", ID: res.ID, Dir: "/home/u/api", Host: "devbox"}
	if got := tty.String(); got != string(want.OSC()) {
		t.Errorf("terminal got %q, want %q", got, want.OSC())
	}
	prefix := "\x1b]1337;SetUserVar=" + remote.Var + "="
	v, _ := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(tty.String(), prefix), "\a"))
	if h, err := remote.ParseHint(string(v)); err != nil || h != want {
		t.Errorf("hint %+v %v", h, err)
	}
}

// A kitty of the host itself (KITTY_PID set) is a local window, even in an
// ssh session: nothing goes to the terminal.
func TestHookInHostsOwnKittyIsLocal(t *testing.T) {
	o, _, _ := setup(t, map[string]string{"SSH_CONNECTION": "10.0.0.2 5555 10.0.0.1 22"})
	o.OpenTTY = func() (io.WriteCloser, error) { t.Error("terminal opened"); return nil, io.EOF }
	if _, err := Run(context.Background(), o, "claude", "SessionStart", strings.NewReader(payloads["claude"]["SessionStart"])); err != nil {
		t.Fatal(err)
	}
	f, _ := journal.New(o.Paths.Journal(), false).Read()
	if len(f.Records) != 1 || strings.HasPrefix(f.Records[0].Key, remote.HostSocket+"|") {
		t.Errorf("records %+v", f.Records)
	}
}
