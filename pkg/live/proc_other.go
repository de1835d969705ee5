//go:build !linux

package live

import (
	"github.com/kittymux/kittymux/pkg/recognize"
)

// readProc: without /proc kittymux does not read another process's
// executable or environment here; kitty's ls is all it has, and records made
// from it are not sealed.
func readProc(string, int) (recognize.Proc, bool) { return recognize.Proc{}, false }
