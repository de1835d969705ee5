package doctor

import (
	"context"
	"fmt"
	"io"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/setup"
)

// checkSetup reports each part `kittymux setup` puts in place.
func checkSetup(ctx context.Context, f *factory.Factory, scannerRunning bool) []setup.Part {
	e := setup.Env{Paths: f.Paths, KittyConfDir: kitty.ConfigDir(f.Getenv), Home: f.Getenv("HOME"), Getenv: f.Getenv}
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
