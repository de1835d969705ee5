//go:build linux

package e2e_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	newCmd "github.com/kittymux/kittymux/pkg/cmd/sessions/new"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// TestRealTemplates: each shipped template, and a user template that
// overrides one, made by `sessions new` and loaded by a new kitty on PATH
// (Debian 12's 0.26.5 in CI): every window opens in the session's
// directory with its title, and the agent windows run the agent.
func TestRealTemplates(t *testing.T) {
	t.Parallel()
	kittytest.NeedReal(t)
	binDir, log := kittytest.FakeAgents(t, "claude")
	home := t.TempDir()
	userTemplates := paths.Under(home).UserTemplatesDir()
	if err := os.MkdirAll(userTemplates, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		template string
		user     string // a user template of that name, if any
		titles   []string
		agents   int
	}{
		{template: "plain", titles: []string{"shell"}},
		{template: "agent", titles: []string{"claude", "shell"}, agents: 1},
		{template: "duo", titles: []string{"claude", "claude", "shell"}, agents: 2},
		{template: "review", titles: []string{"claude", "diff", "shell"}, agents: 1},
		{template: "duo", user: "# mine\nnew_tab {name}\ncd {cwd}\nlaunch --title mine {agent} --model opus\n",
			titles: []string{"mine"}, agents: 1},
	} {
		name := tc.template
		if tc.user != "" {
			name += "-user"
		}
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "my project")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			userFile := filepath.Join(userTemplates, tc.template+".kitty-session")
			if tc.user != "" {
				if err := os.WriteFile(userFile, []byte(tc.user), 0o600); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(userFile)
			}
			env := map[string]string{"HOME": home, "PATH": binDir + ":" + os.Getenv("PATH")}
			out := &kittytest.Buffer{}
			f := factorytest.Writing(t, out, out)
			f.Getenv = func(k string) string { return env[k] }
			f.Paths = paths.Under(home)
			before := len(agentRuns(log))
			var k *kittytest.Real
			err := newCmd.New(t.Context(), newCmd.NewOptions{Name: name, Template: tc.template, Agent: "claude", Cwd: dir,
				Force: true, StartKitty: func(_, session string) error {
					k = kittytest.StartReal(t, kittytest.RealOptions{Env: log.Env(), Session: session})
					return nil
				}}.From(f))
			if err != nil || k == nil {
				t.Fatalf("sessions new: %v\n%s", err, out)
			}
			ls := k.WaitFor(func(ls []kitty.OSWindow) bool { return len(kitty.Windows(ls)) == len(tc.titles) }, 30*time.Second)
			var titles []string
			for _, r := range kitty.Windows(ls) {
				titles = append(titles, r.Window.Title)
				if r.Window.Cwd != dir {
					t.Errorf("window %q opened in %q, want %q", r.Window.Title, r.Window.Cwd, dir)
				}
				if r.Tab.Title != name && !slices.Contains(tc.titles, r.Tab.Title) {
					t.Errorf("tab %q", r.Tab.Title)
				}
			}
			slices.Sort(titles)
			if diff := cmp.Diff(tc.titles, titles); diff != "" {
				data, _ := os.ReadFile(paths.Under(home).Session(name))
				t.Errorf("window titles (-want +got):\n%s\n%s", diff, data)
			}
			runs := waitRuns(t, log, before+tc.agents, 30*time.Second)[before:]
			for _, r := range runs {
				if r.Cwd != dir {
					t.Errorf("the agent ran in %q", r.Cwd)
				}
				if tc.user != "" && !slices.Equal(r.Args, []string{"--model", "opus"}) {
					t.Errorf("the user template's agent ran with %q", r.Args)
				}
			}
			k.Stop()
		})
	}
}
