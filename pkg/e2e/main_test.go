//go:build linux

package e2e_test

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/prompt"
)

// TestMain puts the test binary on PATH as kittymux and kittymux-resume:
// what the restored windows, the hooks and the scanner's kitty run.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"kittymux":        func() { os.Exit(root.Main(factory.New(), os.Args[1:])) },
		"kittymux-resume": func() { os.Exit(prompt.Main(os.Args[1:])) },
	})
}
