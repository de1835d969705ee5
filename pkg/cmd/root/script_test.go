package root_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/prompt"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

func TestMain(m *testing.M) {
	testscript.Main(removingBins{m}, map[string]func(){
		"kittymux":        func() { os.Exit(root.Main(factory.New(), os.Args[1:])) },
		"kittymux-resume": func() { os.Exit(prompt.Main(os.Args[1:])) },
	})
}

// tsTB lets the kittytest helpers run inside a script.
type tsTB struct{ ts *testscript.TestScript }

func (t tsTB) Helper()                           {}
func (t tsTB) Fatalf(format string, args ...any) { t.ts.Fatalf(format, args...) }
func (t tsTB) Cleanup(f func())                  { t.ts.Defer(f) }

var nowRE = regexp.MustCompile(`\{\{now-([0-9a-z.]+)\}\}`)

var fakes sync.Map // *testscript.TestScript -> *kittytest.Fake

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("..", "..", "..", "testdata", "script"),
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("KITTY_LISTEN_ON", "")
			env.Setenv("KITTY_PID", "")
			env.Setenv("KITTYMUX_RESUME_BIN", "/opt/kittymux/bin/kittymux-resume")
			// Agent CLIs installed on the machine must not show up in the
			// scripts: PATH is testscript's directory of kittymux (the one
			// holding it) and the system's own.
			for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
				if _, err := os.Stat(filepath.Join(dir, "kittymux")); err == nil {
					env.Setenv("PATH", dir+string(filepath.ListSeparator)+"/usr/bin:/bin")
					break
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// fakekitty [-version V] LS [SESSION]: a fake kitty serving the
			// fixtures (paths in testdata/kitty or the script's work dir);
			// KITTY_LISTEN_ON points at it.
			"fakekitty": func(ts *testscript.TestScript, neg bool, args []string) {
				o := kittytest.FakeOptions{}
				if len(args) > 1 && args[0] == "-version" {
					v, err := kitty.ParseVersion(args[1])
					ts.Check(err)
					o.Version, args = v, args[2:]
				}
				if len(args) < 1 {
					ts.Fatalf("usage: fakekitty [-version V] LS [SESSION]")
				}
				read := func(name string) []byte {
					if b, err := os.ReadFile(ts.MkAbs(name)); err == nil {
						return b
					}
					return kittytest.Fixture(tsTB{ts}, name)
				}
				o.LS = read(args[0])
				if len(args) > 1 {
					o.Session = read(args[1])
				}
				f := kittytest.StartFake(tsTB{ts}, o)
				fakes.Store(ts, f)
				ts.Defer(func() { fakes.Delete(ts) })
				ts.Setenv("KITTY_LISTEN_ON", f.Addr.String())
			},
			// waitfile FILE: wait up to 20 s (stretched on a busy machine) for FILE to exist (a background
			// command's output).
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: waitfile FILE")
				}
				bound := kittytest.NewBound(tsTB{ts}, args[0]+" to appear", 20*time.Second)
				for ; ; time.Sleep(20 * time.Millisecond) {
					if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
						return
					}
					if bound.Over() {
						ts.Fatalf("%v", bound)
					}
				}
			},
			// journal FILE: FILE becomes the journal (agent-sessions.json in
			// the state directory), each {{now-DUR}} in it replaced by that
			// time (DUR a Go duration), so ages stay what the script says,
			// and $WORK by the script's directory.
			"journal": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: journal FILE")
				}
				data, err := os.ReadFile(ts.MkAbs(args[0]))
				ts.Check(err)
				now := time.Now()
				text := nowRE.ReplaceAllStringFunc(string(data), func(m string) string {
					d, err := time.ParseDuration(nowRE.FindStringSubmatch(m)[1])
					ts.Check(err)
					return now.Add(-d).UTC().Format(time.RFC3339Nano)
				})
				text = strings.ReplaceAll(text, "$WORK", ts.Getenv("WORK"))
				dir := filepath.Join(ts.Getenv("XDG_STATE_HOME"), "kittymux")
				ts.Check(os.MkdirAll(dir, 0o700))
				ts.Check(os.WriteFile(filepath.Join(dir, "agent-sessions.json"), []byte(text), 0o600))
			},
			// fakekitty-requests: what the fake received, a line each.
			"fakekitty-requests": func(ts *testscript.TestScript, neg bool, args []string) {
				v, ok := fakes.Load(ts)
				if !ok {
					ts.Fatalf("no fakekitty running")
				}
				for _, r := range v.(*kittytest.Fake).Requests() {
					b, _ := json.Marshal(r.Payload)
					fmt.Fprintf(ts.Stdout(), "%s %s\n", r.Cmd, strings.ReplaceAll(string(b), ts.Getenv("WORK"), "$WORK"))
				}
			},
		},
	})
}
