package rewrite_test

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty/kittytest"
	"github.com/kittymux/kittymux/pkg/rewrite"
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
