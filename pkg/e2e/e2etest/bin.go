package e2etest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/prompt"
)

// Main is the TestMain of the end-to-end packages: it puts the test binary
// on PATH as kittymux and kittymux-resume (testscript), and removes the
// binaries Bin built once the tests are done.
func Main(m *testing.M) {
	testscript.Main(withBins{m}, map[string]func(){
		"kittymux":        func() { os.Exit(root.Main(factory.New(), os.Args[1:])) },
		"kittymux-resume": func() { os.Exit(prompt.Main(os.Args[1:])) },
	})
}

// withBins runs the tests, then removes what Bin built.
type withBins struct{ m *testing.M }

func (w withBins) Run() int {
	code := w.m.Run()
	if bins.dir != "" {
		os.RemoveAll(bins.dir)
	}
	return code
}

var bins struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// Bin returns the path of the command name (kittymux or kittymux-resume)
// built from this module, built once per test binary on first use: what
// the agents' hooks and the restored windows run.
func Bin(t testing.TB, name string) string {
	t.Helper()
	bins.once.Do(func() {
		bins.dir, bins.err = os.MkdirTemp("", "kittymux-e2e-")
		if bins.err == nil {
			bins.out, bins.err = exec.Command("go", "build", "-o", bins.dir, "github.com/kittymux/kittymux/cmd/...").CombinedOutput()
		}
	})
	if bins.err != nil {
		t.Fatalf("build kittymux: %v\n%s", bins.err, bins.out)
	}
	return filepath.Join(bins.dir, name)
}
