//go:build !linux

package conversations

import (
	"io/fs"
)

// serverHolding needs /proc: elsewhere no server is seen holding a
// conversation, and the resume runs as it would have.
func serverHolding(func(argv []string) bool, fs.FileInfo) (int, []string) { return 0, nil }
