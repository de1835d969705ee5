package publish_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/publish"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/rewrite"
)

// largeSave is a save of n claude windows in one directory, every other one
// with its own conversation id: the case that made decisions quadratic.
func largeSave(n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		if i%100 == 1 {
			b.WriteString("new_tab\ncd /home/u/code/api\n\n")
		}
		if i%2 == 1 {
			fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d, \"cmd_at_shell_startup\": \"claude --model opus --resume 4f9e2a51-3c1d-4b7a-9e0f-%012d\"}' --var=project=api\n", i, i)
		} else {
			fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d, \"cmd_at_shell_startup\": \"claude --model opus --dangerously-skip-permissions\"}' --var=project=api\n", i)
		}
	}
	return b.Bytes()
}

// A save of about 10 MB, tens of thousands of windows of one agent in one
// directory, is published whole, each window decided by the rules, and
// what is printed grows with the windows, not with their square.
func TestPublishLargeSave(t *testing.T) {
	const n = 60000
	raw := largeSave(n)
	tmp := t.TempDir()
	rawPath := filepath.Join(tmp, "big.kitty-session")
	if err := os.WriteFile(rawPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	f, out, errOut := factorytest.New(t)
	f.Paths = paths.Under(tmp)
	env := map[string]string{"PATH": filepath.Join(tmp, "no-bin"), "KITTYMUX_RESUME_BIN": "/opt/kittymux/bin/kittymux-resume"}
	f.Getenv = func(k string) string { return env[k] }
	if err := publish.Publish(t.Context(), publish.PublishOptions{Raw: rawPath, Name: "big", JSON: true}.From(f)); err != nil {
		t.Fatalf("%v\n%s", err, errOut.Bytes())
	}
	t.Logf("raw save %d bytes, output %d bytes", len(raw), out.Len())
	var res struct {
		Path    string            `json:"path"`
		Windows []rewrite.Outcome `json:"windows"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Windows) != n {
		t.Fatalf("%d windows decided, want %d", len(res.Windows), n)
	}
	wantNew := fmt.Sprintf("%d claude windows in /home/u/code/api and no id for this one: the restore lists claude's conversations of /home/u/code/api to choose from", n)
	for i, w := range res.Windows {
		switch {
		case i%2 == 0 && (w.Mode != plan.ModeExact || w.ID != fmt.Sprintf("4f9e2a51-3c1d-4b7a-9e0f-%012d", i+1)):
			t.Fatalf("window %d: %s %s, want exact", w.WindowID, w.Mode, w.ID)
		case i%2 == 1 && (w.Mode != plan.ModeChoose || !strings.HasPrefix(w.Reason, wantNew)):
			t.Fatalf("window %d: %s %q, want choose: %q", w.WindowID, w.Mode, w.Reason, wantNew)
		}
	}
	published, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(published, []byte("/opt/kittymux/bin/kittymux-resume")); got != n {
		t.Errorf("%d windows rewritten, want %d", got, n)
	}
	// Every window's line is printed once, each of bounded length.
	if perWindow := out.Len() / n; perWindow > 1000 {
		t.Errorf("%d bytes printed per window", perWindow)
	}
}

func TestPublishFlags(t *testing.T) {
	f, _, _ := factorytest.New(t)
	var got *publish.PublishOptions
	cmd := publish.NewCmdPublish(f, func(o *publish.PublishOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"/tmp/raw/quit-1.kitty-session"})
	if err := cmd.Execute(); err != nil || got.Name != "quit-1" || got.Stdout {
		t.Fatalf("publish RAW: %v %+v", err, got)
	}
	got = nil
	cmd = publish.NewCmdPublish(f, func(o *publish.PublishOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"raw", "--name", "n", "--stdout"})
	if err := cmd.Execute(); err != nil || got.Name != "n" || !got.Stdout {
		t.Fatalf("publish --name --stdout: %v %+v", err, got)
	}
}
