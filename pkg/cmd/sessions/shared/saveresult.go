package shared

import (
	"fmt"
	"io"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/rewrite"
)

// SaveResult is what `save --json` and `publish --json` print.
type SaveResult struct {
	Name    string            `json:"name"`
	Path    string            `json:"path"`
	Kitty   string            `json:"kitty"`
	Windows []rewrite.Outcome `json:"windows"`
	// Warnings say what of kitty's save was refused or changed.
	Warnings []string `json:"warnings,omitempty"`
	// ScreenHistory are the windows (kitty's ids) whose screen history
	// the save keeps.
	ScreenHistory []int `json:"screen_history,omitempty"`
}

// PrintSaved says what was saved: as JSON, or a line per window.
func PrintSaved(w io.Writer, asJSON bool, r SaveResult) error {
	if asJSON {
		return factory.PrintJSON(w, r)
	}
	fmt.Fprintf(w, "saved %s (%s)\n", r.Name, r.Path)
	for _, x := range r.Windows {
		cmd := "(kept as saved)"
		if x.Mode != plan.ModeAsSaved {
			cmd = recognize.Quote(x.Argv)
		}
		// The argv and the reason hold what ran in kitty's windows.
		fmt.Fprintf(w, "  window %d  %-8s %-8s %s\n      %s\n", x.WindowID, kitty.Printable(x.Agent), x.Mode, kitty.Printable(cmd), kitty.Printable(x.Reason))
	}
	if n := len(r.ScreenHistory); n > 0 {
		fmt.Fprintf(w, "  screen history kept for %d plain window(s)\n", n)
	}
	return nil
}

// PrintWarnings says what of kitty's save was refused or changed (the
// warnings are printable already).
func PrintWarnings(w io.Writer, warnings []string) {
	for _, x := range warnings {
		fmt.Fprintf(w, "kittymux: warning: %s\n", x)
	}
}
