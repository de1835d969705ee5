package doctor

import (
	"context"
	"fmt"
	"io"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/setup"
)

// checkSetup reports each part `kittymux setup` puts in place.
func checkSetup(ctx context.Context, o *Options, scannerRunning bool) []setup.Part {
	e := setup.Env{Paths: o.Paths, KittyConfDir: kitty.ConfigDir(o.Getenv), Home: o.Getenv("HOME"), Getenv: o.Getenv}
	return setup.Check(ctx, e, scannerRunning)
}

func printSetup(w io.Writer, parts []setup.Part) {
	for _, p := range parts {
		state := "ok"
		if !p.OK {
			state = "TO DO"
		}
		// Notes hold paths and values from kitty.conf.
		fmt.Fprintf(w, "setup      %-14s %-5s %s\n", p.Name, state, kitty.Printable(p.Note))
	}
}
