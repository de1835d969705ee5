// Command kittymux-resume is the restore prompt that kittymux puts in each
// restored agent window. See pkg/prompt.
package main

import (
	"os"

	"github.com/kittymux/kittymux/pkg/prompt"
)

func main() { os.Exit(prompt.Main(os.Args[1:])) }
