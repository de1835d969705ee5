package sessiontemplate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

func TestListUserWins(t *testing.T) {
	p := paths.Under(t.TempDir())
	if err := os.MkdirAll(p.UserTemplatesDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"agent.kitty-session": "# mine\nlaunch {agent}\n", "solo.kitty-session": "launch\n",
		"notes.txt": "not a template", ".hidden.kitty-session": "launch\n"} {
		if err := os.WriteFile(filepath.Join(p.UserTemplatesDir(), name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := List(p)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name, Source, About string
		Overrides, Agent    bool
	}
	var got []row
	for _, x := range ts {
		src := x.Source
		if src != Shipped {
			src = filepath.Base(src)
		}
		got = append(got, row{x.Name, src, x.About, x.Overrides, x.NeedsAgent})
	}
	want := []row{
		{"agent", "agent.kitty-session", "mine", true, true},
		{"duo", Shipped, `two agents side by side, a shell below.`, false, true},
		{"plain", Shipped, `one tab with a shell in the session's directory.`, false, false},
		{"review", Shipped, `an agent, the working tree's diff, a shell.`, false, true},
		{"solo", "solo.kitty-session", "", false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("templates (-want +got):\n%s", diff)
	}
	if _, err := Find(ts, "nope"); !errors.Is(err, ErrUnknownTemplate) || err.Error() != `unknown template "nope"; templates: agent, duo, plain, review, solo` {
		t.Errorf("Find(nope): %v", err)
	}
}

func TestRender(t *testing.T) {
	tmpl := Template{Name: "t", Source: Shipped, NeedsAgent: true,
		Data: []byte("new_tab {name}\ncd {cwd}\nlaunch --title {agent} {agent} --add-dir {cwd}\n")}
	for _, tc := range []struct {
		name string
		v    Values
		argv []string // the launch line's command as kitty reads it
		bad  bool
	}{
		{name: "plain", v: Values{Name: "work", Cwd: "/srv/work", Agent: "claude"}, argv: []string{"claude", "--add-dir", "/srv/work"}},
		{name: "quoted on the launch line, as is on cd", v: Values{Name: "w", Cwd: "/srv/it's my `dir`", Agent: "claude"},
			argv: []string{"claude", "--add-dir", "/srv/it's my `dir`"}},
		{name: "a $ reads two ways", v: Values{Name: "w", Cwd: "/srv/$HOME", Agent: "claude"}, bad: true},
		{name: "a line break", v: Values{Name: "w\nlaunch rm", Cwd: "/srv", Agent: "claude"}, bad: true},
		{name: "no agent", v: Values{Name: "w", Cwd: "/srv"}, bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := Render(tmpl, tc.v)
			if tc.bad {
				if err == nil {
					t.Fatalf("rendered:\n%s", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f, err := sessionfile.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			ws := f.Windows()
			if len(ws) != 1 || ws[0].Cwd != tc.v.Cwd || ws[0].TabTitle != tc.v.Name {
				t.Fatalf("windows %+v\n%s", ws, data)
			}
			if diff := cmp.Diff(tc.argv, ws[0].Line.Launch.Argv); diff != "" {
				t.Errorf("argv (-want +got):\n%s\n%s", diff, data)
			}
		})
	}
}

func TestMissing(t *testing.T) {
	ts, _ := List(paths.Under(t.TempDir()))
	for _, tc := range []struct {
		c    Choices
		want string
	}{
		{Choices{}, "--template is missing: agent, duo, plain, review (no terminal to ask on)"},
		{Choices{Template: "duo"}, "--agent is missing (template duo runs one): claude, codex (no terminal to ask on)"},
		{Choices{Template: "plain"}, ""},
		{Choices{Template: "duo", Agent: "codex"}, ""},
	} {
		err := Missing(tc.c, ts, []string{"claude", "codex"})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Missing(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestAsk: what is missing is asked in order, the agent only for a
// template that runs one; Ctrl-C is ErrCancelled.
func TestAsk(t *testing.T) {
	ts := []Template{{Name: "plain"}, {Name: "solo", NeedsAgent: true}}
	for _, c := range []struct {
		keys string
		have Choices
		want Choices
		err  error
	}{
		{"2\x1b[B\r\r", Choices{}, Choices{Template: "solo", Agent: "codex", Cwd: "/home/me"}, nil},
		{"\r\x15/src\r", Choices{}, Choices{Template: "plain", Cwd: "/src"}, nil},
		{"\r", Choices{Template: "solo", Agent: "claude"}, Choices{Template: "solo", Agent: "claude", Cwd: "/home/me"}, nil},
		{"", Choices{Template: "solo", Agent: "claude", Cwd: "/w"}, Choices{Template: "solo", Agent: "claude", Cwd: "/w"}, nil},
		{"2\x03", Choices{}, Choices{Template: "solo"}, ErrCancelled},
	} {
		var out strings.Builder
		got := c.have
		err := Ask(strings.NewReader(c.keys), &out, &got, ts, []string{"claude", "codex"}, "/home/me")
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("keys %q from %+v: %+v, %v; want %+v, %v", c.keys, c.have, got, err, c.want, c.err)
		}
	}
}
