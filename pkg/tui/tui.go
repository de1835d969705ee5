// Package tui prepares the forms kittymux shows on a terminal (huh) so that
// nothing asks the terminal a question: not at start (see internal/quiet)
// and not when a form is shown.
package tui

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"

	"github.com/kittymux/kittymux/pkg/tui/internal/quiet"
)

// init runs once the form libraries are initialized: the real standard
// output back, and lipgloss's default renderer drawing for it with the
// background decided, so that nothing renders through one that would ask.
func init() {
	quiet.Restore()
	lipgloss.SetDefaultRenderer(renderer(os.Stdout))
}

func renderer(out io.Writer) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(out)
	r.SetHasDarkBackground(darkBackground(os.Getenv("COLORFGBG")))
	return r
}

// NewForm is huh.NewForm drawn for out. Its colours follow the terminal's
// abilities as the environment tells them (TERM, COLORTERM, NO_COLOR), and
// light or dark from COLORFGBG (dark when it does not say): the terminal is
// never queried, so no answer is awaited and none arrives in the form's
// input.
func NewForm(out io.Writer, groups ...*huh.Group) *huh.Form {
	lipgloss.SetDefaultRenderer(renderer(out))
	return huh.NewForm(groups...).WithOutput(out)
}

// darkBackground reads COLORFGBG ("fg;bg", bg an ANSI colour number): the
// light backgrounds are 7 and 9 to 15. Unset or unreadable: dark.
func darkBackground(colorfgbg string) bool {
	parts := strings.Split(colorfgbg, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return true
	}
	return !(bg == 7 || bg >= 9 && bg <= 15)
}
