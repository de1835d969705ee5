// Command kittymux keeps AI coding agents' conversations across kitty restarts.
package main

import (
	"os"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/hookrun"
	"github.com/kittymux/kittymux/pkg/lease"
)

func main() {
	// An agent waits for its hook: it runs before the command tree is built.
	if len(os.Args) > 2 && os.Args[1] == "hook" && os.Args[2] != "--help" && os.Args[2] != "-h" {
		os.Exit(hookrun.Main(os.Args[2:], os.Stdin, lease.Move))
	}
	os.Exit(root.Main(factory.New(), os.Args[1:]))
}
