// Command kittymux keeps AI coding agents' conversations across kitty restarts.
package main

import (
	"os"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/root"
)

func main() { os.Exit(root.Main(factory.New(), os.Args[1:])) }
