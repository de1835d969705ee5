//go:build !linux

package live

import "github.com/kittymux/kittymux/pkg/agents"

// readProc: without /proc kittymux does not read another process's
// executable or environment here; kitty's ls is all it has, and records made
// from it are not sealed.
func readProc(string, int) (agents.Proc, bool) { return agents.Proc{}, false }
