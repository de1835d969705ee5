package prompt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// BenchmarkTrust is what the seal and the installed-program check add to
// the prompt's start in every restored window: the key read, the seal, and
// the program resolved against PATH.
func BenchmarkTrust(b *testing.B) {
	dir := b.TempDir()
	p := paths.Paths{StateDir: filepath.Join(dir, "state")}
	key, err := resumerecord.LoadOrCreateKey(p)
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	claude := filepath.Join(bin, "claude")
	if err := os.WriteFile(claude, nil, 0o755); err != nil {
		b.Fatal(err)
	}
	set, err := agents.Load("")
	if err != nil {
		b.Fatal(err)
	}
	id := "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	r := resumerecord.Record{Agent: "claude", Mode: "exact", ID: id, Exe: []string{claude},
		Argv: []string{claude, "--model", "sonnet", "--resume", id}}.Sealed(key)
	lookPath := func(name string) (string, error) { return filepath.Join(bin, name), nil }
	b.ResetTimer()
	for b.Loop() {
		k, err := resumerecord.ReadKey(p.ResumeKey())
		if err != nil {
			b.Fatal(err)
		}
		sealed := r.Verify(k) == nil
		if _, err := validate(set, lookPath, r, sealed); err != nil || !sealed {
			b.Fatal(err, sealed)
		}
	}
}
