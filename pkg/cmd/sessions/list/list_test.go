package list_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/list"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

const askTimeout = 500 * time.Millisecond

// listFactory is a factory whose discovery finds insts.
func listFactory(t *testing.T, insts ...kitty.Instance) (f *factory.Factory, out, errOut *kittytest.Buffer) {
	f, out, errOut = factorytest.New(t)
	f.Discover = func(context.Context) ([]kitty.Instance, error) { return insts, nil }
	f.AskTimeout = askTimeout
	return f, out, errOut
}

func instance(f *kittytest.Fake, source string) kitty.Instance {
	return kitty.Instance{Addr: f.Addr, Socket: f.Addr.String(), Source: source}
}

// hungKitty takes requests and never answers.
func hungKitty(t *testing.T) *kittytest.Fake {
	f := kittytest.StartFake(t, kittytest.FakeOptions{})
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // before the fake stops
	f.Hook(func(kittytest.Request) ([]byte, bool) { <-release; return nil, true })
	return f
}

// A kitty that KITTY_LISTEN_ON or --to names is the only one used: when it
// does not answer, that is the error, naming it, and no other kitty is asked.
func TestListNamedKittyOnly(t *testing.T) {
	for _, source := range []string{"KITTY_LISTEN_ON", "--to"} {
		t.Run(source, func(t *testing.T) {
			named := hungKitty(t)
			other := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
			f, out, errOut := listFactory(t, instance(other, "kitty.conf listen_on"), instance(named, source))
			err := list.List(t.Context(), list.ListOptions{}.From(f))
			if !errors.Is(err, kitty.ErrTimeout) || !strings.Contains(err.Error(), named.Addr.String()) {
				t.Fatalf("err = %v, want the named kitty's timeout, naming it", err)
			}
			if reqs := other.Requests(); len(reqs) != 0 {
				t.Errorf("another kitty was asked: %+v", reqs)
			}
			if out.Len() != 0 || errOut.Len() != 0 {
				t.Errorf("printed %q / %q; the error is the answer", out, errOut)
			}
			var report bytes.Buffer
			if code := factory.Report(&report, err); code != factory.ExitError || !strings.Contains(report.String(), named.Addr.String()) {
				t.Errorf("exit %d, report %q", code, report.String())
			}
		})
	}
}

// Four hung kitties cost one deadline together, and each is named.
func TestListHungKitties(t *testing.T) {
	var insts []kitty.Instance
	for range 4 {
		insts = append(insts, instance(hungKitty(t), "kitty.conf listen_on"))
	}
	f, _, errOut := listFactory(t, insts...)
	start := time.Now()
	err := list.List(t.Context(), list.ListOptions{}.From(f))
	if took := time.Since(start); took >= 2*askTimeout {
		t.Errorf("four hung kitties took %v, want about one deadline (%v)", took, askTimeout)
	}
	if !errors.Is(err, factory.ErrNoKitty) {
		t.Fatalf("err = %v, want ErrNoKitty", err)
	}
	for _, in := range insts {
		if !strings.Contains(errOut.String(), in.Socket+": ") {
			t.Errorf("%s not named in %q", in.Socket, errOut)
		}
	}
}

