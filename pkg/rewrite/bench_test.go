package rewrite_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

func BenchmarkRewrite(b *testing.B) {
	raw := kittytest.Fixture(b, "0.48.2/save_as_session-use-foreground-process.kitty-session")
	set, err := agents.Load("")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadAgents is what the restore prompt pays at start-up for the
// definitions it validates a record against.
func BenchmarkLoadAgents(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agents.Load(""); err != nil {
			b.Fatal(err)
		}
	}
}

// largeSave is a save of n windows, all in one directory, a third of them
// claude without an id, a third claude with one, a third shells: the worst
// case for the "latest" and "twice" rules, which compare windows of one
// agent in one directory.
func largeSave(n int) []byte {
	var b strings.Builder
	b.WriteString("new_tab\ncd /home/u/code/api\n")
	for i := 1; i <= n; i++ {
		if i%100 == 0 {
			b.WriteString("\nnew_tab\ncd /home/u/code/api\n")
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d, \"cmd_at_shell_startup\": \"claude --model opus\"}'\n", i)
		case 1:
			fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d, \"cmd_at_shell_startup\": \"claude --resume 4f9e2a51-3c1d-4b7a-9e0f-%012d\"}'\n", i, i)
		default:
			fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d}' --cwd=/home/u/code/api --var=project=web\n", i)
		}
	}
	return []byte(b.String())
}

// BenchmarkRewriteScaling shows the rewrite's cost per window staying flat
// as a save grows: ten times the windows, about ten times the time.
func BenchmarkRewriteScaling(b *testing.B) {
	set, err := agents.Load("")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 10000, 100000} {
		raw := largeSave(n)
		b.Run(fmt.Sprintf("windows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := rewrite.Rewrite(raw, rewrite.Options{Agents: set, ResumeBin: bin}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
