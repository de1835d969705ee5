// Command kittymux-resume is the restore prompt that kittymux puts in each
// restored agent window (see pkg/prompt), and, run over ssh on a host,
// the check that resumes an agent there (see pkg/remote).
package main

import (
	"os"

	"github.com/kittymux/kittymux/pkg/prompt"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/remote/host"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == remote.CheckFlag {
		os.Exit(host.CheckMain(os.Args[2:]))
	}
	os.Exit(prompt.Main(os.Args[1:]))
}
