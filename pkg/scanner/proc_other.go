//go:build !linux

package scanner

import "github.com/kittymux/kittymux/pkg/agents"

// procCanRead: without /proc kittymux does not read another process's
// executable or environment here; kitty's ls is all it has, and records made
// from it are not sealed.
const procCanRead = false

func readProc(string, int) (agents.Proc, bool) { return agents.Proc{}, false }
