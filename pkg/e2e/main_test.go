//go:build linux

package e2e_test

import (
	"testing"

	"github.com/kittymux/kittymux/pkg/e2e/e2etest"
)

// TestMain puts the test binary on PATH as kittymux and kittymux-resume:
// what the restored windows, the watcher and the scanner's kitty run.
func TestMain(m *testing.M) { e2etest.Main(m) }