// Escape sequences in kitty's text (an error, a tab title) never reach the
// terminal.
func TestListPrintsNoEscapes(t *testing.T) {
	const evil = `\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b31m`
	isClean := func(s string) bool { return !strings.ContainsAny(s, "\x1b\x07\u009b") }

	t.Run("error", func(t *testing.T) {
		k := kittytest.StartFake(t, kittytest.FakeOptions{})
		k.Hook(func(kittytest.Request) ([]byte, bool) {
			return []byte("\x1bP@kitty-cmd{\"ok\": false, \"error\": \"bad" + evil + "\"}\x1b\\"), true
		})
		f, _, _ := listFactory(t, instance(k, "KITTY_LISTEN_ON"))
		err := list.List(t.Context(), list.ListOptions{}.From(f))
		var report bytes.Buffer
		factory.Report(&report, err)
		if !strings.Contains(report.String(), "bad") || !isClean(report.String()) {
			t.Errorf("printed %q", report.String())
		}
	})
	t.Run("titles", func(t *testing.T) {
		ls := bytes.ReplaceAll(kittytest.Fixture(t, "0.48.2/ls.json"), []byte(`"title": "~/code/web"`), []byte(`"title": "web`+evil+`"`))
		k := kittytest.StartFake(t, kittytest.FakeOptions{LS: ls})
		for _, tty := range []bool{true, false} {
			f, out, errOut := listFactory(t, instance(k, "KITTY_LISTEN_ON"))
			f.IO.IsTTY = tty
			if err := list.List(t.Context(), list.ListOptions{}.From(f)); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "claude") || !isClean(out.String()+errOut.String()) {
				t.Errorf("tty %v: printed %q", tty, out.String())
			}
		}
		// --json keeps kitty's text, escaped as JSON escapes it.
		f, out, _ := listFactory(t, instance(k, "KITTY_LISTEN_ON"))
		if err := list.List(t.Context(), list.ListOptions{JSON: true}.From(f)); err != nil {
			t.Fatal(err)
		}
		var doc struct{ Windows []list.ListedWindow }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil || !strings.Contains(out.String(), `\u001b]52`) {
			t.Fatalf("json: %v\n%s", err, out)
		}
	})
}

// TestListIDSourceAndState: each window's id says where it came from (a
// hook's report in the journal, the command line) and the journal's state
// is shown; a hook's id makes a window with no id on its command line exact.
func TestListIDSourceAndState(t *testing.T) {
	fake := kittytest.StartFake(t, kittytest.FakeOptions{LS: kittytest.Fixture(t, "0.48.2/ls.json")})
	f, out, _ := listFactory(t, instance(fake, "--to"))
	now := time.Now()
	hookAt := now
	_, err := journal.New(f.Paths.Journal(), false).Update(func(jf *journal.File) error {
		jf.Upsert(journal.Record{Key: "k5", Agent: "claude", ID: "9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b", IDFrom: "hook", State: "working",
			StateFrom: "hook", HookAt: &hookAt, Open: true, FirstSeen: now, LastSeen: now, KittySocket: fake.Addr.String(), WindowID: 5, PID: 25422})
		// Another window's process: not window 1's agent.
		jf.Upsert(journal.Record{Key: "k1", Agent: "claude", ID: "11111111-0d4e-4c5f-8a6b-7c8d9e0f1a2b", IDFrom: "hook", State: "idle",
			HookAt: &hookAt, Open: true, FirstSeen: now, LastSeen: now, KittySocket: fake.Addr.String(), WindowID: 1, PID: 999})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := list.List(t.Context(), list.ListOptions{JSON: true}.From(f)); err != nil {
		t.Fatal(err)
	}
	var got struct{ Windows []list.ListedWindow }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	type row struct {
		Mode           string
		ID, Src, State string
	}
	rows := map[int]row{}
	for _, w := range got.Windows {
		rows[w.WindowID] = row{string(w.Mode), w.ID, w.IDSource, w.State}
	}
	want := map[int]row{
		5: {"exact", "9f3c2b1a-0d4e-4c5f-8a6b-7c8d9e0f1a2b", "hook", "working"},
		4: {"exact", "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "command line", ""}, // its title shows no state
	}
	for id, w := range want {
		if diff := cmp.Diff(w, rows[id]); diff != "" {
			t.Errorf("window %d (-want +got):\n%s", id, diff)
		}
	}
	if rows[1].ID == "11111111-0d4e-4c5f-8a6b-7c8d9e0f1a2b" {
		t.Errorf("window 1 took a record of another process: %+v", rows[1])
	}
	// The fake kitty's processes do not run here: what it lists is all there
	// is, and the reason says a save would not seal it.
	for _, w := range got.Windows {
		if len(w.Argv) > 0 && !strings.Contains(w.Reason, "a save would not seal it") {
			t.Errorf("window %d: reason %q does not say it would not be sealed", w.WindowID, w.Reason)
		}
	}
}
